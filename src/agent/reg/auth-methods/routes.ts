/** /v1/acl/auth-method and /v1/acl/auth-methods (spec 4.1). */
import { checkTypeUnchanged } from '../../../api/reg/rules';
import { validateAuthMethodCreate, validateAuthMethodUpdate } from '../../../api/reg/validate';
import { blockingRead } from '../../http/blocking';
import { notFound, invalidField } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import type { Txn } from '../../store';
import { authOf, type RegContext } from '../context';
import type { StoredAuthMethod, StoredBindingRule, StoredToken } from '../model';
import { applyFilter, bodyObject, namedNamespace, optString, refuse } from '../request';
import { DEFAULT_NAMESPACE, T, nsKey, nsPrefix } from '../tables';
import { requireWritableNamespace } from '../namespaces/lookup';
import { renderAuthMethod } from './render';
import { buildAuthMethod } from './validate';

/** Deletes the method's binding rules and the tokens it minted; returns whether the method existed. */
export function deleteAuthMethod(tx: Txn, ns: string, name: string): boolean {
  if (!tx.delete(T.authMethods, nsKey(ns, name))) return false;
  for (const r of tx.list<StoredBindingRule>(T.bindingRules)) {
    if (r.AuthMethod === name && r.Namespace === ns) tx.delete(T.bindingRules, r.ID);
  }
  for (const t of tx.list<StoredToken>(T.tokens)) {
    if (t.AuthMethod === name && (t.AuthMethodNamespace ?? DEFAULT_NAMESPACE) === ns)
      tx.delete(T.tokens, t.AccessorID);
  }
  return true;
}

export function addAuthMethodRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;
  const ns = (ctx: RequestContext): string => authOf(rc, ctx).namespace(ctx);

  router.add(
    'PUT',
    '/v1/acl/auth-method',
    async (ctx) => {
      const body = await bodyObject(ctx);
      refuse(validateAuthMethodCreate(body));
      const namespace = optString(body, 'Namespace') || ns(ctx);
      authOf(rc, ctx).require('acl:write', namespace);
      const method = buildAuthMethod(body, body['Name'] as string, body['Type'] as string, namespace);
      const { result } = store.write((tx) => {
        requireWritableNamespace(tx, namespace);
        if (tx.get(T.authMethods, nsKey(namespace, method.Name)))
          throw invalidField(
            'Name',
            `an auth method named "${method.Name}" already exists in namespace "${namespace}" (rule: unique)`,
          );
        return tx.put(T.authMethods, nsKey(namespace, method.Name), method);
      });
      return { body: renderAuthMethod(result) };
    },
    { acl: 'acl:write' },
  );

  router.add(
    'GET',
    '/v1/acl/auth-method/:name',
    (ctx) => {
      const key = nsKey(ns(ctx), ctx.params['name']!);
      return blockingRead(ctx, store, [{ table: T.authMethods, key }], () => {
        const m = store.get<StoredAuthMethod>(T.authMethods, key);
        if (!m) throw notFound(`Auth method not found: "${ctx.params['name']!}"`);
        return { value: renderAuthMethod(m), index: store.keyIndex(T.authMethods, key) };
      });
    },
    { acl: 'acl:read' },
  );

  router.add(
    'PUT',
    '/v1/acl/auth-method/:name',
    async (ctx) => {
      const name = ctx.params['name']!;
      const body = await bodyObject(ctx);
      refuse(validateAuthMethodUpdate(name, body));
      const namespace = optString(body, 'Namespace') || ns(ctx);
      authOf(rc, ctx).require('acl:write', namespace);
      const key = nsKey(namespace, name);
      const existing = store.get<StoredAuthMethod>(T.authMethods, key);
      if (!existing) throw notFound(`Auth method not found: "${name}"`);
      refuse([checkTypeUnchanged('Type', body['Type'], existing.Type)]);
      const method = buildAuthMethod(body, name, existing.Type, namespace);
      const { result } = store.write((tx) => {
        requireWritableNamespace(tx, namespace);
        if (!tx.get(T.authMethods, key)) throw notFound(`Auth method not found: "${name}"`);
        return tx.put(T.authMethods, key, method);
      });
      return { body: renderAuthMethod(result) };
    },
    { acl: 'acl:write' },
  );

  router.add(
    'DELETE',
    '/v1/acl/auth-method/:name',
    (ctx) => {
      store.write((tx) => deleteAuthMethod(tx, ns(ctx), ctx.params['name']!));
      // Consul answers true whether or not the method existed: deleting is idempotent.
      return { body: true };
    },
    { acl: 'acl:write' },
  );

  router.add(
    'GET',
    '/v1/acl/auth-methods',
    (ctx) => {
      const auth = authOf(rc, ctx);
      const all = namedNamespace(ctx) === '*';
      const namespace = ns(ctx);
      return blockingRead(ctx, store, [{ table: T.authMethods }], () => {
        const methods = store.list<StoredAuthMethod>(
          T.authMethods,
          all ? undefined : { prefix: nsPrefix(namespace) },
        );
        const visible = all ? methods.filter((m) => auth.can('acl:read', m.Namespace)) : methods;
        const headers: Record<string, string> =
          visible.length < methods.length ? { 'X-Reg-Results-Filtered-By-ACLs': 'true' } : {};
        const value = applyFilter(
          ctx,
          visible.map((m) => renderAuthMethod(m, false)),
        );
        return { value, index: store.tableIndex(T.authMethods), headers };
      });
    },
    { acl: (ctx) => (namedNamespace(ctx) === '*' ? undefined : 'acl:read') },
  );
}
