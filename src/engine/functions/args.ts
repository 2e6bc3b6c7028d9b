/** Argument coercion shared by the function implementations; failures name the argument. */
import { ExpressionError } from '../expressions/errors';
import {
  isObjectValue,
  toBool,
  toNum,
  toNumeric,
  toStr,
  typeName,
  type ValueObject,
} from '../expressions/values';
import { isBigFloat, type Num } from '../numbers/num';
import { FunctionError } from './registry';

function coerce<T>(args: unknown[], i: number, conv: (v: unknown) => T): T {
  try {
    return conv(args[i]);
  } catch (e) {
    if (e instanceof ExpressionError) throw new FunctionError(e.detail ?? e.summary, i);
    throw e;
  }
}

/** cty's wording for an argument that does not convert to its parameter's type. */
function refuse(v: unknown, i: number, type: 'string' | 'number' | 'bool'): never {
  if (v === null || v === undefined) throw new FunctionError('argument must not be null', i);
  if (typeof v === 'string' && type !== 'string') throw new FunctionError(`a ${type} is required`, i);
  throw new FunctionError(`${type} required`, i);
}

export const argStr = (args: unknown[], i: number): string =>
  typeof args[i] === 'object' && !isBigFloat(args[i])
    ? refuse(args[i], i, 'string')
    : coerce(args, i, (v) => toStr(v));
export const argNum = (args: unknown[], i: number): number =>
  typeof args[i] === 'number' ? (args[i] as number) : convertOrRefuse(args, i, 'number', (v) => toNum(v));
/** A number argument exactly (big integers and decimals keep their digits). */
export const argNumeric = (args: unknown[], i: number): Num =>
  typeof args[i] === 'number' ? (args[i] as number) : convertOrRefuse(args, i, 'number', (v) => toNumeric(v));
export const argBool = (args: unknown[], i: number): boolean =>
  typeof args[i] === 'boolean' ? (args[i] as boolean) : convertOrRefuse(args, i, 'bool', (v) => toBool(v));

function convertOrRefuse<T>(args: unknown[], i: number, type: 'number' | 'bool', conv: (v: unknown) => T): T {
  try {
    return conv(args[i]);
  } catch (e) {
    if (e instanceof ExpressionError) refuse(args[i], i, type);
    throw e;
  }
}

export function argInt(args: unknown[], i: number): number {
  const n = argNum(args, i);
  if (!Number.isInteger(n)) throw new FunctionError(`a whole number is required, got ${n}`, i);
  return n;
}

export function argList(args: unknown[], i: number): unknown[] {
  const v = args[i];
  if (Array.isArray(v)) return v;
  throw new FunctionError(`list of any single type required, but got ${typeName(v)}`, i);
}

export function argObject(args: unknown[], i: number): ValueObject {
  const v = args[i];
  if (isObjectValue(v)) return v;
  throw new FunctionError(`map or object required, but got ${typeName(v)}`, i);
}

/**
 * Makes a list of mixed primitives one type as Terraform's list conversions do: if any element is a
 * string, numbers and bools become strings; numbers and bools cannot be mixed with each other.
 */
export function unifyPrimitives(items: unknown[], what: string): unknown[] {
  const kinds = new Set(items.filter((x) => x !== null).map((x) => typeName(x)));
  if (kinds.size <= 1) return items;
  const primitive = [...kinds].every(
    (k) => k === 'string' || k === 'number' || k === 'bool' || k === 'unknown',
  );
  if (primitive && kinds.has('string'))
    return items.map((x) => (x === null || typeName(x) === 'unknown' ? x : toStr(x)));
  if (
    [...kinds].every((k) => k === 'object' || k === 'unknown') ||
    [...kinds].every((k) => k === 'tuple' || k === 'unknown')
  ) {
    return items;
  }
  if (kinds.has('unknown') && kinds.size === 2) return items;
  throw new FunctionError(
    `${what} elements must all have the same type, but found ${[...kinds].sort().join(' and ')}`,
  );
}
