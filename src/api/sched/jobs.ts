import { z } from 'zod';
import { lazyModule } from '../../common/lazy-module';
import { RequestValidationError } from '../errors';
import type { QueryOptions, Transport } from '../transport';
import { prefixListQuery } from './list-query';
import {
  type PlainWriteOptions,
  type PrefixListOptions,
  type ReadOptions,
  type Result,
  omit,
  withParams,
} from './options';
import { seg } from './paths';
import type { AllocationStatus, AllocationStub } from './schemas/allocation';
import { DeploymentSchema, type Deployment } from './schemas/deployment';
import { EvaluationSchema, type Evaluation } from './schemas/evaluation';
import {
  JobAttributesSchema,
  JobSchema,
  JobStubSchema,
  JobSubmissionSchema,
  JobSummarySchema,
  type Job,
  type JobAttributes,
  type JobStub,
  type JobSubmission,
  type JobSummary,
} from './schemas/job';
import {
  JobPlanPassedDiffResponseSchema,
  JobPlanResponseSchema,
  type JobPlanPassedDiffResponse,
  type JobPlanResponse,
} from './schemas/plan';
import type { JobParseRequest, JobRegisterRequest } from './schemas/requests';
import {
  JobDeregisterResponseSchema,
  JobDispatchResponseSchema,
  JobRegisterResponseSchema,
  JobStabilityResponseSchema,
  JobVersionsResponseSchema,
  PeriodicForceResponseSchema,
  type JobDeregisterResponse,
  type JobDispatchResponse,
  type JobRegisterResponse,
  type JobStabilityResponse,
  type JobVersionsResponse,
  type PeriodicForceResponse,
} from './schemas/responses';
import { base64DecodedLength, requireNonEmpty, requireNonNegativeInt, requirePayloadSize } from './validate';

export interface JobListOptions extends PrefixListOptions {
  /** Include each job's Meta map (`meta=true`). */
  meta?: boolean;
}

export interface JobVersionsOptions extends ReadOptions {
  /** Fill Diffs with the diff between each version and the previous one (`diffs=true`). */
  diffs?: boolean;
  /** Version to compare against when diffs is set (`diff_version`). */
  diffVersion?: number;
}

export interface JobAllOptions extends ReadOptions {
  /** Include objects of an earlier registration of the same job ID (`all=true`). */
  all?: boolean;
}

export interface RegisterOptions extends PlainWriteOptions {
  /**
   * Check-and-set: register only if the server's JobModifyIndex equals this value; 0 means only if
   * the job does not exist yet. Sends `EnforceIndex: true` with `JobModifyIndex`.
   */
  enforceIndex?: number;
  evalPriority?: number;
  policyOverride?: boolean;
  preserveCounts?: boolean;
  submission?: JobSubmission;
}

export interface DispatchInput {
  /** Base64 text (as on the wire) or raw bytes that the client encodes. At most 16384 bytes decoded. */
  Payload?: string | Uint8Array;
  Meta?: Record<string, string>;
  IdPrefixTemplate?: string;
}

export interface DispatchOptions extends PlainWriteOptions {
  /** Prevents more than one dispatch for the same token; makes the call safe to retry. */
  idempotencyToken?: string;
}

export interface DispatchPayloadOptions extends DispatchOptions {
  /** Content type of the raw body (default application/octet-stream). */
  contentType?: string;
}

export interface RevertInput {
  /** Version to revert to; use this or TaggedVersion, not both. */
  JobVersion?: number;
  TaggedVersion?: string;
  /** Check-and-set on the current version. */
  EnforcePriorVersion?: number;
  SecretsToken?: string;
  RegistryToken?: string;
}

export interface EvaluateOptions extends PlainWriteOptions {
  /** Reschedule failed allocations now, even beyond their reschedule limit or delay. */
  forceReschedule?: boolean;
}

export interface PlanOptions extends PlainWriteOptions {
  /** Include the diff between the submitted and the server's job. */
  diff?: boolean;
  policyOverride?: boolean;
}

export interface DeregisterOptions extends PlainWriteOptions {
  /** Remove the job from the state store at once instead of marking it stopped. */
  purge?: boolean;
  /** Deregister in every region of a multiregion job. */
  global?: boolean;
  evalPriority?: number;
  noShutdownDelay?: boolean;
}

const JobListSchema = z.array(JobStubSchema);
/*
 * The allocation schemas (an allocation embeds the whole job) are built when a job's allocations are
 * first read: a plan reads none (see SchedClient).
 */
