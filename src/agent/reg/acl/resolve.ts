/** From a secret to an Authorizer: the token, its policies, roles and identities, and namespace defaults. */
import type { Store } from '../../store';
import type { Link, ServiceIdentity, StoredNamespace, StoredPolicy, StoredRole, StoredToken } from '../model';
import { DEFAULT_NAMESPACE, T } from '../tables';
import { Authorizer, RuleAuthorizer, type ScopedPolicy } from './authorizer';
import { GLOBAL_MANAGEMENT_POLICY_ID } from './builtins';
import { parsePolicyRules, type PolicyRules } from './policy-rules';

type Reader = Pick<Store, 'get' | 'list'>;

export function isExpired(t: StoredToken, nowMs: number): boolean {
  return t.ExpirationTimeMs !== undefined && t.ExpirationTimeMs <= nowMs;
}

export function findTokenBySecret(store: Reader, secret: string, nowMs: number): StoredToken | undefined {
  for (const t of store.list<StoredToken>(T.tokens)) {
    if (t.SecretID === secret) return isExpired(t, nowMs) ? undefined : t;
  }
  return undefined;
}

/** Parsed rules per policy version; policies change rarely and tokens are resolved on every request. */
const parsed = new WeakMap<StoredPolicy, PolicyRules>();

function rulesOf(p: StoredPolicy): PolicyRules | undefined {
  let r = parsed.get(p);
  if (!r) {
    try {
      r = parsePolicyRules(p.Rules);
    } catch {
      return undefined; // rules are checked on write; an unreadable stored policy grants nothing
    }
    parsed.set(p, r);
  }
  return r;
}

function identityRules(ids: readonly ServiceIdentity[]): PolicyRules {
  const r: PolicyRules = {
    service: new Map(),
    servicePrefix: new Map(),
    namespaces: new Map(),
    namespacePrefixes: new Map(),
  };
  for (const id of ids) {
    r.service.set(id.ServiceName, 'write');
    r.service.set(`${id.ServiceName}-sidecar-proxy`, 'write');
  }
  if (ids.length > 0) r.servicePrefix.set('', 'read');
  return r;
}

interface Collected {
  management: boolean;
  policies: ScopedPolicy[];
}

function collect(
  store: Reader,
  scope: string,
  policyLinks: readonly Link[],
  roleLinks: readonly Link[],
  sids: readonly ServiceIdentity[],
): Collected {
  const global = scope === DEFAULT_NAMESPACE;
  const out: Collected = { management: false, policies: [] };
  const addPolicy = (l: Link): void => {
    if (l.ID === GLOBAL_MANAGEMENT_POLICY_ID) out.management = true;
    const p = store.get<StoredPolicy>(T.policies, l.ID);
    const rules = p && rulesOf(p);
    if (rules) out.policies.push({ rules, scope, global });
  };
  policyLinks.forEach(addPolicy);
  const identities = [...sids];
  for (const rl of roleLinks) {
    const role = store.get<StoredRole>(T.roles, rl.ID);
    if (!role) continue;
    role.Policies.forEach(addPolicy);
    identities.push(...role.ServiceIdentities);
  }
  if (identities.length > 0) out.policies.push({ rules: identityRules(identities), scope, global });
  return out;
}

export function authorizerFor(store: Reader, token: StoredToken, enabled: boolean): Authorizer {
  const direct = collect(store, token.Namespace, token.Policies, token.Roles, token.ServiceIdentities);
  const ns = store.get<StoredNamespace>(T.namespaces, token.Namespace);
  const defaults = ns?.ACLs
    ? collect(store, token.Namespace, ns.ACLs.PolicyDefaults, ns.ACLs.RoleDefaults, [])
    : { management: false, policies: [] };
  return new Authorizer({
    enabled,
    management: direct.management,
    direct: new RuleAuthorizer(direct.policies),
    defaults: new RuleAuthorizer(defaults.policies),
  });
}
