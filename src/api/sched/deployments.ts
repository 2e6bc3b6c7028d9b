import { z } from 'zod';
import { RequestValidationError } from '../errors';
import type { Transport } from '../transport';
import { watch, type WatchOptions } from '../watch';
import { type PlainWriteOptions, type PrefixListOptions, type ReadOptions, type Result } from './options';
import { seg } from './paths';
import {
  AllocationStubSchema,
  DeploymentSchema,
  DeploymentUpdateResponseSchema,
  type AllocationStub,
  type Deployment,
  type DeploymentUpdateResponse,
} from './schemas';
import { prefixListQuery } from './list-query';
import { requireNonEmpty } from './validate';

export interface PromoteInput {
  /** Promote every group's canaries. */
  all?: boolean;
  /** Promote only these groups' canaries. */
  groups?: string[];
}

export interface DeploymentWatchOptions
  extends Omit<ReadOptions, 'index' | 'signal'>, Pick<WatchOptions, 'startIndex' | 'yieldOnTimeout'> {
  signal?: AbortSignal;
}

const DeploymentListSchema = z.array(DeploymentSchema);
const AllocStubListSchema = z.array(AllocationStubSchema);

function depId(id: string): string {
  requireNonEmpty('deploymentId', id);
  return seg(id);
}

/** `/v1/deployments` and `/v1/deployment/...` (as Nomad has them). */
export class DeploymentsApi {
  constructor(private readonly t: Transport) {}

  /** `GET /v1/deployments`. */
  async list(opts: PrefixListOptions = {}): Promise<Result<Deployment[]>> {
    return this.t.get('/v1/deployments', DeploymentListSchema, prefixListQuery(opts, { hexPrefix: true }));
  }

  /** `GET /v1/deployment/<id>`. */
  async read(id: string, opts: ReadOptions = {}): Promise<Result<Deployment>> {
    return this.t.get(`/v1/deployment/${depId(id)}`, DeploymentSchema, opts);
  }

  /** `GET /v1/deployment/allocations/<id>`. */
  async allocations(id: string, opts: ReadOptions = {}): Promise<Result<AllocationStub[]>> {
    return this.t.get(`/v1/deployment/allocations/${depId(id)}`, AllocStubListSchema, opts);
  }

  /** `POST /v1/deployment/promote/<id>`: promotes canaries of all groups or of the named ones. */
  async promote(
    id: string,
    input: PromoteInput,
    opts: PlainWriteOptions = {},
  ): Promise<Result<DeploymentUpdateResponse>> {
    const path = `/v1/deployment/promote/${depId(id)}`;
    const hasGroups = (input.groups?.length ?? 0) > 0;
    if (input.all && hasGroups) throw new RequestValidationError('Groups', 'cannot be combined with All');
    if (!input.all && !hasGroups) throw new RequestValidationError('All', 'All or Groups is required');
    const body = input.all ? { DeploymentID: id, All: true } : { DeploymentID: id, Groups: input.groups };
    return this.t.send('POST', path, body, DeploymentUpdateResponseSchema, opts);
  }

  /** `POST /v1/deployment/fail/<id>`: marks the deployment failed (and reverts if auto_revert). */
  async fail(id: string, opts: PlainWriteOptions = {}): Promise<Result<DeploymentUpdateResponse>> {
    const path = `/v1/deployment/fail/${depId(id)}`;
    return this.t.send('POST', path, { DeploymentID: id }, DeploymentUpdateResponseSchema, opts);
  }

  /** Blocking reads of one deployment, yielding each change until `signal` aborts. */
  watch(id: string, opts: DeploymentWatchOptions = {}): AsyncIterable<Result<Deployment>> {
    const { startIndex, yieldOnTimeout, signal, ...read } = opts;
    return watch((index, sig) => this.read(id, { ...read, index, signal: sig }), {
      signal,
      startIndex,
      yieldOnTimeout,
    });
  }
}
