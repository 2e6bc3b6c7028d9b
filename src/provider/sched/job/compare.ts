/**
 * Whether two jobs mean the same thing. Both go through `comparableJob` (Nomad's defaults filled,
 * null/empty unified, keys sorted, server-managed fields dropped), so a spec compares equal to the copy
 * the cluster stores, and a change made on the cluster shows up as a difference.
 */
import { isDeepStrictEqual } from 'node:util';
import { comparableJob } from '../../../api/sched/canonicalize';
import type { Job } from '../../../api/sched/schemas';

export function sameSpec(a: Job, b: Job): boolean {
  return isDeepStrictEqual(comparableJob(a), comparableJob(b));
}

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lists of named objects are matched by name, so a reorder is not reported as every element changing. */
function label(item: unknown, index: number): string {
  if (isRec(item) && typeof item['Name'] === 'string' && item['Name'] !== '') return item['Name'];
  return String(index);
}

function walk(a: unknown, b: unknown, path: string, out: string[], limit: number): void {
  if (out.length >= limit || isDeepStrictEqual(a, b)) return;
  if (isRec(a) && isRec(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      walk(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => walk(x, b[i], `${path}[${label(x, i)}]`, out, limit));
    return;
  }
  out.push(path || '(job)');
}

/** The first few field paths where the two jobs differ, e.g. `TaskGroups[web].Count`. */
export function specDifferences(a: Job, b: Job, limit = 5): string[] {
  const out: string[] = [];
  walk(comparableJob(a), comparableJob(b), '', out, limit);
  return out;
}
