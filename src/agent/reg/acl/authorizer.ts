/**
 * Decides capabilities from ACL rules, as Consul's chained authorizer does: the token's own policies,
 * roles and identities first; the token namespace's default policies and roles only where those said
 * nothing about the resource; then the agent's default policy (deny).
 */
import type { Level, NamespaceBlock, PolicyRules, ScopedRules } from './policy-rules';

export type Access = 'read' | 'write';
export type Decision = 'allow' | 'deny' | undefined;

export type Capability =
  | { resource: 'acl' | 'operator' | 'peering' | 'mesh'; access: Access }
  | { resource: 'service' | 'namespace'; name: string; access: Access };

/**
 * `acl:read`, `operator:write`, `service:web:read`, `namespace:team:read`. Routes check names before
 * they get here; a name with a `:` in it still means that one name, never another capability.
 */
export function parseCapability(text: string): Capability {
  const first = text.split(':', 1)[0]!;
  const last = text.lastIndexOf(':');
  const middle = text.slice(first.length + 1, last);
  const parts = last > first.length ? [first, middle, text.slice(last + 1)] : text.split(':');
  const access = parts[parts.length - 1];
  if (access !== 'read' && access !== 'write') throw new Error(`bad capability ${text}`);
  const resource = parts[0];
  if (
    parts.length === 2 &&
    (resource === 'acl' || resource === 'operator' || resource === 'peering' || resource === 'mesh')
  )
    return { resource, access };
  if (parts.length === 3 && (resource === 'service' || resource === 'namespace'))
    return { resource, name: parts[1]!, access };
  throw new Error(`bad capability ${text}`);
}

export function formatCapability(c: Capability): string {
  return 'name' in c ? `${c.resource}:${c.name}:${c.access}` : `${c.resource}:${c.access}`;
}

/** One policy as it applies to a token: its top-level rules cover `scope` (the token's namespace). */
export interface ScopedPolicy {
  rules: PolicyRules;
  scope: string;
  /** Policies of the default namespace: their acl/operator rules and namespace blocks count everywhere. */
  global: boolean;
}

const STRENGTH: Record<Level, number> = { list: 0, read: 1, write: 2, deny: 3 };

function strongest(levels: Level[]): Level | undefined {
  let best: Level | undefined;
  for (const l of levels) if (best === undefined || STRENGTH[l] > STRENGTH[best]) best = l;
  return best;
}

function toDecision(level: Level | undefined, access: Access): Decision {
  if (level === undefined) return undefined;
  if (level === 'deny') return 'deny';
  if (level === 'write') return 'allow';
  if (level === 'read') return access === 'read' ? 'allow' : 'deny';
  return 'deny';
}

/** Exact names beat prefixes; among prefixes the longest wins; equal matches merge, deny first. */
function lookup(exact: Level[], prefixed: { prefix: string; level: Level }[]): Level | undefined {
  if (exact.length > 0) return strongest(exact);
  let longest = -1;
  for (const p of prefixed) longest = Math.max(longest, p.prefix.length);
  return strongest(prefixed.filter((p) => p.prefix.length === longest).map((p) => p.level));
}

export class RuleAuthorizer {
  constructor(private readonly policies: readonly ScopedPolicy[]) {}

  get empty(): boolean {
    return this.policies.length === 0;
  }

  decide(cap: Capability, ns: string): Decision {
    switch (cap.resource) {
      case 'operator':
        return toDecision(strongest(this.globals((r) => r.operator)), cap.access);
      case 'peering':
      case 'mesh': {
        const own = strongest(this.globals((r) => r[cap.resource]));
        return toDecision(own ?? strongest(this.globals((r) => r.operator)), cap.access);
      }
      case 'acl':
        return toDecision(strongest(this.scopes(ns).flatMap((s) => (s.acl ? [s.acl] : []))), cap.access);
      case 'service': {
        const exact: Level[] = [];
        const prefixed: { prefix: string; level: Level }[] = [];
        for (const s of this.scopes(ns)) {
          const e = s.service.get(cap.name);
          if (e) exact.push(e);
          for (const [prefix, level] of s.servicePrefix)
            if (cap.name.startsWith(prefix)) prefixed.push({ prefix, level });
        }
        return toDecision(lookup(exact, prefixed), cap.access);
      }
      case 'namespace': {
        const exact: Level[] = [];
        const prefixed: { prefix: string; level: Level }[] = [];
        for (const p of this.policies) {
          if (!p.global) continue;
          const e = p.rules.namespaces.get(cap.name)?.policy;
          if (e) exact.push(e);
          for (const [prefix, b] of p.rules.namespacePrefixes)
            if (b.policy && cap.name.startsWith(prefix)) prefixed.push({ prefix, level: b.policy });
        }
        return toDecision(lookup(exact, prefixed), cap.access);
      }
    }
  }

  private globals(pick: (r: PolicyRules) => Level | undefined): Level[] {
    const out: Level[] = [];
    for (const p of this.policies) {
      const l = p.global ? pick(p.rules) : undefined;
      if (l) out.push(l);
    }
    return out;
  }

  /** Every rule scope that speaks for namespace `ns`. */
  private scopes(ns: string): ScopedRules[] {
    const out: ScopedRules[] = [];
    for (const p of this.policies) {
      if (p.scope === ns) out.push(p.rules);
      else if (p.global && p.rules.acl)
        out.push({ acl: p.rules.acl, service: new Map(), servicePrefix: new Map() });
      if (!p.global) continue;
      const exact: NamespaceBlock | undefined = p.rules.namespaces.get(ns);
      if (exact) out.push(exact);
      for (const [prefix, b] of p.rules.namespacePrefixes) if (ns.startsWith(prefix)) out.push(b);
    }
    return out;
  }
}

export interface AuthzOptions {
  enabled: boolean;
  management: boolean;
  direct: RuleAuthorizer;
  defaults: RuleAuthorizer;
}

export class Authorizer {
  constructor(private readonly o: AuthzOptions) {}

  static allowAll(): Authorizer {
    const none = new RuleAuthorizer([]);
    return new Authorizer({ enabled: false, management: true, direct: none, defaults: none });
  }

  get isManagement(): boolean {
    return !this.o.enabled || this.o.management;
  }

  allowed(cap: Capability, ns: string): boolean {
    if (this.isManagement) return true;
    const d = this.o.direct.decide(cap, ns) ?? this.o.defaults.decide(cap, ns);
    return d === 'allow';
  }
}
