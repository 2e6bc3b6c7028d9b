/**
 * A deep copy of JSON-shaped data (plain objects, arrays, primitives; `undefined` members are kept):
 * several times faster than structuredClone, which matters where every job of a large plan is copied.
 */
export function copyJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const item = copyJson((v as Record<string, unknown>)[k]);
    // "__proto__" is an own key in parsed JSON; assigning it would set the prototype instead.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: item, enumerable: true, writable: true, configurable: true });
    else out[k] = item;
  }
  return out as T;
}
