/* Helpers for walking job JSON whose shape is only known loosely. */

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asObj(v: unknown): Obj | null {
  return isObj(v) ? v : null;
}

export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function asObjList(v: unknown): Obj[] {
  return asList(v).filter(isObj);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * Reduces a JSON value to what a Go struct would hold: omitted keys, `null`, zero scalars and empty
 * containers all read as the zero value there, so they must compare equal here too. Keys are sorted
 * so that the result also serves as a canonical form.
 */
export function normalize(v: unknown): unknown {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return undefined;
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    return v.map((e) => normalize(e) ?? null);
  }
  if (isObj(v)) {
    const out: Obj = {};
    for (const k of Object.keys(v).sort()) {
      const n = normalize(v[k]);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return v;
}

/** Whether `normalize(v)` is undefined: Go's zero value, down to structs whose every field is zero. */
function isZero(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObj(v)) {
    for (const k in v) if (!isZero(v[k])) return false;
    return true;
  }
  return false;
}

/** `strictEqual(normalize(a) ?? null, normalize(b) ?? null)`, for list members. */
function memberEqual(a: unknown, b: unknown): boolean {
  const za = isZero(a);
  if (za || isZero(b)) return za && isZero(b);
  return nonZeroEqual(a, b);
}

/** Two keys' values of two structs compare equal unless exactly one of them is zero, or both differ. */
function fieldsEqual(a: Obj, b: Obj): boolean {
  for (const k in a) {
    if (isZero(a[k])) continue;
    if (!Object.hasOwn(b, k) || isZero(b[k]) || !nonZeroEqual(a[k], b[k])) return false;
  }
  for (const k in b) if (!isZero(b[k]) && (!Object.hasOwn(a, k) || isZero(a[k]))) return false;
  return true;
}

/** Equality of the normalized forms of two values neither of which is zero. */
function nonZeroEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!memberEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObj(a)) return isObj(b) && fieldsEqual(a, b);
  return false;
}

/**
 * Equality as Go's reflect.DeepEqual sees the decoded structs (zero value == omitted): the same answer
 * as comparing `normalize(a)` with `normalize(b)`, without building either (a plan diffs every level of
 * a job, and normalizing each level's whole subtree again made the diff quadratic in the job's depth).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  const za = isZero(a);
  if (za || isZero(b)) return za && isZero(b);
  return nonZeroEqual(a, b);
}

/** A stable identity for a value, standing in for Nomad's hashstructure hash of a set member. */
export function canonicalKey(v: unknown): string {
  return JSON.stringify(normalize(v) ?? null);
}

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/**
 * Orders strings as Go does (byte order of UTF-8, i.e. code point order). JavaScript's `<` compares
 * UTF-16 code units, which disagrees for characters above U+FFFF against U+E000..U+FFFF.
 */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = isSurrogate(x);
    const sy = isSurrogate(y);
    if (sx !== sy) return sx ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * `list` sorted in place by `compare`. Diff lists mostly come out in order already (canonical jobs
 * have sorted keys), and a check of neighbours costs less than a sort, which copies the list first.
 * The sort is stable, so a list already in order is left exactly as it was either way.
 */
export function sortInPlace<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  for (let i = 1; i < list.length; i++) {
    if (compare(list[i - 1]!, list[i]!) > 0) return list.sort(compare);
  }
  return list;
}
