/**
 * POST /v1/acl/login and /v1/acl/logout (Consul's login flow; the spec does not show it). A bearer token
 * is validated by its auth method, the method's NamespaceRules pick the token's namespace (first match
 * wins), its binding rules pick roles, policies and identities, and the minted token remembers the
 * method, so deleting the method deletes the token.
 */
import { compileFilter, FilterError } from '../../filter';
import { badRequest, HttpError, invalidField } from '../../http/errors';
import type { Router } from '../../http/router';
import { newId } from '../../ids';
import type { Txn } from '../../store';
import { renderTemplate } from '../acl/templates';
import { renderToken } from '../acl/tokens';
import { authOf, type RegContext } from '../context';
import type {
  Link,
  NodeIdentity,
  ServiceIdentity,
  StoredAuthMethod,
  StoredBindingRule,
  StoredPolicy,
  StoredRole,
  StoredToken,
} from '../model';
import { bodyObject, optString, optStringMap } from '../request';
import { DEFAULT_NAMESPACE, T, nsKey } from '../tables';
import { requireWritableNamespace } from '../namespaces/lookup';
import { LoginError, validateJwt, type Identity } from './jwt';

function matches(selector: string, identity: Identity): boolean {
  if (selector === '') return true;
  try {
    return compileFilter(selector)(identity.selectable);
  } catch (err) {
    if (err instanceof FilterError) return false; // a selector naming a field this identity lacks does not match
    throw err;
  }
}

function targetNamespace(method: StoredAuthMethod, identity: Identity): string {
  for (const r of method.NamespaceRules) {
    if (!matches(r.Selector, identity)) continue;
    const ns = renderTemplate(r.BindNamespace, identity.vars);
    if (ns) return ns;
  }
  return method.Namespace;
}

interface Bindings {
  policies: Link[];
  roles: Link[];
  services: ServiceIdentity[];
  nodes: NodeIdentity[];
}

function bind(
  tx: Txn,
  rc: RegContext,
  method: StoredAuthMethod,
  identity: Identity,
  namespace: string,
): Bindings {
  const out: Bindings = { policies: [], roles: [], services: [], nodes: [] };
  const visible = (x: { Namespace: string }): boolean =>
    x.Namespace === namespace || x.Namespace === DEFAULT_NAMESPACE;
  for (const rule of tx.list<StoredBindingRule>(T.bindingRules)) {
    if (
      rule.AuthMethod !== method.Name ||
      rule.Namespace !== method.Namespace ||
      !matches(rule.Selector, identity)
    )
      continue;
    const name = renderTemplate(rule.BindName, identity.vars);
    if (!name) continue;
    if (rule.BindType === 'service') out.services.push({ ServiceName: name });
    else if (rule.BindType === 'node') out.nodes.push({ NodeName: name, Datacenter: rc.datacenter });
    else if (rule.BindType === 'role') {
      const r = tx.list<StoredRole>(T.roles).find((x) => x.Name === name && visible(x));
      if (r) out.roles.push({ ID: r.ID });
    } else if (rule.BindType === 'policy') {
      const p = tx.list<StoredPolicy>(T.policies).find((x) => x.Name === name && visible(x));
      if (p) out.policies.push({ ID: p.ID });
    }
  }
  return out;
}

export function addLoginRoutes(router: Router, rc: RegContext): void {
  const { store } = rc;

  router.add('POST', '/v1/acl/login', async (ctx) => {
    const body = await bodyObject(ctx);
    const methodName = optString(body, 'AuthMethod') ?? '';
    const bearer = optString(body, 'BearerToken') ?? '';
    if (methodName === '') throw invalidField('AuthMethod', 'is required (rule: required)');
    if (bearer === '') throw invalidField('BearerToken', 'is required (rule: required)');
    const meta = optStringMap(body, 'Meta') ?? {};
    const methodNs = authOf(rc, ctx).namespace(ctx);
    const method = store.get<StoredAuthMethod>(T.authMethods, nsKey(methodNs, methodName));
    if (!method)
      throw invalidField(
        'AuthMethod',
        `no auth method named "${methodName}" in namespace "${methodNs}" (rule: method-exists)`,
      );
    if (method.Type !== 'jwt')
      throw badRequest(
        `AuthMethod: login with "${method.Type}" auth methods is not supported by the dev agent; use a "jwt" method (rule: login-type)`,
      );
    let identity: Identity;
    try {
      identity = validateJwt(bearer, method.Config, Date.now());
    } catch (err) {
      if (err instanceof LoginError) throw new HttpError(403, `Permission denied: ${err.message}`);
      throw err;
    }
    const namespace = targetNamespace(method, identity);
    const now = Date.now();
    const { result } = store.write((tx) => {
      requireWritableNamespace(tx, namespace, 'BindNamespace');
      const b = bind(tx, rc, method, identity, namespace);
      if (b.policies.length + b.roles.length + b.services.length + b.nodes.length === 0)
        throw new HttpError(
          403,
          'Permission denied: no binding rule of the auth method matches this identity',
        );
      const accessor = newId();
      const token: StoredToken = {
        AccessorID: accessor,
        SecretID: newId(),
        Description: `token created via login: ${JSON.stringify(meta)}`,
        Policies: b.policies,
        Roles: b.roles,
        ServiceIdentities: b.services,
        NodeIdentities: b.nodes,
        Local: method.TokenLocality !== 'global',
        AuthMethod: method.Name,
        AuthMethodNamespace: method.Namespace,
        CreateTimeMs: now,
        Namespace: namespace,
      };
      if (method.MaxTokenTTLMs > 0) {
        token.ExpirationTimeMs = now + method.MaxTokenTTLMs;
      }
      return tx.put(T.tokens, accessor, token);
    });
    return { body: renderToken(store, result) };
  });

  router.add('POST', '/v1/acl/logout', (ctx) => {
    const token = authOf(rc, ctx).token ?? rc.gate.resolveAny(ctx);
    if (!token || !token.AuthMethod)
      throw new HttpError(403, 'Permission denied: only tokens created by an auth method can log out');
    store.write((tx) => tx.delete(T.tokens, token.AccessorID));
    return { body: true };
  });
}
