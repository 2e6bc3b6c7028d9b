/**
 * The scheduler's dry run in words: what it would do per task group (Nomad's DesiredTGUpdates) and
 * why allocations could not be placed (its AllocMetric for each failed group).
 */
import type { SchedulerAnnotations } from '../../provider/resource';

const LABELS: [key: string, label: string][] = [
  ['Place', 'Place'],
  ['DestructiveUpdate', 'Destructive update'],
  ['InPlaceUpdate', 'In-place update'],
  ['Stop', 'Stop'],
  ['Migrate', 'Migrate'],
  ['Canary', 'Canary'],
  ['RescheduleNow', 'Reschedule now'],
  ['RescheduleLater', 'Reschedule later'],
  ['Reconnect', 'Reconnect'],
  ['Disconnect', 'Disconnect'],
  ['Preemptions', 'Preempt'],
  ['Ignore', 'Ignore'],
];
const KNOWN = new Set(LABELS.map(([k]) => k));

function count(u: Record<string, number>, key: string): number {
  const v = u[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** "Place 3, Destructive update 2 (canary 1), Stop 1"; canaries ride along destructive updates. */
export function describeUpdates(u: Record<string, number>): string {
  const parts: string[] = [];
  const destructive = count(u, 'DestructiveUpdate');
  const canary = count(u, 'Canary');
  // Indexed loops, zeros passed over before any call: every job's block asks, in code still cold.
  for (let i = 0; i < LABELS.length; i++) {
    const key = LABELS[i]![0];
    const v = u[key];
    if (v === undefined || v === 0) continue;
    const n = count(u, key);
    if (n === 0 || (key === 'Canary' && destructive > 0)) continue;
    const label = LABELS[i]![1];
    parts.push(
      key === 'DestructiveUpdate' && canary > 0 ? `${label} ${n} (canary ${canary})` : `${label} ${n}`,
    );
  }
  const keys = Object.keys(u);
  const others: string[] = [];
  for (let i = 0; i < keys.length; i++) if (!KNOWN.has(keys[i]!)) others.push(keys[i]!);
  for (const key of others.sort()) if (count(u, key) > 0) parts.push(`${key} ${count(u, key)}`);
  return parts.length > 0 ? parts.join(', ') : 'no allocation changes';
}

/** One line: the only group's updates, or `web: Place 3; cache: Ignore 2` for several. */
export function schedulerSummary(s: SchedulerAnnotations): string {
  const groups = Object.keys(s.desiredTGUpdates ?? {}).sort();
  if (groups.length === 0) return 'no allocation changes';
  if (groups.length === 1) return describeUpdates(s.desiredTGUpdates[groups[0]!]!);
  return groups.map((g) => `${g}: ${describeUpdates(s.desiredTGUpdates[g]!)}`).join('; ');
}

function num(m: Record<string, unknown>, key: string): number {
  const v = m[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function numMap(m: Record<string, unknown>, key: string): [string, number][] {
  const v = m[key];
  if (!v || typeof v !== 'object' || Array.isArray(v)) return [];
  return Object.entries(v as Record<string, unknown>)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

const nodes = (n: number): string => `${n} node${n === 1 ? '' : 's'}`;

/** Why a group's allocations were not placed, from its AllocMetric. */
export function describePlacementFailure(metric: unknown): string[] {
  if (!metric || typeof metric !== 'object') return [];
  const m = metric as Record<string, unknown>;
  const reasons: string[] = [];
  if (num(m, 'NodesEvaluated') === 0) {
    const available = numMap(m, 'NodesAvailable');
    if (available.length > 0 && available.every(([, n]) => n === 0)) {
      reasons.push(
        `No nodes are available in datacenter${available.length > 1 ? 's' : ''} ${available.map(([dc]) => dc).join(', ')}`,
      );
    } else {
      reasons.push('No nodes were eligible for evaluation');
    }
  }
  for (const [cls, n] of numMap(m, 'ClassFiltered'))
    reasons.push(`Class ${JSON.stringify(cls)} filtered ${nodes(n)}`);
  for (const [c, n] of numMap(m, 'ConstraintFiltered'))
    reasons.push(`Constraint ${JSON.stringify(c)} filtered ${nodes(n)}`);
  const exhausted = num(m, 'NodesExhausted');
  if (exhausted > 0) {
    const dims = numMap(m, 'DimensionExhausted').map(([d]) => d);
    reasons.push(
      `Resources exhausted on ${nodes(exhausted)}${dims.length > 0 ? ` (${dims.join(', ')})` : ''}`,
    );
  }
  const quota = m.QuotaExhausted;
  if (Array.isArray(quota)) for (const q of quota) reasons.push(`Quota limit hit: ${String(q)}`);
  return reasons;
}

/** "Task group web: 2 not placed: Resources exhausted on 3 nodes (memory)" per failed group. */
export function placementFailures(s: SchedulerAnnotations): string[] {
  const out: string[] = [];
  const failed = s.failedTGAllocs ?? {};
  for (const group of Object.keys(failed).sort()) {
    const metric = failed[group];
    if (!metric) continue;
    const n = num(metric as Record<string, unknown>, 'CoalescedFailures') + 1;
    const reasons = describePlacementFailure(metric);
    out.push(`Task group ${group}: ${n} not placed${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}`);
  }
  return out;
}

/** Number of allocations the scheduler could not place, over all groups. */
export function unplacedCount(s: SchedulerAnnotations): number {
  let total = 0;
  for (const metric of Object.values(s.failedTGAllocs ?? {})) {
    if (metric && typeof metric === 'object')
      total += num(metric as Record<string, unknown>, 'CoalescedFailures') + 1;
  }
  return total;
}

/** The lines shown under a job in the terminal: updates per group, failures, warnings. */
export function schedulerLines(s: SchedulerAnnotations): string[] {
  const groups = Object.keys(s.desiredTGUpdates ?? {}).sort();
  const lines: string[] = [];
  if (groups.length <= 1) lines.push(`Scheduler: ${schedulerSummary(s)}`);
  else {
    lines.push('Scheduler:');
    for (const g of groups) lines.push(`  task group ${g}: ${describeUpdates(s.desiredTGUpdates[g]!)}`);
  }
  lines.push(...placementFailures(s));
  if (s.nextPeriodicLaunch) lines.push(`Next periodic launch: ${s.nextPeriodicLaunch}`);
  if (s.warnings)
    for (const w of s.warnings.split('\n').filter((l) => l.trim()))
      lines.push(`Scheduler warning: ${w.trim()}`);
  return lines;
}
