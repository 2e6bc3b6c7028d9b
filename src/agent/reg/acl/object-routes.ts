/**
 * What the routes of policies, roles and binding rules have in common: these objects are keyed by an ID the
 * agent generates on create and the path names on update, and live in one namespace.
 */
import { blockingRead } from '../../http/blocking';
import { invalidField, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { newId } from '../../ids';
import type { Txn } from '../../store';
import { authOf, type RegContext } from '../context';
import { bodyObject, optString, type Body } from '../request';
import { requireWritableNamespace } from '../namespaces/lookup';

/** A body may name the namespace it writes to; otherwise the request's (query, then token) applies. */
export function namespaceOf(rc: RegContext, ctx: RequestContext, body?: Body): string {
  return (body && optString(body, 'Namespace')) || authOf(rc, ctx).namespace(ctx);
}

export interface WriteTarget {
  body: Body;
  namespace: string;
  id: string;
}

/**
 * Reads the body of a create (`pathId` undefined) or update and checks the token may write there. The ID is
 * checked before the transaction so a mismatch is refused without touching the store.
 */
export async function writeTarget(
  rc: RegContext,
  ctx: RequestContext,
  pathId: string | undefined,
): Promise<WriteTarget> {
  const body = await bodyObject(ctx);
  const namespace = namespaceOf(rc, ctx, body);
  authOf(rc, ctx).require('acl:write', namespace);
  const bodyId = optString(body, 'ID');
  if (pathId !== undefined && bodyId && bodyId !== pathId)
    throw invalidField(
      'ID',
      `must match the ID in the path "${pathId}"; got "${bodyId}" (rule: matches-path)`,
    );
  return { body, namespace, id: pathId ?? newId() };
}

/**
 * Inside the write transaction: the namespace must still accept writes, and an update must name an object
 * that exists (a create may reuse none). `what` names the object in the 404: `ACL policy`.
 */
export function priorForWrite<T>(
  tx: Txn,
  table: string,
  target: WriteTarget,
  isUpdate: boolean,
  what: string,
): T | undefined {
  requireWritableNamespace(tx, target.namespace);
  const existing = tx.get<T>(table, target.id);
  if (isUpdate && !existing) throw notFound(`${what} not found: "${target.id}"`);
  return existing;
}

export interface NamedObjectReads<R> {
  /** The path word: `/v1/acl/<kind>/:id` and `/v1/acl/<kind>/name/:name`. */
  kind: string;
  table: string;
  /** Tables whose change changes the rendered object (a role renders its policies' names). */
  watch: string[];
  /** Names the object in the 404: `ACL policy`. */
  what: string;
  render: (r: R) => unknown;
}

/** `GET /v1/acl/<kind>/:id` and `GET /v1/acl/<kind>/name/:name` (the name within the request's namespace). */
export function addNamedObjectReads<R extends { ID: string; Name: string; Namespace: string }>(
  router: Router,
  rc: RegContext,
  o: NamedObjectReads<R>,
): void {
  const { store } = rc;
  const readBy = (ctx: RequestContext, find: () => R | undefined, which: string) =>
    blockingRead(
      ctx,
      store,
      o.watch.map((table) => ({ table })),
      () => {
        const r = find();
        if (!r) throw notFound(`${o.what} not found: ${which}`);
        return { value: o.render(r), index: store.keyIndex(o.table, r.ID) };
      },
    );

  router.add(
    'GET',
    `/v1/acl/${o.kind}/:id`,
    (ctx) => readBy(ctx, () => store.get<R>(o.table, ctx.params['id']!), `"${ctx.params['id']!}"`),
    { acl: 'acl:read' },
  );
  router.add(
    'GET',
    `/v1/acl/${o.kind}/name/:name`,
    (ctx) => {
      const ns = namespaceOf(rc, ctx);
      const name = ctx.params['name']!;
      return readBy(
        ctx,
        () => store.list<R>(o.table).find((r) => r.Name === name && r.Namespace === ns),
        `named "${name}"`,
      );
    },
    { acl: 'acl:read' },
  );
}
