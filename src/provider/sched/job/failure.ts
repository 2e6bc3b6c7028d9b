/**
 * Texts that explain why a job did not come up: unhealthy allocations with their last task events
 * (driver error, exit code, restart reason), placement failures with the scheduler's metrics, and
 * per-group deployment progress.
 */
import type { AllocMetric, AllocationStub, Deployment, TaskEvent } from '../../../api/sched/schemas';
import type { ProgressEvent } from '../../resource';

export const short = (id: string | null | undefined): string => (id ?? '').slice(0, 8);

const EVENTS_PER_TASK = 3;

function describeEvent(e: TaskEvent): string {
  const text = e.DisplayMessage || e.Message || '';
  const parts = [text ? `${e.Type ?? 'Event'}: ${text}` : (e.Type ?? 'Event')];
  if (e.DriverError && !text.includes(e.DriverError)) parts.push(`driver error: ${e.DriverError}`);
  if (e.ExitCode && !text.includes(`Exit Code: ${e.ExitCode}`)) parts.push(`exit code ${e.ExitCode}`);
  if (e.RestartReason && !text.includes(e.RestartReason)) parts.push(`restart reason: ${e.RestartReason}`);
  if (e.SetupError && !text.includes(e.SetupError)) parts.push(`setup error: ${e.SetupError}`);
  if (e.KillError) parts.push(`kill error: ${e.KillError}`);
  return parts.join(', ');
}

/** One allocation, its status and the last events of each task. */
export function describeAllocation(a: AllocationStub): string {
  const health =
    a.DeploymentStatus?.Healthy === false ? 'unhealthy' : a.DeploymentStatus?.Healthy ? 'healthy' : '';
  const head = `allocation ${short(a.ID)} (group "${a.TaskGroup ?? ''}"${a.NodeName ? `, node ${a.NodeName}` : ''}): ${[a.ClientStatus, health].filter(Boolean).join(', ')}`;
  const tasks = Object.entries(a.TaskStates ?? {})
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([name, st]) => {
      const events = (st.Events ?? []).slice(-EVENTS_PER_TASK).map(describeEvent);
      const flags = [st.State, st.Failed ? 'failed' : '', st.Restarts ? `${st.Restarts} restarts` : '']
        .filter(Boolean)
        .join(', ');
      return `    task "${name}" (${flags})${events.length ? `: ${events.join('; ')}` : ''}`;
    });
  return [`  - ${head}`, ...tasks].join('\n');
}

/** Allocations that count against a deployment or a run: unhealthy, failed or lost. */
export function unhealthyAllocations(allocs: readonly AllocationStub[]): AllocationStub[] {
  return allocs.filter(
    (a) => a.DeploymentStatus?.Healthy === false || a.ClientStatus === 'failed' || a.ClientStatus === 'lost',
  );
}

export function describeAllocations(allocs: readonly AllocationStub[], limit = 10): string {
  const lines = allocs.slice(0, limit).map(describeAllocation);
  if (allocs.length > limit) lines.push(`  ... and ${allocs.length - limit} more`);
  return lines.join('\n');
}

/** Nomad's CLI wording of a placement failure, one group per line. */
export function describePlacementFailures(
  failed: Record<string, AllocMetric | null> | null | undefined,
): string {
  const lines: string[] = [];
  for (const [group, m] of Object.entries(failed ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (!m) continue;
    const unplaced = 1 + (m.CoalescedFailures ?? 0);
    const why: string[] = [];
    if (m.NodesEvaluated === 0) why.push('no nodes were eligible for evaluation');
    for (const [dc, n] of Object.entries(m.NodesAvailable ?? {}))
      if (n === 0) why.push(`no nodes are available in datacenter "${dc}"`);
    for (const [cls, n] of Object.entries(m.ClassFiltered ?? {}))
      why.push(`class "${cls}" filtered ${n} nodes`);
    for (const [c, n] of Object.entries(m.ConstraintFiltered ?? {}))
      why.push(`constraint "${c}" filtered ${n} nodes`);
    if (m.NodesExhausted) why.push(`resources exhausted on ${m.NodesExhausted} nodes`);
    for (const [d, n] of Object.entries(m.DimensionExhausted ?? {}))
      why.push(`dimension "${d}" exhausted on ${n} nodes`);
    for (const q of m.QuotaExhausted ?? []) why.push(`quota limit hit "${q}"`);
    lines.push(
      `task group "${group}" (failed to place ${unplaced} allocation${unplaced === 1 ? '' : 's'}): ${why.join('; ') || 'no node fits'}`,
    );
  }
  return lines.join('\n');
}

/** The per-group figures of a deployment, in the form the CLI displays. */
export function deploymentProgress(d: Deployment, message: string): ProgressEvent {
  const groups: NonNullable<ProgressEvent['groups']> = {};
  for (const [name, g] of Object.entries(d.TaskGroups ?? {})) {
    const deadline =
      g.RequireProgressBy && !g.RequireProgressBy.startsWith('0001-') ? g.RequireProgressBy : undefined;
    groups[name] = {
      desired: g.DesiredTotal ?? 0,
      placed: g.PlacedAllocs ?? 0,
      healthy: g.HealthyAllocs ?? 0,
      unhealthy: g.UnhealthyAllocs ?? 0,
      canaries: g.DesiredCanaries ?? 0,
      ...(deadline ? { progressDeadline: deadline } : {}),
    };
  }
  return { message, groups };
}

/** Canary groups still waiting for promotion, and whether every one of them has all canaries healthy. */
export function canaryState(d: Deployment): { waiting: string[]; ready: boolean } {
  const waiting = Object.entries(d.TaskGroups ?? {})
    .filter(([, g]) => (g.DesiredCanaries ?? 0) > 0 && !g.Promoted)
    .map(([name]) => name)
    .sort();
  const ready =
    waiting.length > 0 &&
    waiting.every((name) => {
      const g = d.TaskGroups![name]!;
      return (
        (g.PlacedCanaries ?? []).length >= (g.DesiredCanaries ?? 0) &&
        (g.HealthyAllocs ?? 0) >= (g.DesiredCanaries ?? 0)
      );
    });
  return { waiting, ready };
}

/** The version an auto-revert rolled back to, from the deployment's description. */
export function revertedVersion(d: Deployment): number | undefined {
  const m = /rolling back to job version (\d+)/i.exec(d.StatusDescription ?? '');
  return m ? Number(m[1]) : undefined;
}
