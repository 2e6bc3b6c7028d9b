import { Transport, type TransportOptions } from '../transport';
import { AclApi } from './acl';
import { AllocationsApi } from './allocations';
import { DeploymentsApi } from './deployments';
import { EvaluationsApi } from './evaluations';
import { EventsApi } from './events';
import { JobsApi } from './jobs';
import { NamespacesApi } from './namespaces';
import { NodesApi } from './nodes';

export type SchedClientOptions = Omit<TransportOptions, 'service'>;

/**
 * Typed client of the scheduler API. Every read resolves to `{ value, meta }`; every call takes an
 * options object (namespace, region, index, wait, token, signal, ...). Rules of the spec that the
 * client can check are checked before any request and raise `RequestValidationError`.
 */
export class SchedClient {
  readonly transport: Transport;
  readonly jobs: JobsApi;
  readonly allocations: AllocationsApi;
  readonly deployments: DeploymentsApi;
  readonly evaluations: EvaluationsApi;
  readonly nodes: NodesApi;
  readonly namespaces: NamespacesApi;
  readonly events: EventsApi;
  readonly acl: AclApi;

  /** Pass options to own a new transport, or an existing scheduler transport to share it. */
  constructor(opts: SchedClientOptions | Transport = {}) {
    if (opts instanceof Transport) {
      if (opts.service !== 'scheduler') throw new Error('SchedClient needs a scheduler transport');
      this.transport = opts;
    } else {
      this.transport = new Transport({ ...opts, service: 'scheduler' });
    }
    this.jobs = new JobsApi(this.transport);
    this.allocations = new AllocationsApi(this.transport);
    this.deployments = new DeploymentsApi(this.transport);
    this.evaluations = new EvaluationsApi(this.transport);
    this.nodes = new NodesApi(this.transport);
    this.namespaces = new NamespacesApi(this.transport);
    this.events = new EventsApi(this.transport);
    this.acl = new AclApi(this.transport);
  }

  /** Releases the connection pool (shared pools close when their last user closes). */
  close(): Promise<void> {
    return this.transport.close();
  }
}
