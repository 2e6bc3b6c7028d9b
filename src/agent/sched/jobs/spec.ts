/** Whether two versions of a job differ in what the user specified (not in status or indexes). */
import type { Job } from '../model';

const NOT_SPEC = new Set([
  'Status',
  'StatusDescription',
  'Stable',
  'Version',
  'SubmitTime',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
]);

export function stableStringify(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  const keys = Object.keys(v as Record<string, unknown>)
    .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function specOf(job: Job): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(job)) if (!NOT_SPEC.has(k)) out[k] = v;
  return out;
}

export function specChanged(a: Job, b: Job): boolean {
  return stableStringify(specOf(a)) !== stableStringify(specOf(b));
}