const allocationLists = lazyModule(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const schemas = require('./schemas/allocation') as typeof import('./schemas/allocation');
  return {
    stubs: z.array(schemas.AllocationStubSchema),
    statuses: z.array(schemas.AllocationStatusSchema),
  };
});
const EvaluationListSchema = z.array(EvaluationSchema);
const DeploymentListSchema = z.array(DeploymentSchema);
// A job with no deployment answers `null`.
const MaybeDeploymentSchema = DeploymentSchema.nullable();

function jobPath(jobId: string, suffix = ''): string {
  requireNonEmpty('jobId', jobId);
  return `/v1/job/${seg(jobId)}${suffix}`;
}

function encodePayload(payload: string | Uint8Array | undefined): string | undefined {
  if (payload === undefined) return undefined;
  if (typeof payload === 'string') {
    requirePayloadSize('Payload', base64DecodedLength('Payload', payload));
    return payload;
  }
  requirePayloadSize('Payload', payload.byteLength);
  return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64');
}

const jobListQuery = (opts: JobListOptions): QueryOptions =>
  prefixListQuery(opts, { keys: ['meta'], params: { meta: opts.meta || undefined } });

/** `/v1/jobs` and `/v1/job/<id>/...`. */
export class JobsApi {
  constructor(private readonly t: Transport) {}

  /** `GET /v1/jobs`: job stubs, one page when `perPage` is set (follow `meta.nextToken`). */
  async list(opts: JobListOptions = {}): Promise<Result<JobStub[]>> {
    return this.t.get('/v1/jobs', JobListSchema, jobListQuery(opts));
  }

  /** Every job stub, following `next_token` page by page. */
  async *iterate(opts: JobListOptions = {}): AsyncGenerator<JobStub, void, undefined> {
    yield* this.t.paginate('/v1/jobs', JobStubSchema, jobListQuery(opts));
  }

  /** `POST /v1/jobs` with a full register request body. */
  async create(
    request: JobRegisterRequest,
    opts: PlainWriteOptions = {},
  ): Promise<Result<JobRegisterResponse>> {
    requireNonEmpty('Job.ID', request.Job?.ID);
    return this.t.send('POST', '/v1/jobs', request, JobRegisterResponseSchema, opts);
  }

  /** Registers (creates or updates) a job: `POST /v1/jobs`, with check-and-set when `enforceIndex` is given. */
  async register(job: Job, opts: RegisterOptions = {}): Promise<Result<JobRegisterResponse>> {
    requireNonNegativeInt('enforceIndex', opts.enforceIndex);
    return this.create(registerBody(job, opts), writeOpts(opts));
  }

  /** `POST /v1/job/<id>`: registers or updates the job named in the path. */
  async update(
    jobId: string,
    request: JobRegisterRequest,
    opts: PlainWriteOptions = {},
  ): Promise<Result<JobRegisterResponse>> {
    const path = jobPath(jobId);
    if (request.Job?.ID !== undefined && request.Job.ID !== jobId) {
      throw new RequestValidationError('Job.ID', `must equal the job ID in the path (${jobId})`);
    }
    return this.t.send('POST', path, request, JobRegisterResponseSchema, opts);
  }

  /** `POST /v1/jobs/parse`: HCL to a JSON job. */
  async parse(request: JobParseRequest, opts: PlainWriteOptions = {}): Promise<Result<Job>> {
    if (typeof request.JobHCL !== 'string') throw new RequestValidationError('JobHCL', 'is required');
    return this.t.send('POST', '/v1/jobs/parse', request, JobSchema, opts);
  }

  /** `GET /v1/job/<id>`. */
  async read(jobId: string, opts: ReadOptions = {}): Promise<Result<Job>> {
    return this.t.get(jobPath(jobId), JobSchema, opts);
  }

  /** {@link read}, decoded only as far as JobAttributesSchema names (the rest of the job dropped). */
  async readAttributes(jobId: string, opts: ReadOptions = {}): Promise<Result<JobAttributes>> {
    return this.t.get(jobPath(jobId), JobAttributesSchema, opts);
  }

  /** `GET /v1/job/<id>/submission?version=N`: the source given at registration. */
  async submission(jobId: string, version: number, opts: ReadOptions = {}): Promise<Result<JobSubmission>> {
    requireNonNegativeInt('version', version);
    return this.t.get(jobPath(jobId, '/submission'), JobSubmissionSchema, withParams(opts, { version }));
  }

