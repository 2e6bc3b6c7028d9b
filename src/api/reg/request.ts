import type { z } from 'zod';
import { RequestValidationError } from '../errors';
import { type Result } from '../transport';
import { formatIssuePath } from '../issue-path';
import type { RuleViolation } from './rules';

/** Throws the first broken rule, before anything is sent. */
export function refuse(violations: readonly RuleViolation[]): void {
  const first = violations[0];
  if (first) throw new RequestValidationError(first.field, `${first.detail} (rule: ${first.rule})`);
}

/** Checks a request body against its schema; plain JavaScript callers get a named field instead of a 400. */
export function checkBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new RequestValidationError(formatIssuePath(issue.path) || '(body)', issue.message);
  }
  return result.data;
}

/** One path segment: required, and encoded so a name can never reach another endpoint. */
export function segment(field: string, value: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new RequestValidationError(field, 'is required (rule: required)');
  }
  return encodeURIComponent(value);
}

/** A name in a path: encoded like any segment, and refused before sending when it breaks its object's name rule. */
export function nameSegment(
  name: string,
  rule: (field: string, value: unknown) => RuleViolation | undefined,
): string {
  const p = segment('name', name);
  refuse([rule('name', name)].filter((v) => v !== undefined));
  return p;
}

/** Consul answers an empty list with `null`; callers always get an array. */
export function orEmpty<T>(res: Result<T[] | null>): Result<T[]> {
  return { value: res.value ?? [], meta: res.meta };
}
