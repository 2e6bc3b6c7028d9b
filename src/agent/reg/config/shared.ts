/** Helpers shared by the per-kind config entry checks. */
import { compileRe2 } from '../../../common/re2';
import { invalidField } from '../../http/errors';
import { goDuration, optDurationMs, type Body } from '../request';
import type { TargetOpts } from './types';

const TARGET_FIELDS = ['Service', 'ServiceSubset', 'Namespace', 'Partition', 'Datacenter', 'Peer'] as const;

/** Replaces a duration field by its Go string form (or drops it when zero). */
export function normalizeDuration(obj: Body, field: string, path: string): void {
  const v = optDurationMs(obj, field, path);
  if (v === undefined || v === 0) delete obj[field];
  else obj[field] = goDuration(v);
}

export function targetOpts(o: Body): TargetOpts {
  const out: TargetOpts = {};
  for (const f of TARGET_FIELDS) if (typeof o[f] === 'string' && o[f] !== '') out[f] = o[f];
  return out;
}

export function checkRegex(field: string, re: string): void {
  try {
    compileRe2(re);
  } catch (err) {
    throw invalidField(field, `is not a valid regular expression: ${(err as Error).message} (rule: regex)`);
  }
}