  /** `GET /v1/job/<id>/versions`: versions newest first, with diffs when asked. */
  async versions(jobId: string, opts: JobVersionsOptions = {}): Promise<Result<JobVersionsResponse>> {
    requireNonNegativeInt('diff_version', opts.diffVersion);
    if (opts.diffVersion !== undefined && !opts.diffs) {
      throw new RequestValidationError('diff_version', 'requires diffs=true');
    }
    return this.t.get(
      jobPath(jobId, '/versions'),
      JobVersionsResponseSchema,
      withParams(omit(opts, 'diffs', 'diffVersion'), {
        diffs: opts.diffs || undefined,
        diff_version: opts.diffVersion,
      }),
    );
  }

  /** `GET /v1/job/<id>/allocations`. */
  async allocations(jobId: string, opts: JobAllOptions = {}): Promise<Result<AllocationStub[]>> {
    return this.t.get(jobPath(jobId, '/allocations'), allocationLists().stubs, allocationsQuery(opts));
  }

  /** {@link allocations}, each decoded only for its group and status (AllocationStatusSchema). */
  async allocationStatuses(jobId: string, opts: JobAllOptions = {}): Promise<Result<AllocationStatus[]>> {
    return this.t.get(jobPath(jobId, '/allocations'), allocationLists().statuses, allocationsQuery(opts));
  }

  /** `GET /v1/job/<id>/evaluations`. */
  async evaluations(jobId: string, opts: ReadOptions = {}): Promise<Result<Evaluation[]>> {
    return this.t.get(jobPath(jobId, '/evaluations'), EvaluationListSchema, opts);
  }

  /** `GET /v1/job/<id>/deployments`. */
  async deployments(jobId: string, opts: JobAllOptions = {}): Promise<Result<Deployment[]>> {
    return this.t.get(
      jobPath(jobId, '/deployments'),
      DeploymentListSchema,
      withParams(omit(opts, 'all'), { all: opts.all || undefined }),
    );
  }

  /** `GET /v1/job/<id>/deployment`: the most recent deployment, or null when the job has none. */
  async latestDeployment(jobId: string, opts: ReadOptions = {}): Promise<Result<Deployment | null>> {
    return this.t.get(jobPath(jobId, '/deployment'), MaybeDeploymentSchema, opts);
  }

  /** `GET /v1/job/<id>/summary`. */
  async summary(jobId: string, opts: ReadOptions = {}): Promise<Result<JobSummary>> {
    return this.t.get(jobPath(jobId, '/summary'), JobSummarySchema, opts);
  }

  /** `POST /v1/job/<id>/dispatch`: an instance of a parameterized job. Retried only with an idempotency token. */
  async dispatch(
    jobId: string,
    input: DispatchInput = {},
    opts: DispatchOptions = {},
  ): Promise<Result<JobDispatchResponse>> {
    const path = jobPath(jobId, '/dispatch');
    const body = {
      JobID: jobId,
      Payload: encodePayload(input.Payload),
      Meta: input.Meta,
      IdPrefixTemplate: input.IdPrefixTemplate,
    };
    return this.t.send('POST', path, body, JobDispatchResponseSchema, dispatchWriteOpts(opts));
  }

  /** `POST /v1/job/<id>/dispatch/payload`: the raw body becomes the payload. */
  async dispatchPayload(
    jobId: string,
    payload: Uint8Array | string,
    opts: DispatchPayloadOptions = {},
  ): Promise<Result<JobDispatchResponse>> {
    const path = jobPath(jobId, '/dispatch/payload');
    const size = typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.byteLength;
    requirePayloadSize('payload', size);
    return this.t.sendRaw(
      'POST',
      path,
      payload,
      opts.contentType ?? 'application/octet-stream',
      JobDispatchResponseSchema,
      dispatchWriteOpts(omit(opts, 'contentType')),
    );
  }

  /** `POST /v1/job/<id>/revert`: re-registers an older version (by number or tag, not both). */
  async revert(
    jobId: string,
    input: RevertInput,
    opts: PlainWriteOptions = {},
  ): Promise<Result<JobRegisterResponse>> {
    const path = jobPath(jobId, '/revert');
    const hasVersion = input.JobVersion !== undefined;
    const hasTag = input.TaggedVersion !== undefined && input.TaggedVersion !== '';
    if (hasVersion && hasTag) {
      throw new RequestValidationError(
        'TaggedVersion',
        'cannot be combined with JobVersion; give one of them',
      );
    }
    if (!hasVersion && !hasTag) {
      throw new RequestValidationError('JobVersion', 'JobVersion or TaggedVersion is required');
    }
    requireNonNegativeInt('JobVersion', input.JobVersion);
    requireNonNegativeInt('EnforcePriorVersion', input.EnforcePriorVersion);
    return this.t.send('POST', path, { JobID: jobId, ...input }, JobRegisterResponseSchema, opts);
  }

