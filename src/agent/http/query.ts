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
  const ms = durationOrUndefined(v);
  if (ms === undefined) throw invalidField(name, new DurationError(v).message);
  return ms;
}

/** Go's uint64, which is what both services parse `index` into. */
const MAX_INDEX = 2n ** 64n - 1n;

/**
 * The blocking-query options every read takes. Nomad and Consul parse them on every read, before the
 * endpoint runs, and refuse a bad one with 400 "Invalid wait time" / "Invalid index" even where the
 * read would not have blocked.
 */
export function checkReadOptions(q: URLSearchParams): void {
  const wait = q.get('wait');
  if (wait !== null && wait !== '') {
    const ms = durationOrUndefined(wait);
    if (ms === undefined || ms < 0)
      throw invalidField('wait', `Invalid wait time "${wait}": must be a duration such as "30s" or "5m"`);
  }
  const index = q.get('index');
  if (index !== null && index !== '' && !(/^\d{1,20}$/.test(index) && BigInt(index) <= MAX_INDEX))
    throw invalidField('index', `Invalid index "${index}": must be an integer from 0 to ${MAX_INDEX}`);
}

function durationOrUndefined(v: string): number | undefined {
  try {
    return parseDuration(/^\d+$/.test(v) ? `${v}s` : v);
  } catch (err) {
    if (err instanceof DurationError) return undefined;
    throw err;
  }
}
