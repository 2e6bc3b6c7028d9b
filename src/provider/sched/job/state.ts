/**
 * The computed attributes of a job resource, from the cluster's copy of the job, its latest deployment
 * and its allocations (at most three reads, no summary call: the counts come from the allocations).
 * A refresh of a job that has not changed since the state was written costs one read: a finished
 * deployment stays as it was, and the allocation attributes are a snapshot taken when the job last
 * changed (version, modify index or status), not a live view; the sched_allocations data source is.
 */
import { NotFoundError } from '../../../api/errors';
import type { AllocationStatus, Deployment, Job, JobAttributes } from '../../../api/sched/schemas';
import type { Result } from '../../../api/transport';
import type { State } from '../../resource';
import type { SchedProviderContext } from '../context';
import type { TaskGroupState } from './schema';

/** J: the full job for callers that read its spec, or only what the computed attributes read. */
export interface RemoteJob<J extends JobAttributes = Job> {
  job: J;
  deployment: Deployment | null;
  /** null: not read, because the prior state's allocation attributes still describe this job. */
  allocations: AllocationStatus[] | null;
  /** The state whose allocation attributes are kept when `allocations` is null. */
  prior?: State;
}

export interface JobRef {
  id: string;
  namespace: string;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** The state this read refreshes: its deployment is reused when it cannot have changed since. */
  prior?: State | null;
  /** A deployment just followed to its end (after an apply's wait), reused on the same terms. */
  deployment?: Deployment;
}

const FINISHED = new Set(['successful', 'failed', 'cancelled']);
/** Job types the scheduler never creates deployments for. */
const WITHOUT_DEPLOYMENTS = new Set(['batch', 'sysbatch']);

/**
 * The latest deployment of `job` when it is already known and cannot have changed: a deployment that
 * finished stays as it is, and a newer one only comes with a change of the job (a new version or a
 * registration, both of which move JobModifyIndex). undefined: it must be read.
 */
export function knownDeployment(
  job: Pick<Job, 'Version' | 'JobModifyIndex' | 'Type'>,
  opts: FetchOptions,
): Deployment | null | undefined {
  const version = job.Version ?? 0;
  const modifyIndex = job.JobModifyIndex ?? 0;
  const d = opts.deployment;
  if (d && d.JobVersion === version && d.JobModifyIndex === modifyIndex && FINISHED.has(d.Status ?? '')) {
    return d;
  }
  const prior = opts.prior;
  if (!prior || prior['version'] !== version || prior['job_modify_index'] !== modifyIndex) return undefined;
  const id = prior['deployment_id'];
  const status = prior['deployment_status'];
  if (typeof id === 'string' && id !== '' && typeof status === 'string' && FINISHED.has(status)) {
    return { ID: id, Status: status, JobVersion: version };
  }
  if (id === null && status === null && WITHOUT_DEPLOYMENTS.has(job.Type || 'service')) return null;
  return undefined;
}

/**
 * Whether the allocation attributes of `prior` still hold for `job`: it is the same version, modify
 * index and status, and its rollout had finished when they were recorded.
 */
function allocationsKnown(
  job: JobAttributes,
  prior: State,
  deployment: Deployment | null | undefined,
): boolean {
  return (
    deployment !== undefined &&
    prior['status'] === (job.Status ?? null) &&
    Array.isArray(prior['allocation_ids']) &&
    Array.isArray(prior['task_groups'])
  );
}

type JobRead<J> = (id: string, req: { namespace: string; signal?: AbortSignal }) => Promise<Result<J>>;

/** Reads the job and what goes with it; null when the job does not exist. */
export async function fetchRemote(
  ctx: SchedProviderContext,
  ref: JobRef,
  opts: FetchOptions = {},
): Promise<RemoteJob | null> {
  return fetchWith(ctx, ref, opts, (id, req) => ctx.client.jobs.read(id, req));
}

/**
 * {@link fetchRemote} for a caller that only records the computed attributes (the end of an apply):
 * the job is decoded only as far as they read it.
 */
