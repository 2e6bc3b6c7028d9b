import { lazyModule } from '../../common/lazy-module';
import { Transport, type TransportOptions } from '../transport';
import type { AclApi } from './acl';
import type { AllocationsApi } from './allocations';
import type { DeploymentsApi } from './deployments';
import type { EvaluationsApi } from './evaluations';
import type { EventsApi } from './events';
import { JobsApi } from './jobs';
import type { NamespacesApi } from './namespaces';
import type { NodesApi } from './nodes';

export type SchedClientOptions = Omit<TransportOptions, 'service'>;

/*
 * Each API but the jobs' is required on first use, and with it the zod schemas it decodes with: a plan
 * of jobs uses the jobs API only, and building the schemas of the others (nodes, allocations, the
 * event stream, ...) cost every plan about 12 M instructions, with the allocation lists of jobs.ts.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const apis = {
  acl: lazyModule(() => (require('./acl') as typeof import('./acl')).AclApi),
  allocations: lazyModule(() => (require('./allocations') as typeof import('./allocations')).AllocationsApi),
  deployments: lazyModule(() => (require('./deployments') as typeof import('./deployments')).DeploymentsApi),
  evaluations: lazyModule(() => (require('./evaluations') as typeof import('./evaluations')).EvaluationsApi),
  events: lazyModule(() => (require('./events') as typeof import('./events')).EventsApi),
  namespaces: lazyModule(() => (require('./namespaces') as typeof import('./namespaces')).NamespacesApi),
  nodes: lazyModule(() => (require('./nodes') as typeof import('./nodes')).NodesApi),
};
/* eslint-enable @typescript-eslint/no-require-imports */

type LazyApiName = keyof typeof apis;
type LazyApi<K extends LazyApiName> = InstanceType<ReturnType<(typeof apis)[K]>>;

/**
 * Typed client of the scheduler API. Every read resolves to `{ value, meta }`; every call takes an
 * options object (namespace, region, index, wait, token, signal, ...). Rules of the spec that the
 * client can check are checked before any request and raise `RequestValidationError`.
 */
export class SchedClient {
  readonly transport: Transport;
  readonly jobs: JobsApi;
  /** The APIs built so far, each on its first use (see `apis`). */
  private readonly built = new Map<LazyApiName, unknown>();

  /** Pass options to own a new transport, or an existing scheduler transport to share it. */
  constructor(opts: SchedClientOptions | Transport = {}) {
    if (opts instanceof Transport) {
      if (opts.service !== 'scheduler') throw new Error('SchedClient needs a scheduler transport');
      this.transport = opts;
    } else {
      this.transport = new Transport({ ...opts, service: 'scheduler' });
    }
    this.jobs = new JobsApi(this.transport);
  }

  get allocations(): AllocationsApi {
    return this.api('allocations');
  }

  get deployments(): DeploymentsApi {
    return this.api('deployments');
  }

  get evaluations(): EvaluationsApi {
    return this.api('evaluations');
  }

  get nodes(): NodesApi {
    return this.api('nodes');
  }

  get namespaces(): NamespacesApi {
    return this.api('namespaces');
  }

  get events(): EventsApi {
    return this.api('events');
  }

  get acl(): AclApi {
    return this.api('acl');
  }

  private api<K extends LazyApiName>(name: K): LazyApi<K> {
    let api = this.built.get(name) as LazyApi<K> | undefined;
    if (api === undefined) {
      const Api = apis[name]() as new (transport: Transport) => LazyApi<K>;
      api = new Api(this.transport);
      this.built.set(name, api);
    }
    return api;
  }

  /** Releases the connection pool (shared pools close when their last user closes). */
  close(): Promise<void> {
    return this.transport.close();
  }
}
