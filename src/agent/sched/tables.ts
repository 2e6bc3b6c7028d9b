/**
 * Table names and keys of the scheduler's records in the shared store. Records that belong to a job
 * are keyed `<ns>\0<job>\0<id>` so a blocking query on one job's allocations watches exactly that
 * prefix; lookups by bare ID go through the secondary index in state.ts.
 */
export const T = {
  jobs: 'sched/jobs',
  versions: 'sched/job_versions',
  submissions: 'sched/job_submissions',
  summaries: 'sched/job_summaries',
  evals: 'sched/evals',
  allocs: 'sched/allocs',
  deployments: 'sched/deployments',
  nodes: 'sched/nodes',
  namespaces: 'sched/namespaces',
  periodicLaunches: 'sched/periodic_launches',
} as const;

const SEP = '\u0000';

export const jobKey = (ns: string, id: string): string => `${ns}${SEP}${id}`;
export const jobPrefix = (ns: string, id: string): string => `${ns}${SEP}${id}${SEP}`;
export const childKey = (ns: string, jobId: string, id: string): string => `${ns}${SEP}${jobId}${SEP}${id}`;
export const versionKey = (ns: string, id: string, version: number): string =>
  childKey(ns, id, String(version).padStart(10, '0'));
export const namespacePrefix = (ns: string): string => `${ns}${SEP}`;