export async function fetchAttributes(
  ctx: SchedProviderContext,
  ref: JobRef,
  opts: FetchOptions = {},
): Promise<RemoteJob<JobAttributes> | null> {
  return fetchWith(ctx, ref, opts, (id, req) => ctx.client.jobs.readAttributes(id, req));
}

async function fetchWith<J extends JobAttributes>(
  ctx: SchedProviderContext,
  ref: JobRef,
  opts: FetchOptions,
  readJob: JobRead<J>,
): Promise<RemoteJob<J> | null> {
  const req = { namespace: ref.namespace, signal: opts.signal };
  const allocations = (): Promise<AllocationStatus[]> =>
    ctx.client.jobs.allocationStatuses(ref.id, req).then((r) => r.value);
  // Without a prior state the allocations are asked for beside the job (one round trip, not two); a
  // refresh reads the job first, since it usually needs nothing more.
  const early = opts.prior ? undefined : allocations();
  early?.catch(() => undefined);
  let job: J;
  try {
    ({ value: job } = await readJob(ref.id, req));
  } catch (e) {
    if (e instanceof NotFoundError) return null;
    throw e;
  }
  const known = knownDeployment(job, opts);
  if (opts.prior && allocationsKnown(job, opts.prior, known)) {
    return { job, deployment: known ?? null, allocations: null, prior: opts.prior };
  }
  const [deployment, allocs] = await Promise.all([
    known !== undefined ? known : ctx.client.jobs.latestDeployment(ref.id, req).then((r) => r.value),
    early ?? allocations(),
  ]);
  return { job, deployment, allocations: allocs };
}

function nanosToIso(ns: number | null | undefined): string | null {
  if (!ns) return null;
  return new Date(Math.floor(ns / 1e6)).toISOString();
}

/** Task groups as the job declares them, with their wanted allocations counted by client status. */
export function taskGroupStates(
  job: JobAttributes,
  allocations: readonly AllocationStatus[] = [],
): TaskGroupState[] {
  return (job.TaskGroups ?? []).map((g) => {
    const mine = allocations.filter((a) => a.TaskGroup === g.Name && a.DesiredStatus === 'run');
    const count = (status: string): number => mine.filter((a) => a.ClientStatus === status).length;
    return {
      name: g.Name ?? '',
      count: g.Count ?? 1,
      tasks: (g.Tasks ?? []).map((t) => t.Name ?? ''),
      meta: g.Meta && Object.keys(g.Meta).length > 0 ? { ...g.Meta } : null,
      running: count('running'),
      pending: count('pending'),
      complete: count('complete'),
      failed: count('failed'),
      lost: count('lost'),
    };
  });
}

/** The attributes that come from the job spec alone (known at plan time). */
export function specAttributes(job: JobAttributes): State {
  return {
    id: job.ID ?? null,
    name: job.Name || job.ID || null,
    namespace: job.Namespace || 'default',
    region: job.Region || null,
    type: job.Type || 'service',
    datacenters: job.Datacenters && job.Datacenters.length > 0 ? [...job.Datacenters] : null,
  };
}

/** Every computed attribute, from what the cluster reports. */
export function computedAttributes(remote: RemoteJob<JobAttributes>): State {
  const { job, deployment, allocations, prior } = remote;
  const allocationAttributes =
    allocations === null && prior
      ? { allocation_ids: prior['allocation_ids'], task_groups: prior['task_groups'] }
      : {
          allocation_ids: (allocations ?? [])
            .filter((a) => a.DesiredStatus === 'run')
            .map((a) => a.ID)
            .sort(),
          task_groups: taskGroupStates(job, allocations ?? []),
        };
  return {
    ...specAttributes(job),
    region: job.Region || 'global',
    datacenters: job.Datacenters ? [...job.Datacenters] : [],
    version: job.Version ?? 0,
    status: job.Status ?? null,
    job_modify_index: job.JobModifyIndex ?? 0,
    deployment_id: deployment?.ID ?? null,
    deployment_status: deployment?.Status ?? null,
    ...allocationAttributes,
    submit_time: nanosToIso(job.SubmitTime),
  };
}
