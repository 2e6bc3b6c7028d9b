/**
 * Runtime values of the evaluator: JSON values (string, number, boolean, null, arrays, plain objects)
 * plus the provider's `UNKNOWN` marker for values not known until apply. Terraform's richer types
 * collapse onto these: lists, sets and tuples are arrays (sets sorted and de-duplicated), maps and
 * objects are plain objects — that is all a handler's JSON config can carry anyway.
 */
import { compareText, sortedEntries as sortedPairs, typeName as jsonTypeName } from '../../hcl/values';
import { isUnknown, UNKNOWN } from '../../provider/values';
import {
  isBigFloat,
  isNum,
  numCompare,
  numEqual,
  numFromText,
  numText,
  toDouble,
  type Num,
} from '../numbers/num';
import { ExpressionError } from './errors';
import { Sensitive } from './marks';

export { isUnknown, UNKNOWN, containsUnknown } from '../../provider/values';

export type ValueObject = Record<string, unknown>;

export function isObjectValue(v: unknown): v is ValueObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v) && !isBigFloat(v);
}

/** Type names as Terraform prints them in messages. */
export function typeName(v: unknown): string {
  return isUnknown(v) ? 'unknown' : isBigFloat(v) ? 'number' : jsonTypeName(v);
}

/** Numbers as terraform prints them: plain decimal, never an exponent, every digit the number holds. */
export function formatNumber(n: Num): string {
  return numText(n);
}

/**
 * String conversion as Terraform applies it in templates and string arguments: numbers and bools
 * convert, null and collections do not.
 */
export function toStr(v: unknown, what = 'value'): string {
  if (typeof v === 'string') return v;
  if (isNum(v)) return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined)
    throw new ExpressionError(`Invalid ${what}`, 'a null value cannot be used as a string');
  throw new ExpressionError(`Invalid ${what}`, `string required, but got ${typeName(v)}`);
}

const NUMBER_RE = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A number as a double, for arguments that are counts, indexes and offsets. */
export function toNum(v: unknown, what = 'value'): number {
  return typeof v === 'number' ? v : toDouble(toNumeric(v, what));
}

/** A number exactly (a string converts as terraform reads it, at full precision). */
export function toNumeric(v: unknown, what = 'value'): Num {
  if (isNum(v)) return v;
  if (typeof v === 'string' && NUMBER_RE.test(v)) return numFromText(v);
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

/**
 * An unknown known not to be null (cty's RefineNotNull): what `timestamp()` is at plan time, and
 * what arithmetic and templates on unknowns give. It is UNKNOWN to everything but `== null`;
 * `plainValue` turns it into the bare UNKNOWN before a value leaves the evaluator.
 */
export const UNKNOWN_NOT_NULL: typeof UNKNOWN = Object.freeze({ ...UNKNOWN });

/** Deep equality; an unknown anywhere makes the answer unknown (returned as UNKNOWN). */
export function valuesEqual(a: unknown, b: unknown): boolean | typeof UNKNOWN {
  if (a === UNKNOWN_NOT_NULL && (b === null || b === undefined)) return false;
  if (b === UNKNOWN_NOT_NULL && (a === null || a === undefined)) return false;
  if (isUnknown(a) || isUnknown(b)) return UNKNOWN;
  if (a === b) return true;
  if (isNum(a) && isNum(b)) return numEqual(a, b);
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
  if (out.every(isNum)) return (out as Num[]).sort(numCompare);
  if (out.every((x) => typeof x === 'boolean'))
    return (out as boolean[]).sort((a, b) => Number(a) - Number(b));
  return out;
}

/** Objects with keys in lexical order, as Terraform iterates maps and objects. */
export function sortedEntries(o: ValueObject): [string, unknown][] {
  return sortedPairs(Object.entries(o));
}

/**
 * What handlers, plans and state get (marks kept): every BigFloat as its nearest double, and
 * refined unknowns as the bare UNKNOWN.
 */
export function plainValue(v: unknown): unknown {
  if (!needsPlain(v)) return v;
  if (isBigFloat(v)) return v.toNumber();
  if (v === UNKNOWN_NOT_NULL) return UNKNOWN;
  if (v instanceof Sensitive) return new Sensitive(plainValue(v.value));
  if (Array.isArray(v)) return v.map(plainValue);
  const out: ValueObject = {};
  for (const [k, x] of Object.entries(v as ValueObject))
    Object.defineProperty(out, k, {
      value: plainValue(x),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function needsPlain(v: unknown): boolean {
  if (isBigFloat(v) || v === UNKNOWN_NOT_NULL) return true;
  if (v instanceof Sensitive) return needsPlain(v.value);
  if (Array.isArray(v)) return v.some(needsPlain);
  if (v !== null && typeof v === 'object') return Object.values(v).some(needsPlain);
  return false;
}