  /** `POST /v1/job/<id>/stable`: marks a version stable or unstable. */
  async stable(
    jobId: string,
    version: number,
    stable: boolean,
    opts: PlainWriteOptions = {},
  ): Promise<Result<JobStabilityResponse>> {
    const path = jobPath(jobId, '/stable');
    requireNonNegativeInt('JobVersion', version);
    return this.t.send(
      'POST',
      path,
      { JobID: jobId, JobVersion: version, Stable: stable },
      JobStabilityResponseSchema,
      opts,
    );
  }

  /** `POST /v1/job/<id>/evaluate`: forces the scheduler to run for the job. */
  async evaluate(jobId: string, opts: EvaluateOptions = {}): Promise<Result<JobRegisterResponse>> {
    const path = jobPath(jobId, '/evaluate');
    const body = {
      JobID: jobId,
      EvalOptions: { ForceReschedule: opts.forceReschedule ?? false },
    };
    return this.t.send('POST', path, body, JobRegisterResponseSchema, omit(opts, 'forceReschedule'));
  }

  /** `POST /v1/job/<id>/plan`: a dry run of the scheduler for `job` (path ID taken from `job.ID`). */
  async plan(job: Job, opts: PlanOptions = {}): Promise<Result<JobPlanResponse>> {
    return this.sendPlan(job, opts, JobPlanResponseSchema);
  }

  /** {@link plan}, with the Diff checked only at its top level (JobPlanPassedDiffResponseSchema). */
  async planPassingDiff(job: Job, opts: PlanOptions = {}): Promise<Result<JobPlanPassedDiffResponse>> {
    return this.sendPlan(job, opts, JobPlanPassedDiffResponseSchema);
  }

  private async sendPlan<S extends z.ZodType>(
    job: Job,
    opts: PlanOptions,
    schema: S,
  ): Promise<Result<z.infer<S>>> {
    requireNonEmpty('Job.ID', job.ID);
    const body = { Job: job, Diff: opts.diff ?? false, PolicyOverride: opts.policyOverride ?? false };
    return this.t.send('POST', jobPath(job.ID, '/plan'), body, schema, omit(opts, 'diff', 'policyOverride'));
  }

  /** `POST /v1/job/<id>/periodic/force`: launches a periodic job now. */
  async periodicForce(jobId: string, opts: PlainWriteOptions = {}): Promise<Result<PeriodicForceResponse>> {
    return this.t.send(
      'POST',
      jobPath(jobId, '/periodic/force'),
      undefined,
      PeriodicForceResponseSchema,
      opts,
    );
  }

  /** `DELETE /v1/job/<id>`: stops the job; with `purge` removes it entirely. */
  async deregister(jobId: string, opts: DeregisterOptions = {}): Promise<Result<JobDeregisterResponse>> {
    requireNonNegativeInt('eval_priority', opts.evalPriority);
    return this.t.send(
      'DELETE',
      jobPath(jobId),
      undefined,
      JobDeregisterResponseSchema,
      withParams(omit(opts, 'purge', 'global', 'evalPriority', 'noShutdownDelay'), {
        purge: opts.purge || undefined,
        global: opts.global || undefined,
        eval_priority: opts.evalPriority || undefined,
        no_shutdown_delay: opts.noShutdownDelay || undefined,
      }),
    );
  }
}

function allocationsQuery(opts: JobAllOptions): ReadOptions {
  return withParams(omit(opts, 'all'), { all: opts.all || undefined });
}

function registerBody(job: Job, opts: RegisterOptions): JobRegisterRequest {
  const body: JobRegisterRequest = { Job: job };
  if (opts.enforceIndex !== undefined) {
    body.EnforceIndex = true;
    body.JobModifyIndex = opts.enforceIndex;
  }
  if (opts.evalPriority !== undefined) body.EvalPriority = opts.evalPriority;
  if (opts.policyOverride !== undefined) body.PolicyOverride = opts.policyOverride;
  if (opts.preserveCounts !== undefined) body.PreserveCounts = opts.preserveCounts;
  if (opts.submission !== undefined) body.Submission = opts.submission;
  return body;
}

function writeOpts(opts: RegisterOptions): PlainWriteOptions {
  return omit(opts, 'enforceIndex', 'evalPriority', 'policyOverride', 'preserveCounts', 'submission');
}

function dispatchWriteOpts(opts: DispatchOptions): PlainWriteOptions & { idempotent?: boolean } {
  const rest = omit(opts, 'idempotencyToken');
  if (!opts.idempotencyToken) return rest;
  // The server deduplicates by token, so a retry after a lost response cannot dispatch twice.
  return { ...withParams(rest, { idempotency_token: opts.idempotencyToken }), idempotent: true };
}
