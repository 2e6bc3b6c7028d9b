/**
 * The plugin process's gRPC server: the tfplugin6 Provider service over a ProviderService, plus what
 * go-plugin hosts expect beside it (health, the controller's Shutdown, the stdio and broker streams),
 * on a loopback port, with mutual TLS when the host sent its certificate.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProviderFactory } from '../provider/resource';
import { generateCertificate } from './certificate';
import { handshakeLine } from './handshake';
import { ProviderService, type ProviderServiceOptions } from './provider-service';

export const PROTO_DIR = path.join(__dirname, 'proto');
export const PROTO_FILES = [
  'tfplugin6.proto',
  'health.proto',
  'grpc_controller.proto',
  'grpc_stdio.proto',
  'grpc_broker.proto',
];

/** How messages look in JavaScript, for the server and for clients (tests) alike. */
export const PROTO_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

/**
 * The protos parsed, as protobufjs's JSON: written by the build (scripts/build-bundles.js) so that a
 * plugin's start does not parse the .proto text again (about half of building the definitions). From
 * the sources (tests), the text is parsed as before.
 */
export const PROTO_JSON = path.join(PROTO_DIR, 'protos.json');

type ProtoJson = Parameters<typeof protoLoader.fromJSON>[0];

let loaded: protoLoader.PackageDefinition | undefined;

export function loadProtos(): protoLoader.PackageDefinition {
  loaded ??= existsSync(PROTO_JSON)
    ? protoLoader.fromJSON(JSON.parse(readFileSync(PROTO_JSON, 'utf8')) as ProtoJson, PROTO_OPTIONS)
    : protoLoader.loadSync(PROTO_FILES, PROTO_OPTIONS);
  return loaded;
}

function service(def: protoLoader.PackageDefinition, name: string): grpc.ServiceDefinition {
  const s = def[name];
  if (!s || 'format' in s || 'type' in s) throw new Error(`${name} is not a service in the plugin protos`);
  return s as unknown as grpc.ServiceDefinition;
}

type Handler = (req: never) => unknown;

function unary(fn: Handler): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => (fn as (req: unknown) => unknown)(call.request))
      .then(
        (res) => callback(null, res),
        (err: unknown) =>
          callback({ code: grpc.status.INTERNAL, details: err instanceof Error ? err.message : String(err) }),
      );
  };
}

export interface PluginServerOptions extends ProviderServiceOptions {
  factory: ProviderFactory;
  /** The host's certificate (PEM): serve TLS, requiring a client certificate signed by it. */
  clientCertPem?: string;
  host?: string;
}

export interface PluginServer {
  address: string;
  /** Our certificate when serving TLS. */
  certPem?: string;
  handshakeLine: string;
  service: ProviderService;
  /** Stops serving (what the controller's Shutdown does). */
  stop(): Promise<void>;
  /** Resolves once the server has stopped. */
  closed: Promise<void>;
}

export async function startPluginServer(opts: PluginServerOptions): Promise<PluginServer> {
  const def = loadProtos();
  const impl = new ProviderService(opts.factory, opts);
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 256 << 20,
    'grpc.max_send_message_length': 256 << 20,
  });
  const streams = new Set<
    grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>
  >();
  let stopping: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      for (const s of streams) s.end();
      streams.clear();
      await impl.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      resolveClosed();
    })();
    return stopping;
  };

  const unsupported =
    (what: string): Handler =>
    () =>
      impl.unsupported(what);
  server.addService(service(def, 'tfplugin6.Provider'), {
    GetMetadata: unary(() => impl.getMetadata()),
    GetProviderSchema: unary(() => impl.getProviderSchema()),
    ValidateProviderConfig: unary((r) => impl.validateProviderConfig(r)),
    ValidateResourceConfig: unary((r) => impl.validateResourceConfig(r)),
    ValidateDataResourceConfig: unary((r) => impl.validateDataResourceConfig(r)),
    UpgradeResourceState: unary((r) => impl.upgradeResourceState(r)),
    GetResourceIdentitySchemas: unary(() => impl.getResourceIdentitySchemas()),
    UpgradeResourceIdentity: unary(unsupported('resource identity')),
    ConfigureProvider: unary((r) => impl.configureProvider(r)),
    ReadResource: unary((r) => impl.readResource(r)),
    PlanResourceChange: unary((r) => impl.planResourceChange(r)),
    ApplyResourceChange: unary((r) => impl.applyResourceChange(r)),
    ImportResourceState: unary((r) => impl.importResourceState(r)),
    MoveResourceState: unary((r) => impl.moveResourceState(r)),
    ReadDataSource: unary((r) => impl.readDataSource(r)),
    ValidateEphemeralResourceConfig: unary(unsupported('ephemeral resources')),
    OpenEphemeralResource: unary(unsupported('ephemeral resources')),
    RenewEphemeralResource: unary(unsupported('ephemeral resources')),
    CloseEphemeralResource: unary(unsupported('ephemeral resources')),
    GetFunctions: unary(() => impl.getFunctions()),
    CallFunction: unary((r) => impl.callFunction(r)),
    StopProvider: unary(() => impl.stopProvider()),
  });

  server.addService(service(def, 'grpc.health.v1.Health'), {
    Check: unary(() => ({ status: 'SERVING' })),
    Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      streams.add(call);
      call.write({ status: 'SERVING' });
      call.on('cancelled', () => streams.delete(call));
    },
  });

  server.addService(service(def, 'plugin.GRPCController'), {
    Shutdown: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
      callback(null, {});
      // Answer first: the host waits for the reply, then for the process to exit.
      setImmediate(() => void stop());
    },
  });

  // Our output goes to stderr, which go-plugin reads itself; the stream only has to exist and stay open.
  server.addService(service(def, 'plugin.GRPCStdio'), {
    StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      streams.add(call);
      call.on('cancelled', () => streams.delete(call));
    },
  });

  server.addService(service(def, 'plugin.GRPCBroker'), {
    StartStream: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
      streams.add(call);
      call.on('data', () => undefined);
      call.on('end', () => {
        streams.delete(call);
        call.end();
      });
      call.on('cancelled', () => streams.delete(call));
    },
  });

  let credentials: grpc.ServerCredentials;
  let certDer: Buffer | undefined;
  let certPem: string | undefined;
  if (opts.clientCertPem) {
    const cert = generateCertificate();
    certDer = cert.certDer;
    certPem = cert.certPem;
    credentials = grpc.ServerCredentials.createSsl(
      Buffer.from(opts.clientCertPem),
      [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
      true,
    );
  } else {
    credentials = grpc.ServerCredentials.createInsecure();
  }

  const host = opts.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:0`, credentials, (err, p) => (err ? reject(err) : resolve(p))),
  );
  const address = `${host}:${port}`;
  return {
    address,
    ...(certPem ? { certPem } : {}),
    handshakeLine: handshakeLine(address, certDer),
    service: impl,
    stop,
    closed,
  };
}
