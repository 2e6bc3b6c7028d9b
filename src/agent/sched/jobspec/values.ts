import { sortedEntries, typeName } from '../../../hcl/values';

export { typeName };

/**
 * Values produced by evaluating HCL expressions. HCL's richer type system (list vs tuple vs set,
 * map vs object) collapses to JSON shapes here because that is all a JSON job can carry.
 */
export type HclValue = string | number | boolean | null | HclValue[] | HclObject;
export interface HclObject {
  [key: string]: HclValue;
}

export function isObject(v: HclValue | undefined): v is HclObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** cty renders whole numbers without a fraction and others in shortest form. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 0 });
  return String(n);
}

export function deepEqual(a: HclValue, b: HclValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i] as HclValue));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length && ka.every((k) => k in b && deepEqual(a[k] as HclValue, b[k] as HclValue))
    );
  }
  return false;
}

/** Objects with keys in sorted order, as Go's JSON encoder writes maps. */
export function sortedObject(entries: Iterable<[string, HclValue]>): HclObject {
  const out: HclObject = {};
  for (const [k, v] of sortedEntries(entries)) out[k] = v;
  return out;
}
