/**
 * zod building blocks for typed construct props. Values may be cdktf tokens (references resolved by
 * Terraform at deploy time), so every rule here lets an unresolved token through; the provider checks
 * it once it is known. Error messages state the rule and never quote the value, so a secret cannot
 * leak through them.
 */
import { Token } from 'cdktf';
import { z } from 'zod';
import { msToNs, parseDuration } from '../src/api/duration';

export const isToken = (v: unknown): boolean =>
  (typeof v === 'string' || typeof v === 'number') && Token.isUnresolved(v);

/** True when the value or anything inside it is an unresolved token. */
export function containsToken(v: unknown): boolean {
  if (isToken(v)) return true;
  if (Array.isArray(v)) return v.some(containsToken);
  if (v !== null && typeof v === 'object') return Object.values(v).some(containsToken);
  return false;
}

export interface IntRule {
  min?: number;
  max?: number;
}

function describeRange({ min, max }: IntRule): string {
  if (min !== undefined && max !== undefined) return `an integer between ${min} and ${max}`;
  if (min === 0) return 'a non-negative integer';
  if (min === 1) return 'a positive integer';
  if (min !== undefined) return `an integer of at least ${min}`;
  if (max !== undefined) return `an integer of at most ${max}`;
  return 'an integer';
}

/** An integer within bounds; the message names the whole rule ("must be a non-negative integer"). */
export function int(rule: IntRule = {}) {
  const message = `must be ${describeRange(rule)}`;
  return z
    .number()
    .refine(
      (n) =>
        isToken(n) ||
        (Number.isInteger(n) &&
          (rule.min === undefined || n >= rule.min) &&
          (rule.max === undefined || n <= rule.max)),
      message,
    );
}

/** A non-empty string. */
export const nonEmpty = z.string().refine((s) => isToken(s) || s.length > 0, 'must not be empty');

/** One of `values`; typed as the literal union for editor completion. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const rule = `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return z.custom<T[number]>((v) => typeof v === 'string' && (isToken(v) || values.includes(v)), rule);
}

const DURATION_RULE = 'must be a duration such as "30s", "5m" or "1h30m", or a whole number of nanoseconds';

/**
 * A duration: a Go duration string ("30s", "1h30m") or nanoseconds, converted to nanoseconds as the
 * API wants them. A number token passes through; a string token cannot be converted before Terraform
 * resolves it, so it is refused with that reason.
 */
export const duration = z.union([z.number(), z.string()]).transform((v, ctx): number => {
  if (isToken(v)) {
    if (typeof v === 'number') return v;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be a literal duration or a number token: a string reference cannot be converted to nanoseconds before deploy',
    });
    return z.NEVER;
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0) return v;
    ctx.addIssue({ code: 'custom', message: DURATION_RULE });
    return z.NEVER;
  }
  let ms: number;
  try {
    ms = parseDuration(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: DURATION_RULE });
    return z.NEVER;
  }
  if (ms < 0) {
    ctx.addIssue({ code: 'custom', message: 'must not be negative' });
    return z.NEVER;
  }
  return msToNs(ms);
});

/** Optional, and `null` accepted for "unset" the way the API schemas do. */
export const opt = <T extends z.ZodType>(s: T) => s.nullish();

/** Turns zod's generic messages into rules phrased for the field ("is required", "must be a string"). */
export const ruleErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${article(issue.expected)}`;
    case 'unrecognized_keys':
      return `${issue.keys.length === 1 ? 'is not a known field' : 'are not known fields'}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'has the wrong type';
    case 'too_small':
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} item(s)`;
      return undefined;
    default:
      return undefined;
  }
};

function article(expected: string): string {
  switch (expected) {
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
      return 'an object';
    case 'int':
      return 'an integer';
    default:
      return `a ${expected}`;
  }
}

/** `spec.TaskGroups[0].Count` from a base name and a zod issue path. */
export function formatFieldPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

/** "field: rule" lines for a failed parse. */
export function issueMessages(base: string, error: z.ZodError): string[] {
  return error.issues.map((i) => {
    // An unknown key is reported on its parent; name the key itself.
    if (i.code === 'unrecognized_keys') {
      return i.keys.map((k) => `${formatFieldPath(base, [...i.path, k])}: is not a known field`).join('\n');
    }
    return `${formatFieldPath(base, i.path)}: ${i.message}`;
  });
}
