/**
 * A deep copy of JSON-shaped data (plain objects, arrays, primitives; `undefined` members are kept):
 * several times faster than structuredClone for the small objects of a job spec, which matters where
 * every job of a large plan is copied.
 */
export function copyJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyJson) as T;
  const keys = Object.keys(v);
  if (keys.length > FAST_KEYS) {
    // Adding this many properties one by one turns V8's object into a hash table (about five times
    // the memory of a state's attribute object); a spread copies the shape whole.
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const k of keys) {
      const item = out[k];
      if (item !== null && typeof item === 'object') out[k] = copyJson(item);
    }
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const item = copyJson((v as Record<string, unknown>)[k]);
    // "__proto__" is an own key in parsed JSON; assigning it would set the prototype instead.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: item, enumerable: true, writable: true, configurable: true });
    else out[k] = item;
  }
  return out as T;
}

/** Properties V8 keeps in fast mode when they are added by key one at a time (in-object slots + 12). */
const FAST_KEYS = 12;
