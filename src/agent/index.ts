/**
 * The embedded dev agent: the scheduler and the registry over one store, served on two ports, like
 * `nomad agent -dev` and `consul agent -dev` side by side. Tests start it in-process:
 * `const agent = await startDevAgent({ port: 0, registryPort: 0 })`.
 */
import type { Server } from 'node:http';
import { createSecureContext } from 'node:tls';
import { readPem } from '../api/pem';
import { formatIssuePath } from '../api/issue-path';
import { Clock } from './clock';
import { closeServer, createServiceServer, listen, type ServerTls } from './http/server';
import { DevAgentOptionsSchema, type DevAgentOptions, type ResolvedDevAgentOptions } from './options';
import { createSchedulerService, type SchedulerService } from './sched/service';
import type { RegistryTls } from './reg/context';
import { Store } from './store';
import { serverDialect } from './http/dialect';
import { createRegistryService } from './reg/service';

export type { DevAgentOptions } from './options';

export interface RequestCount {
  method: string;
  path: string;
  status: number;
  /** Time the agent spent on it, from arrival to the last byte written. */
  durationMs: number;
  /** performance.now() of this process when it finished (orders requests against other clocks in-process). */
  finishedAt: number;
}

export interface DevAgent {
  schedulerUrl: string;
  registryUrl: string | undefined;
  options: ResolvedDevAgentOptions;
  store: Store;
  scheduler: SchedulerService;
  /** Every request served, in order, with `recordRequests` (empty without it). */
  requests: RequestCount[];
  stop(): Promise<void>;
}

export class DevAgentOptionsError extends Error {}

export function resolveOptions(input: DevAgentOptions): ResolvedDevAgentOptions {
  const r = DevAgentOptionsSchema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new DevAgentOptionsError(`dev agent option ${formatIssuePath(issue.path)}: ${issue.message}`);
  }
  if (r.data.requestTimeoutMs < r.data.headersTimeoutMs)
    throw new DevAgentOptionsError(
      `dev agent option requestTimeoutMs: must be at least headersTimeoutMs (${r.data.headersTimeoutMs})`,
    );
  return r.data;
}

interface AgentTlsPems {
  server: ServerTls;
  registry: RegistryTls;
}

/** Reads the TLS option's PEMs once; a file that cannot be read fails the start, naming the option. */
function readAgentTls(t: ResolvedDevAgentOptions['tls']): AgentTlsPems | undefined {
  if (!t) return undefined;
  const read = (field: 'cert' | 'key' | 'ca', value: string): string => {
    try {
      return readPem(value)!;
    } catch (err) {
      // The key's value is never echoed: a mangled PEM key would be taken for a path.
      const shown = field === 'key' ? 'the file given' : JSON.stringify(value);
      throw new DevAgentOptionsError(
        `dev agent option tls.${field}: cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}); give PEM text or the path of a PEM file`,
      );
    }
  };
  const cert = read('cert', t.cert);
  const key = read('key', t.key);
  const ca = t.ca === undefined ? undefined : read('ca', t.ca);
  try {
    createSecureContext({ cert, key, ...(ca ? { ca } : {}) });
  } catch (err) {
    // OpenSSL's reason names the PEM problem, never the key's contents.
    throw new DevAgentOptionsError(
      `dev agent option tls: the certificate, key and CA are not usable together (${(err as Error).message})`,
    );
  }
  return {
    server: { cert, key, ...(t.verifyIncoming && ca ? { clientCa: ca } : {}) },
    // A self-signed certificate is its own CA.
    registry: { caPems: [ca ?? cert], cert, key },
  };
}

export async function startDevAgent(input: DevAgentOptions = {}): Promise<DevAgent> {
  const options = resolveOptions(input);
  // Before anything is opened: an unreadable certificate must not leave the data dir locked.
  const tls = readAgentTls(options.tls);
  const log = options.log ?? (() => undefined);
  const timeouts = { headersMs: options.headersTimeoutMs, requestMs: options.requestTimeoutMs };
  const store = Store.open({ dataDir: options.dataDir, onError: (e) => log(`store: ${String(e)}`) });
  const clock = new Clock(options.timeScale);
  const requests: RequestCount[] = [];
  const record = options.recordRequests
    ? (r: Omit<RequestCount, 'finishedAt'>): void =>
        void requests.push({ ...r, finishedAt: performance.now() })
    : undefined;
  let schedulerUrl = '';
  let registryUrl = '';
  const scheduler = createSchedulerService({
    store,
    clock,
    settings: {
      region: options.region,
      datacenter: options.datacenter,
      nodes: options.nodes,
      nodeCpu: options.nodeCpu,
      nodeMemoryMB: options.nodeMemory,
      nodeDiskMB: options.nodeDisk,
      nodePool: options.nodePool,
    },
    self: () => ({ url: schedulerUrl }),
    log,
    acl: { enabled: options.acl, bootstrapToken: options.bootstrapToken },
    dataDir: options.dataDir,
  });
  const servers: Server[] = [];
  const stops: Array<() => void> = [];
  try {
    const schedServer = createServiceServer({
      router: scheduler.router,
      headerPrefix: 'X-Sched-',
      dialect: serverDialect('scheduler', options.dialect),
      writeIndexHeader: true,
      authorize: scheduler.authorize,
      onUpgrade: scheduler.upgrade,
      log,
      onRequest: record,
      tls: tls?.server,
      timeouts,
    });
    servers.push(schedServer);
    scheduler.start();
    stops.push(() => scheduler.stop());
    schedulerUrl = await listen(schedServer, options.port, options.bind);
    if (options.registry) {
      const registry = createRegistryService({
        store,
        clock,
        datacenter: options.datacenter,
        acl: { enabled: options.acl, bootstrapToken: options.bootstrapToken },
        selfAddress: () => registryUrl,
        ...(tls ? { tls: tls.registry } : {}),
        log,
      });
      stops.push(() => registry.stop());
      const regServer = createServiceServer({
        router: registry.router,
        headerPrefix: 'X-Reg-',
        dialect: serverDialect('registry', options.dialect),
        tokenFromQuery: true,
        authorize: registry.authorize,
        log,
        onRequest: record,
        tls: tls?.server,
        timeouts,
      });
      servers.push(regServer);
      registryUrl = await listen(regServer, options.registryPort, options.bind);
    }
  } catch (err) {
    for (const s of stops.reverse()) s();
    scheduler.closeConnections();
    await Promise.all(servers.map((s) => closeServer(s).catch(() => undefined)));
    clock.stop();
    store.close();
    throw err;
  }
  let stopped = false;
  return {
    schedulerUrl,
    registryUrl: registryUrl || undefined,
    options,
    store,
    scheduler,
    requests,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Upgraded (exec) sockets are not the HTTP server's to close; end them first.
      scheduler.closeConnections();
      await Promise.all(servers.map((s) => closeServer(s)));
      for (const s of stops.reverse()) s();
      clock.stop();
      store.close();
    },
  };
}
