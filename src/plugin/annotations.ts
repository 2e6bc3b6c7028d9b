/**
 * The job plan's scheduler annotations as a Terraform warning. Terraform has no place for a
 * provider's own plan details, and a warning is what its plan output shows next to the diff; placement
 * failures and the scheduler's own warnings already come from the handler as diagnostics.
 *
 * Every job's warning has the same summary, with the job named in the detail: Terraform folds warnings
 * that share a summary into one block ("and N more similar warnings"), so a plan of 200 jobs shows one
 * dry run in full instead of 200, each with a source excerpt (which also took Terraform seconds to print).
 */
import type { SchedulerAnnotations } from '../provider/resource';
import type { ProtoDiagnostic } from './diagnostics';

const WORDS: Record<string, string> = {
  Place: 'to place',
  Stop: 'to stop',
  InPlaceUpdate: 'in-place update',
  DestructiveUpdate: 'destructive update',
  Canary: 'canary',
  Migrate: 'to migrate',
  Ignore: 'unchanged',
  Preemptions: 'preemption',
};

function groupLine(group: string, counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${WORDS[k] ?? k}`);
  return `task group "${group}": ${parts.length > 0 ? parts.join(', ') : 'no change'}`;
}

export function schedulerWarning(a: SchedulerAnnotations, jobId: string | undefined): ProtoDiagnostic {
  const lines = Object.keys(a.desiredTGUpdates)
    .sort()
    .map((g) => groupLine(g, a.desiredTGUpdates[g]!));
  if (a.nextPeriodicLaunch) lines.push(`next periodic launch: ${a.nextPeriodicLaunch}`);
  if (a.failedTGAllocs)
    lines.push(`task groups with placement failures: ${Object.keys(a.failedTGAllocs).join(', ')}`);
  lines.push(`checked against job modify index ${a.jobModifyIndex}`);
  return {
    severity: 'WARNING',
    summary: 'Scheduler dry run',
    detail: [...(jobId ? [`job "${jobId}"`] : []), ...lines].join('\n'),
  };
}
