/**
 * Canonical jobs are built key by key in sorted order, and V8 turns an object that grows past a
 * dozen properties that way into a hash table. A job, its groups and its tasks all have more, and
 * every later reader pays for the hash lookups: the diff, the scheduler, JSON text of answers and of
 * the log. A spread copy of such an object has a fast shape (same keys, same order, same values).
 */

/** Past this many keys an object built key by key may be a hash table; a copy is cheap next to that. */
const FAST_SHAPE_KEYS = 12;

/**
 * `value` with each object of more than FAST_SHAPE_KEYS keys replaced by a spread copy. Only arrays
 * and such big objects are searched: in a job they hold all the others (groups, tasks, services,
 * checks, templates), and the small blocks under them are left as they are. The tree must be the
 * caller's own and not frozen: arrays are updated in place.
 */
export function withFastShapes<T>(value: T): T {
  return fastShape(value) as T;
}

function fastShape(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (item !== null && typeof item === 'object') v[i] = fastShape(item);
    }
    return v;
  }
  const keys = Object.keys(v);
  if (keys.length <= FAST_SHAPE_KEYS) return v;
  const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
  for (const k of keys) {
    const item = out[k];
    if (item !== null && typeof item === 'object') out[k] = fastShape(item);
  }
  return out;
}
