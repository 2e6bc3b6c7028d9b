/**
 * The scheduler service: its routes, the evaluation broker, the simulated clients, the deployment
 * watcher and the periodic dispatcher, all over one store. `createSchedulerService` wires them;
 * `startDevAgent` serves the router.
 */
import { Clock } from '../clock';
import type { RequestContext, RouteMeta } from '../http/router';
import { Router } from '../http/router';
import type { Store } from '../store';
import { createSchedAcl, type SchedAcl, type SchedAclOptions } from './acl';
import { EvalBroker } from './broker';
import { ClientRunner } from './client/runner';
import type { SchedContext, SchedSettings } from './context';
import { DeploymentWatcher } from './deployments/watcher';
import { createSchedEvents, type EventBroker } from './events';
import { createSchedExec, type SchedExec } from './exec';
import { PeriodicDispatcher } from './jobs/periodic';
import type { NamespaceRecord, NodeRecord } from './model';
import { makeNode } from './nodes';
import { allocationRoutes } from './routes/allocations';
import { clusterRoutes } from './routes/cluster';
import { deploymentRoutes } from './routes/deployments';
import { jobRoutes } from './routes/jobs';
import { NodeUsageIndex } from './scheduler/node-usage';
import { SchedState } from './state';
import { T } from './tables';

export interface SchedulerServiceOptions {
  store: Store;
  clock: Clock;
  settings: SchedSettings;
  self: () => { url: string };
  log?: (line: string) => void;
  /** ACLs (spec section 5); off when omitted. */
  acl?: SchedAclOptions;
  /** Where exec working directories live; the OS temp dir when omitted. */
  dataDir?: string;
}

export interface SchedulerService {
  router: Router;
  context: SchedContext;
  runner: ClientRunner;
  /** The HTTP server's `authorize` hook (no-op without ACLs). */
  authorize: (ctx: RequestContext, meta: RouteMeta) => Promise<void>;
  /** The HTTP server's `upgrade` handler (exec WebSockets). */
  upgrade: SchedExec['upgrade']['handle'];
  acl: SchedAcl;
  events: EventBroker;
  exec: SchedExec;
  /** Ends live connections (event streams, exec sockets) so the server can close. */
  closeConnections(): void;
  start(): void;
  stop(): void;
}

export function createSchedulerService(opts: SchedulerServiceOptions): SchedulerService {
  const log = opts.log ?? (() => undefined);
  const context: SchedContext = {
    store: opts.store,
    state: new SchedState(opts.store),
    nodeUsage: new NodeUsageIndex(opts.store),
    clock: opts.clock,
    settings: opts.settings,
    log,
    kick: () => broker.start(),
  };
  const broker = new EvalBroker(context);
  const runner = new ClientRunner(context);
  const watcher = new DeploymentWatcher(context);
  const periodic = new PeriodicDispatcher(context);
  const router = new Router();
  jobRoutes(router, context);
  allocationRoutes(router, context, runner);
  deploymentRoutes(router, context, watcher);
  clusterRoutes(router, context, opts.self);
  const acl = createSchedAcl(context, router, opts.acl ?? { enabled: false });
  const events = createSchedEvents(context, router, acl.authorizer);
  const exec = createSchedExec(context, acl.authorizer, opts.dataDir);

  return {
    router,
    context,
    runner,
    authorize: acl.authorizer.authorize,
    upgrade: (req, socket, head) => exec.upgrade.handle(req, socket, head),
    acl,
    events,
    exec,
    closeConnections() {
      events.stop();
      exec.stop();
    },
    start() {
      bootstrap(context);
      acl.start();
      exec.start();
      runner.start();
      watcher.start();
      periodic.start();
      broker.start();
    },
    stop() {
      periodic.stop();
      broker.stop();
      watcher.stop();
      runner.stop();
      exec.stop();
      events.stop();
      acl.stop();
    },
  };
}

/** A new cluster has the default namespace and its simulated nodes; a restarted one keeps what it had. */
function bootstrap(ctx: SchedContext): void {
  const { store, settings } = ctx;
  store.write((tx) => {
    if (!tx.get<NamespaceRecord>(T.namespaces, 'default')) {
      tx.put(T.namespaces, 'default', {
        Name: 'default',
        Description: 'Default shared namespace',
        Quota: '',
        Capabilities: null,
        NodePoolConfiguration: null,
        Meta: null,
      });
    }
    const now = Date.now();
    for (let i = 0; i < settings.nodes; i++) {
      const node = makeNode(
        {
          count: settings.nodes,
          cpu: settings.nodeCpu,
          memoryMB: settings.nodeMemoryMB,
          diskMB: settings.nodeDiskMB,
          datacenter: settings.datacenter,
          region: settings.region,
          nodePool: settings.nodePool,
        },
        i,
        now,
      );
      const prev = tx.get<NodeRecord>(T.nodes, node.ID);
      if (
        !prev ||
        prev.NodeResources.Cpu.CpuShares !== node.NodeResources.Cpu.CpuShares ||
        prev.NodeResources.Memory.MemoryMB !== node.NodeResources.Memory.MemoryMB ||
        prev.Datacenter !== node.Datacenter
      ) {
        tx.put(T.nodes, node.ID, node);
      }
    }
  });
}
