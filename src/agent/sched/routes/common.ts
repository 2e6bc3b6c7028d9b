/** Small pieces every scheduler route uses. */
import { z } from 'zod';
import { formatIssuePath } from '../../../api/issue-path';
import { badRequest, notFound } from '../../http/errors';
import type { Snapshot } from '../../http/blocking';
import { listWith, type ListOptions } from '../../http/list';
import type { RequestContext } from '../../http/router';
import type { SchedContext } from '../context';
import { getNamespace } from '../state';

/** The namespace of a request; `*` only where the endpoint allows it. */
export function namespaceOf(ctx: RequestContext, allowWildcard = false): string {
  const ns = ctx.query.get('namespace') || 'default';
  if (ns === '*' && !allowWildcard) throw badRequest('namespace: "*" is not allowed for this endpoint');
  return ns;
}

export function checkRegion(sc: SchedContext, ctx: RequestContext): void {
  const region = ctx.query.get('region');
  if (region && region !== sc.settings.region)
    throw badRequest(`region: no path to region "${region}" (this agent serves "${sc.settings.region}")`);
}

export function requireExistingNamespace(sc: SchedContext, ns: string): void {
  if (ns !== '*' && !getNamespace(sc.store, ns)) throw notFound(`namespace "${ns}" not found`);
}

/** Parses a JSON body against a schema; a mismatch is a 400 naming the field and the rule. */
export async function parseBody<S extends z.ZodType>(
  ctx: RequestContext,
  schema: S,
  what: string,
): Promise<z.infer<S>> {
  const raw = await ctx.json();
  if (raw === undefined) throw badRequest(`${what}: request body is required`);
  return checkBody(raw, schema, what);
}

/** A parsed JSON body checked against a schema; a mismatch is a 400 naming the field and the rule. */
export function checkBody<S extends z.ZodType>(raw: unknown, schema: S, what: string): z.infer<S> {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = formatIssuePath(issue.path);
    throw badRequest(`${field || what}: ${issue.message}`);
  }
  return r.data;
}

/** Full UUIDs only: the 8-character short form is refused, as the spec says. */
export function requireUuid(id: string, what: string): void {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw badRequest(`${what}: "${id}" is not a full UUID (the short form is not accepted)`);
  }
}

/** An ID prefix must decode to bytes: even number of hex characters. */
export function checkPrefix(prefix: string | null, what = 'prefix'): void {
  if (!prefix) return;
  if (!/^[0-9a-f-]*$/i.test(prefix))
    throw badRequest(`${what}: must contain only hexadecimal characters, got "${prefix}"`);
  if (prefix.replace(/-/g, '').length % 2 !== 0)
    throw badRequest(`${what}: must have an even number of hexadecimal characters, got "${prefix}"`);
}

/** One page of a list as a blocking read answers it; the token of the next page travels in a header. */
export function listPage<T>(index: number, all: T[], opts: ListOptions<T>): Snapshot<unknown[]> {
  const res = listWith(all, opts);
  return {
    value: res.items,
    index,
    headers: res.nextToken ? { 'X-Sched-NextToken': res.nextToken } : undefined,
  };
}
