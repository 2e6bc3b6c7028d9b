/** Request plumbing shared by the registry's routes: bodies, rule violations, namespaces, filters. */
import type { z } from 'zod';
import type { RuleViolation } from '../../api/reg/rules';
import { checkServiceName, durationToMs } from '../../api/reg/rules';
import { formatDuration } from '../../api/duration';
import { compileFilter, FilterError } from '../filter';
import { badRequest, invalidField, type HttpError } from '../http/errors';
import type { RequestContext } from '../http/router';
import { DEFAULT_NAMESPACE } from './tables';

export type Body = Record<string, unknown>;

export function isObject(v: unknown): v is Body {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON body as an object; an empty body counts as `{}` only when `optional`. */
export async function bodyObject(ctx: RequestContext, optional = false): Promise<Body> {
  const body = await ctx.json();
  if (body === undefined || body === null) {
    if (optional) return {};
    throw badRequest('request body: is required (rule: required); send a JSON object');
  }
  if (!isObject(body)) throw badRequest('request body: must be a JSON object (rule: object)');
  return body;
}

export function violationError(v: RuleViolation): HttpError {
  return invalidField(v.field, `${v.detail} (rule: ${v.rule})`);
}

/** Throws the first violation as a 400. */
export function refuse(violations: readonly (RuleViolation | undefined)[]): void {
  const first = violations.find((v): v is RuleViolation => v !== undefined);
  if (first) throw violationError(first);
}

/** Checks types with a request schema after the rules ran, naming the field of the first issue. */
export function checkTypes<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const res = schema.safeParse(body);
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  throw invalidField(field.replace(/^\./, '') || 'request body', `${issue.message} (rule: type)`);
}

/** A service name from a path or body, checked before it becomes part of an ACL capability. */
export function serviceName(field: string, value: unknown): string {
  refuse([checkServiceName(field, value)]);
  return value as string;
}

export function rule(field: string, name: string, detail: string): RuleViolation {
  return { field, rule: name, detail, message: `${field}: ${detail}` };
}

/** The namespace a request names (`ns` parameter, then the X-Reg-Namespace header), if any. */
export function namedNamespace(ctx: RequestContext): string | undefined {
  const q = ctx.query.get('ns');
  if (q) return q;
  const h = ctx.headers['x-reg-namespace'];
  if (typeof h === 'string' && h !== '') return h;
  return undefined;
}

/** Spec section 5.4: the named namespace, else the token's, else `default`. */
export function requestNamespace(ctx: RequestContext, tokenNamespace: string | undefined): string {
  return namedNamespace(ctx) ?? tokenNamespace ?? DEFAULT_NAMESPACE;
}

/** Applies the `filter` query parameter (go-bexpr) to a list; a bad expression is a 400. */
export function applyFilter<T>(ctx: RequestContext, items: T[]): T[] {
  const expr = ctx.query.get('filter');
  if (!expr) return items;
  try {
    const pred = compileFilter(expr);
    return items.filter((i) => pred(i));
  } catch (err) {
    if (err instanceof FilterError) throw invalidField('filter', err.message);
    throw err;
  }
}

export function optString(body: Body, field: string, path = field): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidField(path, `must be a string, got ${typeof v} (rule: type)`);
  return v;
}

export function optStringMap(body: Body, field: string): Record<string, string> | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw invalidField(field, 'must be an object of strings (rule: type)');
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string') throw invalidField(`${field}.${k}`, 'must be a string (rule: type)');
  }
  return v as Record<string, string>;
}

/** A duration field given as a Go string or nanoseconds, in ms; 400 naming the field when unusable. */
export function optDurationMs(body: Body, field: string, path = field): number | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === '') return undefined;
  const ms = durationToMs(v);
  if (ms === undefined)
    throw invalidField(
      path,
      `must be a duration such as "5s" or "1m30s"; got ${JSON.stringify(v)} (rule: duration)`,
    );
  if (ms < 0) throw invalidField(path, `must not be negative; got ${JSON.stringify(v)} (rule: non-negative)`);
  return ms;
}

/** Go's time.Duration.String, as Consul renders durations in JSON. */
export const goDuration = (ms: number): string => formatDuration(ms);

export const nowIso = (): string => new Date().toISOString();
