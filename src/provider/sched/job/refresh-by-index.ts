/**
 * Refresh by index: one listing of job stubs tells, for every job a state records, whether the job is
 * still the one recorded. A stub carries the job's JobModifyIndex (moved by every registration, stop
 * and revert) and status; when both equal what the state recorded, and the state's deployment and
 * allocation attributes are the snapshot a read would keep (state.ts), a read would return the state
 * unchanged, so none is made. Anything else (another index or status, a job not listed, a listing that
 * fails) is left to the per-job read, so drift is still found by reading the job.
 */
import type { JobStub } from '../../../api/sched/schemas';
import type { State } from '../../resource';
import type { SchedProviderContext } from '../context';
import { refOf } from './plan';
import { knownDeployment, type JobRef } from './state';

/** Stubs per page: bounds each response while keeping a plan of 1,000 jobs to a few requests. */
const PAGE = 500;
/** Below this many jobs a listing saves nothing over reading each job. */
const MIN_BATCH = 2;

const keyOf = (ns: string, id: string): string => `${ns}\u0000${id}`;

/** Whether a read of an unchanged job would keep `prior` as it is (no deployment or allocations read). */
function snapshotHolds(prior: State): boolean {
  const version = prior['version'];
  const index = prior['job_modify_index'];
  if (typeof version !== 'number' || typeof index !== 'number' || index <= 0) return false;
  const job = { Version: version, JobModifyIndex: index, Type: String(prior['type'] ?? 'service') };
  return (
    knownDeployment(job, { prior }) !== undefined &&
    Array.isArray(prior['allocation_ids']) &&
    Array.isArray(prior['task_groups'])
  );
}

function commonPrefix(ids: string[]): string {
  let prefix = ids[0] ?? '';
  for (const id of ids) while (!id.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * The stubs of `refs`, read page by page in one namespace (or `*` when they span several) under their
 * common ID prefix, stopping once every one was seen.
 */
async function listStubs(ctx: SchedProviderContext, refs: JobRef[]): Promise<Map<string, JobStub>> {
  const wanted = new Set(refs.map((r) => keyOf(r.namespace, r.id)));
  const namespaces = new Set(refs.map((r) => r.namespace));
  const namespace = namespaces.size === 1 ? refs[0]!.namespace : '*';
  const prefix = commonPrefix(refs.map((r) => r.id));
  const found = new Map<string, JobStub>();
  for await (const stub of ctx.client.jobs.iterate({ namespace, prefix, perPage: PAGE })) {
    const key = keyOf(stub.Namespace || 'default', stub.ID);
    if (!wanted.has(key)) continue;
    found.set(key, stub);
    if (found.size === wanted.size) break;
  }
  return found;
}

/** For each state: true when the cluster's job is provably the one it recorded. */
export async function unchangedByIndex(
  ctx: SchedProviderContext,
  states: readonly State[],
): Promise<boolean[]> {
  const refs = states.map((s) => (snapshotHolds(s) ? refOf(s) : undefined));
  const listed = refs.filter((r): r is JobRef => r !== undefined);
  if (listed.length < MIN_BATCH) return states.map(() => false);
  const stubs = await listStubs(ctx, listed);
  return states.map((s, i) => {
    const ref = refs[i];
    const stub = ref && stubs.get(keyOf(ref.namespace, ref.id));
    return (
      stub !== undefined &&
      stub.JobModifyIndex === s['job_modify_index'] &&
      (stub.Status ?? null) === (s['status'] ?? null)
    );
  });
}
