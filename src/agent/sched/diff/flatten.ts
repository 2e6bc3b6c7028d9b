import { isObj, type Obj } from './json';

/*
 * Flattening as Nomad's helper/flatmap does it: a struct becomes a map of field path to string. In
 * "primitive only" mode (used for struct fields) nested structs, pointers and slices are skipped and
 * only maps of scalars are expanded, as `Meta[key]`. In full mode (used for free-form maps such as a
 * task's driver Config) everything is expanded: `args[0]`, `port_map[0][http]`.
 */

export type Flat = Record<string, string>;

/** Without a prototype, so that a key such as `__proto__` in user data stays an ordinary key. */
function emptyFlat(): Flat {
  return Object.create(null) as Flat;
}

/** Struct fields that are Go maps of scalars, flattened as `Name[key]`; other objects are structs. */
const MAP_FIELDS = new Set([
  'Meta',
  'Env',
  'GetterOptions',
  'GetterHeaders',
  'CanaryMeta',
  'TaggedAddresses',
  'Target',
]);

/** Whether a struct key is flattened into `Key[...]` fields rather than diffed as a nested object. */
export function isMapField(key: string): boolean {
  return MAP_FIELDS.has(key);
}

/**
 * Integer texts already made. A job's numbers are mostly the same few defaults (durations in
 * nanoseconds, sizes), and printing a large integer costs several times a lookup; the bound keeps a
 * job full of distinct numbers from growing it.
 */
const integerTexts = new Map<number, string>();
const MAX_INTEGER_TEXTS = 4096;

function integerString(n: number): string {
  let text = integerTexts.get(n);
  if (text === undefined) {
    text = Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
    if (integerTexts.size < MAX_INTEGER_TEXTS) integerTexts.set(n, text);
  }
  return text;
}

/**
 * Go's `%v` for a float64: the shortest round-trip digits, switching to exponent form when the
 * decimal exponent is below -4 or at least 6 (so 1e6 prints as `1e+06`, unlike JavaScript).
 */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa = '0', expPart = '0'] = n.toExponential().split('e');
  const exp = Number(expPart);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

/** A struct scalar as Go's flatmap prints it; integer fields print as integers. */
export function scalarString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) ? integerString(v) : goFloat(v);
  return undefined;
}

/** Values of free-form maps were decoded from JSON into interface{}, so numbers are float64 there. */
function freeScalarString(v: unknown): string | undefined {
  if (typeof v === 'number') return goFloat(v);
  return scalarString(v);
}

/** The primitive fields of a struct (and its scalar maps), minus the filtered paths. */
export function flattenPrimitives(obj: Obj | null, filter: readonly string[] = []): Flat {
  const out = emptyFlat();
  if (obj === null) return out;
  // Filtered names are skipped rather than deleted afterwards: a delete turns the map into a slow
  // dictionary for everything that reads it next.
  const skip = filter.length > 0 ? filterSet(filter) : undefined;
  // Own keys only; for-in would also walk the prototype chain, and canonical jobs are hash-table
  // objects, for which V8 keeps no enumeration cache.
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const s = scalarString(value);
    if (s !== undefined) {
      if (!skip?.has(key)) out[key] = s;
    } else if (MAP_FIELDS.has(key) && isObj(value)) {
      for (const mk of Object.keys(value)) {
        const ms = scalarString(value[mk]);
        const name = `${key}[${mk}]`;
        if (ms !== undefined && !skip?.has(name)) out[name] = ms;
      }
    }
  }
  return out;
}

/** Filters are a handful of constant lists, so each is turned into a set once. */
const filterSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function filterSet(filter: readonly string[]): ReadonlySet<string> {
  let set = filterSets.get(filter);
  if (!set) filterSets.set(filter, (set = new Set(filter)));
  return set;
}

/**
 * Like flattenPrimitives for the two sides of one edit. Where a scalar field is omitted on one side
 * only, the omitted side gets the Go zero value, because a Go struct always carries every field: an
 * omitted `Count` is `0`, not a deleted field. `null` stays unset, as a nil pointer does.
 */
export function flattenPair(
  oldObj: Obj | null,
  newObj: Obj | null,
  filter: readonly string[] = [],
): [Flat | null, Flat | null] {
  const oldFlat = oldObj === null ? null : flattenPrimitives(oldObj, filter);
  const newFlat = newObj === null ? null : flattenPrimitives(newObj, filter);
  if (oldObj !== null && newObj !== null && oldFlat !== null && newFlat !== null) {
    fillZeros(oldObj, newObj, newFlat, filter);
    fillZeros(newObj, oldObj, oldFlat, filter);
  }
  return [oldFlat, newFlat];
}

function fillZeros(from: Obj, to: Obj, toFlat: Flat, filter: readonly string[]): void {
  for (const [key, value] of Object.entries(from)) {
    if ((Object.hasOwn(to, key) && to[key] !== undefined) || filter.includes(key)) continue;
    if (typeof value === 'number') toFlat[key] = '0';
    else if (typeof value === 'boolean') toFlat[key] = 'false';
  }
}

/** Every leaf of a free-form value, keyed by its path (`a`, `a[0]`, `a[b]`). */
export function flattenFull(value: unknown): Flat {
  const out = emptyFlat();
  // A nil map has no entries; only nil values inside it print as `nil`.
  if (value !== null && value !== undefined) walk('', value, out);
  return out;
}

function subKey(prefix: string, key: string): string {
  return prefix === '' ? key : `${prefix}[${key}]`;
}

function walk(prefix: string, value: unknown, out: Flat): void {
  if (value === null || value === undefined) {
    out[prefix] = 'nil';
    return;
  }
  const s = freeScalarString(value);
  if (s !== undefined) {
    out[prefix] = s;
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(`${prefix}[${i}]`, item, out));
    return;
  }
  if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) walk(subKey(prefix, k), v, out);
  }
}
