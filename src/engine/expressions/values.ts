/**
 * Runtime values of the evaluator: JSON values (string, number, boolean, null, arrays, plain objects)
 * plus the provider's `UNKNOWN` marker for values not known until apply. Terraform's richer types
 * collapse onto these: lists, sets and tuples are arrays (sets sorted and de-duplicated), maps and
 * objects are plain objects — that is all a handler's JSON config can carry anyway.
 */
import { compareText, sortedEntries as sortedPairs, typeName as jsonTypeName } from '../../hcl/values';
import { isUnknown, UNKNOWN } from '../../provider/values';
import { ExpressionError } from './errors';

export { isUnknown, UNKNOWN, containsUnknown } from '../../provider/values';

export type ValueObject = Record<string, unknown>;

export function isObjectValue(v: unknown): v is ValueObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v);
}

/** Type names as Terraform prints them in messages. */
export function typeName(v: unknown): string {
  return isUnknown(v) ? 'unknown' : jsonTypeName(v);
}

/** Whole numbers print without a fraction (and without exponent up to 2^53), others in shortest form. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 0 });
  }
  return String(n);
}

/**
 * String conversion as Terraform applies it in templates and string arguments: numbers and bools
 * convert, null and collections do not.
 */
export function toStr(v: unknown, what = 'value'): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined)
    throw new ExpressionError(`Invalid ${what}`, 'a null value cannot be used as a string');
  throw new ExpressionError(`Invalid ${what}`, `string required, but got ${typeName(v)}`);
}

const NUMBER_RE = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

export function toNum(v: unknown, what = 'value'): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMBER_RE.test(v)) return Number(v);
  if (v === null || v === undefined)
    throw new ExpressionError(`Invalid ${what}`, 'a null value cannot be used as a number');
  throw new ExpressionError(
    `Invalid ${what}`,
    typeof v === 'string'
      ? `cannot convert "${v}" to number; given string must be a decimal representation of a number`
      : `number required, but got ${typeName(v)}`,
  );
}

export function toBool(v: unknown, what = 'value'): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === null || v === undefined)
    throw new ExpressionError(`Invalid ${what}`, 'a null value cannot be used as a bool');
  throw new ExpressionError(
    `Invalid ${what}`,
    typeof v === 'string' ? `cannot convert "${v}" to a bool` : `bool required, but got ${typeName(v)}`,
  );
}

/** Deep equality; an unknown anywhere makes the answer unknown (returned as UNKNOWN). */
export function valuesEqual(a: unknown, b: unknown): boolean | typeof UNKNOWN {
  if (isUnknown(a) || isUnknown(b)) return UNKNOWN;
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    let unknown = false;
    for (let i = 0; i < a.length; i++) {
      const r = valuesEqual(a[i], b[i]);
      if (r === false) return false;
      if (r !== true) unknown = true;
    }
    return unknown ? UNKNOWN : true;
  }
  if (isObjectValue(a) && isObjectValue(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length || !ka.every((k) => k in b)) return false;
    let unknown = false;
    for (const k of ka) {
      const r = valuesEqual(a[k], b[k]);
      if (r === false) return false;
      if (r !== true) unknown = true;
    }
    return unknown ? UNKNOWN : true;
  }
  return false;
}

/** True only when both are known and deeply equal. */
export function sameValue(a: unknown, b: unknown): boolean {
  return valuesEqual(a, b) === true;
}

/**
 * A set as Terraform would hold it: duplicates removed, strings in lexical order and numbers in
 * numeric order (cty's ordering), other elements in first-seen order.
 */
export function toSetArray(items: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const it of items) if (!out.some((x) => sameValue(x, it))) out.push(it);
  if (out.every((x) => typeof x === 'string')) return (out as string[]).sort(compareText);
  if (out.every((x) => typeof x === 'number')) return (out as number[]).sort((a, b) => a - b);
  if (out.every((x) => typeof x === 'boolean'))
    return (out as boolean[]).sort((a, b) => Number(a) - Number(b));
  return out;
}

/** Objects with keys in lexical order, as Terraform iterates maps and objects. */
export function sortedEntries(o: ValueObject): [string, unknown][] {
  return sortedPairs(Object.entries(o));
}
