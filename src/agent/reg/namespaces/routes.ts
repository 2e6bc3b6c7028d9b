/** /v1/namespace and /v1/namespaces (spec 4.2). */
import { NamespaceCreateRequestSchema, NamespaceUpdateRequestSchema } from '../../../api/reg/schemas';
import { validateNamespaceCreate, validateNamespaceUpdate } from '../../../api/reg/validate';
import { blockingRead } from '../../http/blocking';
import { badRequest, invalidField, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { checkDnsLabel } from '../../../api/reg/rules';
import type { Txn } from '../../store';
import { resolveLinks } from '../acl/links';
import { authOf, type RegContext } from '../context';
import type { StoredNamespace } from '../model';
import {
  applyFilter,
  bodyObject,
  checkTypes,
  isObject,
  optString,
  optStringMap,
  refuse,
  nowIso,
  type Body,
} from '../request';
import { DEFAULT_NAMESPACE, T } from '../tables';
import { NAMESPACE_PURGE_DELAY_NS, purgeNamespace } from './deletion';
import { renderNamespace } from './render';

function acls(tx: Txn, body: Body, ns: string): StoredNamespace['ACLs'] {
  const raw = body['ACLs'];
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw))
    throw invalidField('ACLs', 'must be an object with PolicyDefaults and RoleDefaults (rule: type)');
  return {
    PolicyDefaults: resolveLinks(tx, 'policy', raw['PolicyDefaults'], 'ACLs.PolicyDefaults', ns),
    RoleDefaults: resolveLinks(tx, 'role', raw['RoleDefaults'], 'ACLs.RoleDefaults', ns),
  };
}

function fields(tx: Txn, body: Body, name: string): StoredNamespace {
  const ns: StoredNamespace = { Name: name, Description: optString(body, 'Description') ?? '' };
  const a = acls(tx, body, name);
  if (a) ns.ACLs = a;
  const meta = optStringMap(body, 'Meta');
  if (meta) ns.Meta = meta;
  return ns;
}

export function scheduleNamespacePurge(rc: RegContext, name: string): void {
  rc.later(NAMESPACE_PURGE_DELAY_NS, () => {
    if (purgeNamespace(rc.store, name)) rc.log(`registry: namespace "${name}" and its data deleted`);
  });
}

/** The namespace a path names; a name no namespace could have is a 400, before it reaches an ACL check. */
function namespaceName(ctx: RequestContext): string {
  refuse([checkDnsLabel('name', ctx.params['name'])]);
  return ctx.params['name']!;
}

export function addNamespaceRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;

  router.add(
    'PUT',
    '/v1/namespace',
    async (ctx) => {
      const body = await bodyObject(ctx);
      refuse(validateNamespaceCreate(body));
      checkTypes(NamespaceCreateRequestSchema, body);
      const name = body['Name'] as string;
      const { result } = store.write((tx) => {
        const existing = tx.get<StoredNamespace>(T.namespaces, name);
        if (existing?.DeletedAt)
          throw invalidField(
            'Name',
            `namespace "${name}" is being deleted; try again when it is gone (rule: namespace-not-deleting)`,
          );
        if (existing) throw invalidField('Name', `a namespace named "${name}" already exists (rule: unique)`);
        return tx.put(T.namespaces, name, fields(tx, body, name));
      });
      return { body: renderNamespace(store, result) };
    },
    { acl: 'operator:write' },
  );

  router.add(
    'GET',
    '/v1/namespace/:name',
    (ctx) => {
      const name = namespaceName(ctx);
      return blockingRead(ctx, store, [{ table: T.namespaces, key: name }], () => {
        const ns = store.get<StoredNamespace>(T.namespaces, name);
        if (!ns) throw notFound(`Namespace not found: "${name}"`);
        return { value: renderNamespace(store, ns), index: store.keyIndex(T.namespaces, ns.Name) };
      });
    },
    { acl: (ctx) => ['operator:read', `namespace:${namespaceName(ctx)}:read`] },
  );

  router.add(
    'PUT',
    '/v1/namespace/:name',
    async (ctx) => {
      const name = ctx.params['name']!;
      const body = await bodyObject(ctx);
      refuse(validateNamespaceUpdate(name, body));
      checkTypes(NamespaceUpdateRequestSchema, body);
      const { result } = store.write((tx) => {
        const existing = tx.get<StoredNamespace>(T.namespaces, name);
        if (!existing) throw notFound(`Namespace not found: "${name}"`);
        if (existing.DeletedAt)
          throw invalidField('name', `namespace "${name}" is being deleted (rule: namespace-not-deleting)`);
        return tx.put(T.namespaces, name, fields(tx, body, name));
      });
      return { body: renderNamespace(store, result) };
    },
    { acl: 'operator:write' },
  );

  router.add(
    'DELETE',
    '/v1/namespace/:name',
    (ctx) => {
      const name = ctx.params['name']!;
      if (name === DEFAULT_NAMESPACE)
        throw badRequest('name: the "default" namespace is built in and cannot be deleted (rule: builtin)');
      const { result: marked } = store.write((tx) => {
        const existing = tx.get<StoredNamespace>(T.namespaces, name);
        if (!existing) throw notFound(`Namespace not found: "${name}"`);
        if (existing.DeletedAt) return false;
        tx.put(T.namespaces, name, { ...existing, DeletedAt: nowIso() });
        return true;
      });
      if (marked) scheduleNamespacePurge(rc, name);
      return { rawBody: '', contentType: 'application/json' };
    },
    { acl: 'operator:write' },
  );

  router.add('GET', '/v1/namespaces', (ctx) =>
    blockingRead(ctx, store, [{ table: T.namespaces }], () => {
      const auth = authOf(rc, ctx);
      const all = store.list<StoredNamespace>(T.namespaces);
      const visible = all.filter(
        (ns) =>
          auth.can('operator:read', DEFAULT_NAMESPACE) || auth.can(`namespace:${ns.Name}:read`, ns.Name),
      );
      const headers: Record<string, string> =
        visible.length < all.length ? { 'X-Reg-Results-Filtered-By-ACLs': 'true' } : {};
      const value = applyFilter(
        ctx,
        visible.map((ns) => renderNamespace(store, ns)),
      );
      return { value, index: store.tableIndex(T.namespaces), headers };
    }),
  );
}
