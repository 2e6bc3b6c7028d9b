/** Query-parameter readers that answer bad values with a 400 naming the parameter. */
import { DurationError, parseDuration } from '../../api/duration';
import { invalidField } from './errors';

export function boolParam(q: URLSearchParams, name: string, dflt = false): boolean {
  if (!q.has(name)) return dflt;
  const v = q.get(name) ?? '';
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidField(name, `must be true or false, got "${v}"`);
}

export function intParam(q: URLSearchParams, name: string, opts: { min?: number } = {}): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw invalidField(name, `must be an integer, got "${v}"`);
  const n = Number(v);
  if (opts.min !== undefined && n < opts.min)
    throw invalidField(name, `must be at least ${opts.min}, got ${n}`);
  return n;
}

export function durationParamMs(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  try {
    return parseDuration(/^\d+$/.test(v) ? `${v}s` : v);
  } catch (err) {
    if (err instanceof DurationError) throw invalidField(name, err.message);
    throw err;
  }
}
