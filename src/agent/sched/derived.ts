/**
 * Job status and job summary follow from the job's allocations and evaluations. They are recomputed
 * inside every write that touches those, so a read never sees them disagree.
 */
import type { Txn } from '../store';
import type { AllocRecord, EvalRecord, Job, JobSummaryRecord, SummaryCounts } from './model';
import { getJob, jobAllocs, jobEvals, listJobs } from './state';
import { T, jobKey } from './tables';

function emptyCounts(): SummaryCounts {
  return { Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 };
}

function jobStatus(job: Job, allocs: AllocRecord[], evals: EvalRecord[]): string {
  if ((job.ParameterizedJob && !job.Dispatched) || (job.Periodic && job.Periodic.Enabled !== false)) {
    return job.Stop ? 'dead' : 'running';
  }
  const live = allocs.some(
    (a) => a.DesiredStatus === 'run' && (a.ClientStatus === 'pending' || a.ClientStatus === 'running'),
  );
  if (live) return 'running';
  const pendingEval = evals.some((e) => e.Status === 'pending' || e.Status === 'blocked');
  if (job.Stop) return 'dead';
  if (pendingEval) return 'pending';
  if (allocs.length > 0) return 'dead';
  return 'pending';
}

export function refreshJob(tx: Txn, ns: string, id: string): void {
  const job = getJob(tx, ns, id);
  if (!job) return;
  const allocs = jobAllocs(tx, ns, id).filter((a) => a.Job.CreateIndex === job.CreateIndex);
  const evals = jobEvals(tx, ns, id);
  const summary: Record<string, SummaryCounts> = {};
  for (const g of job.TaskGroups ?? []) summary[g.Name!] = emptyCounts();
  for (const a of allocs) {
    const c = (summary[a.TaskGroup] ??= emptyCounts());
    switch (a.ClientStatus) {
      case 'pending':
        if (a.DesiredStatus === 'run') c.Starting++;
        break;
      case 'running':
        c.Running++;
        break;
      case 'complete':
        c.Complete++;
        break;
      case 'failed':
        c.Failed++;
        break;
      case 'lost':
        c.Lost++;
        break;
      default:
        c.Unknown++;
    }
  }
  const latestEval = evals
    .filter((e) => e.Status === 'blocked' || e.Status === 'pending')
    .sort((a, b) => b.CreateIndex - a.CreateIndex)[0];
  for (const [g, n] of Object.entries(latestEval?.QueuedAllocations ?? {})) {
    if (summary[g]) summary[g].Queued = n;
  }
  const prev = tx.get<JobSummaryRecord>(T.summaries, jobKey(ns, id));
  const children = prev?.Children ?? { Pending: 0, Running: 0, Dead: 0 };
  const next: JobSummaryRecord = {
    JobID: id,
    Namespace: ns,
    Summary: summary,
    Children: children,
    CreateIndex: 0,
    ModifyIndex: 0,
  };
  if (!prev || JSON.stringify(prev.Summary) !== JSON.stringify(summary))
    tx.put(T.summaries, jobKey(ns, id), next);
  const status = jobStatus(job, allocs, evals);
  if (status !== job.Status) {
    tx.put(T.jobs, jobKey(ns, id), { ...job, Status: status });
    if (job.ParentID) refreshChildren(tx, ns, job.ParentID);
  }
}

/** A parent (periodic or parameterized) counts its children by status. */
export function refreshChildren(tx: Txn, ns: string, parentId: string): void {
  const children = { Pending: 0, Running: 0, Dead: 0 };
  for (const j of listJobs(tx, ns)) {
    if (j.ParentID !== parentId) continue;
    if (j.Status === 'running') children.Running++;
    else if (j.Status === 'dead') children.Dead++;
    else children.Pending++;
  }
  const prev = tx.get<JobSummaryRecord>(T.summaries, jobKey(ns, parentId));
  if (!prev) return;
  if (JSON.stringify(prev.Children) !== JSON.stringify(children)) {
    tx.put(T.summaries, jobKey(ns, parentId), { ...prev, Children: children });
  }
}
