/**
 * A gRPC client of a provider plugin built from the same .proto files the plugin serves, as Terraform
 * would be: promise-returning calls of tfplugin6.Provider, the health check and the controller.
 */
import * as grpc from '@grpc/grpc-js';
import { loadProtos } from '../../../../src/plugin/server';
import { decodeMsgpackValue, encodeMsgpackValue, type CtyType } from '../../../../src/plugin/cty';

type Ctor = new (
  address: string,
  creds: grpc.ChannelCredentials,
  options?: grpc.ChannelOptions,
) => grpc.Client;

function lookup(root: grpc.GrpcObject, name: string): Ctor {
  let cur: unknown = root;
  for (const part of name.split('.')) cur = (cur as Record<string, unknown>)[part];
  if (typeof cur !== 'function') throw new Error(`${name} is not a service`);
  return cur as Ctor;
}

export type Message = Record<string, unknown>;

export interface PluginClient {
  call(method: string, request?: Message): Promise<Message>;
  health(service?: string): Promise<Message>;
  shutdown(): Promise<void>;
  close(): void;
}

export interface ClientTls {
  /** The plugin's certificate, trusted as the only root. */
  serverCertPem: string;
  /** The host's own certificate and key (what it put in PLUGIN_CLIENT_CERT). */
  certPem: string;
  keyPem: string;
}

export function connect(address: string, tls?: ClientTls): PluginClient {
  const root = grpc.loadPackageDefinition(loadProtos());
  const creds = tls
    ? grpc.credentials.createSsl(
        Buffer.from(tls.serverCertPem),
        Buffer.from(tls.keyPem),
        Buffer.from(tls.certPem),
      )
    : grpc.credentials.createInsecure();
  // go-plugin's host expects the name "localhost" in the plugin's certificate.
  const options: grpc.ChannelOptions = tls ? { 'grpc.ssl_target_name_override': 'localhost' } : {};
  const provider = new (lookup(root, 'tfplugin6.Provider'))(address, creds, options);
  const health = new (lookup(root, 'grpc.health.v1.Health'))(address, creds, options);
  const controller = new (lookup(root, 'plugin.GRPCController'))(address, creds, options);
  const unary = (client: grpc.Client, method: string, req: Message): Promise<Message> =>
    new Promise((resolve, reject) => {
      const fn = (client as unknown as Record<string, unknown>)[method];
      if (typeof fn !== 'function') return reject(new Error(`no method ${method}`));
      (fn as (r: Message, cb: (e: grpc.ServiceError | null, v: Message) => void) => void).call(
        client,
        req,
        (e, v) => (e ? reject(e) : resolve(v)),
      );
    });
  return {
    call: (method, req = {}) => unary(provider, method, req),
    health: (service = 'plugin') => unary(health, 'Check', { service }),
    shutdown: async () => {
      await unary(controller, 'Shutdown', {});
    },
    close() {
      provider.close();
      health.close();
      controller.close();
    },
  };
}

export const dv = (value: unknown, type: CtyType): Message => ({ msgpack: encodeMsgpackValue(value, type) });

export function fromDv(v: unknown, type: CtyType): unknown {
  const m = v as { msgpack?: Uint8Array; json?: Uint8Array } | null;
  if (!m) return null;
  if (m.msgpack && m.msgpack.length > 0) return decodeMsgpackValue(m.msgpack, type);
  if (m.json && m.json.length > 0) return JSON.parse(Buffer.from(m.json).toString('utf8'));
  return null;
}

export interface ProtoDiag {
  severity: string;
  summary: string;
  detail: string;
  attribute: { steps: Array<Record<string, unknown>> } | null;
}

export const diagsOf = (res: Message): ProtoDiag[] => (res['diagnostics'] as ProtoDiag[] | undefined) ?? [];
export const errorsOf = (res: Message): ProtoDiag[] => diagsOf(res).filter((d) => d.severity === 'ERROR');
