/**
 * Semantic equality of attribute values. The registry answers unset optional fields with "", {} or []
 * (or leaves them out), while a configuration leaves them null; treating all of these as one "empty"
 * value is what keeps a plan from showing a change that is not one.
 */
import { durationToMs } from '../../api/reg/rules';
import { containsUnknown } from '../values';

export type Equal = (a: unknown, b: unknown) => boolean;

export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** null for empty values, the value itself otherwise: the form optional attributes take in state. */
export function orNull<T>(v: T | undefined | null): T | null {
  return isEmpty(v) ? null : (v as T);
}

/** Deep equality where empty strings, lists and maps equal null (also inside objects and lists). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!sameValue(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** Lists compared as sets (order carries no meaning for default policies and roles). */
export function sameSet(a: unknown, b: unknown, canonical: (x: string) => string = (x) => x): boolean {
  const norm = (v: unknown): string[] =>
    Array.isArray(v) ? [...new Set(v.map((x) => canonical(String(x))))].sort() : [];
  return sameValue(norm(a), norm(b));
}

/** Go durations compared by length: "60s", "1m" and "1m0s" are one value; empty and "0s" are zero. */
export function sameDuration(a: unknown, b: unknown): boolean {
  const ms = (v: unknown): number | undefined => (isEmpty(v) ? 0 : durationToMs(v));
  const x = ms(a);
  const y = ms(b);
  return x !== undefined && y !== undefined ? x === y : a === b;
}

/** JSON objects given as objects or as JSON text compare by content, keys in any order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return sameValue(parseJsonish(a), parseJsonish(b));
}

/** A JSON string is parsed; anything else is returned as is. Invalid JSON stays a string. */
export function parseJsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Unknown values never equal anything: they might differ once known. */
export function knownAndEqual(eq: Equal, a: unknown, b: unknown): boolean {
  if (containsUnknown(a) || containsUnknown(b)) return false;
  return eq(a, b);
}

/**
 * The state value of an attribute read back from the registry: the form recorded before (`like`, from the
 * prior state or the plan) when it means the same thing, so "60s" stays "60s" when the registry says "1m0s";
 * the registry's own value (empty as null) when it differs, which is how drift shows.
 */
export function keep(like: unknown, server: unknown, eq: Equal = sameValue): unknown {
  if (like !== undefined && !containsUnknown(like) && eq(like, server)) return like;
  return isEmpty(server) ? null : server;
}

/** An unset partition is the `default` one. */
export const samePartition: Equal = (a, b) => (isEmpty(a) ? 'default' : a) === (isEmpty(b) ? 'default' : b);
