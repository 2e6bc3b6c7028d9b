/**
 * What one token may do: the merge of its policies, as Nomad's acl.ACL computes it. Capabilities of
 * rules for the same namespace add up and `deny` overrides them; a namespace without an exact rule
 * takes the closest matching glob rule; node/agent/operator levels take the most privileged value,
 * except that deny wins.
 */
import { globMatch } from '../scheduler/constraints';
import { normalizeCapability, type Level, type ParsedPolicy } from './rules';

const RANK: Record<Level, number> = { deny: 0, read: 1, write: 2 };

function mergeLevel(a: Level | undefined, b: Level | undefined): Level | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === 'deny' || b === 'deny') return 'deny';
  return RANK[a] >= RANK[b] ? a : b;
}

export type Scope = 'node' | 'agent' | 'operator' | 'quota';

export class Acl {
  private readonly exact = new Map<string, Set<string>>();
  private readonly globs = new Map<string, Set<string>>();
  private readonly levels: Partial<Record<Scope, Level>> = {};

  private constructor(readonly management: boolean) {}

  static management(): Acl {
    return new Acl(true);
  }

  static fromPolicies(policies: readonly ParsedPolicy[]): Acl {
    const acl = new Acl(false);
    for (const p of policies) {
      for (const ns of p.namespaces) {
        const target = ns.name.includes('*') ? acl.globs : acl.exact;
        let caps = target.get(ns.name);
        if (!caps) target.set(ns.name, (caps = new Set()));
        for (const c of ns.capabilities) caps.add(c);
      }
      for (const scope of ['node', 'agent', 'operator', 'quota'] as const) {
        acl.levels[scope] = mergeLevel(acl.levels[scope], p[scope]);
      }
    }
    for (const caps of [...acl.exact.values(), ...acl.globs.values()]) {
      if (caps.has('deny')) {
        caps.clear();
        caps.add('deny');
      }
    }
    return acl;
  }

  /** Whether the token may use `capability` in namespace `ns`. */
  allowNamespace(ns: string, capability: string): boolean {
    if (this.management) return true;
    const caps = this.capabilitiesIn(ns);
    return !!caps && !caps.has('deny') && caps.has(normalizeCapability(capability));
  }

  /** Whether the token holds any capability (other than deny) in namespace `ns`. */
  anyInNamespace(ns: string): boolean {
    if (this.management) return true;
    const caps = this.capabilitiesIn(ns);
    return !!caps && caps.size > 0 && !caps.has('deny');
  }

  /**
   * `namespace=*` needs a rule that applies to every namespace: a `*` glob granting the capability,
   * not overridden for any namespace that exists.
   */
  allowAllNamespaces(capability: string, existing: readonly string[]): boolean {
    if (this.management) return true;
    const star = this.globs.get('*');
    const cap = normalizeCapability(capability);
    if (!star || star.has('deny') || !star.has(cap)) return false;
    return existing.every((ns) => this.allowNamespace(ns, cap));
  }

  allowLevel(scope: Scope, need: 'read' | 'write'): boolean {
    if (this.management) return true;
    const level = this.levels[scope];
    if (!level || level === 'deny') return false;
    return RANK[level] >= RANK[need];
  }

  /** Exact rule, else the glob whose literal part is the longest (Nomad's closest match). */
  private capabilitiesIn(ns: string): Set<string> | undefined {
    const exact = this.exact.get(ns);
    if (exact) return exact;
    let best: { caps: Set<string>; diff: number } | undefined;
    for (const [pattern, caps] of this.globs) {
      if (!globMatch(pattern, ns)) continue;
      const diff = ns.length - pattern.replace(/\*/g, '').length;
      if (!best || diff < best.diff) best = { caps, diff };
    }
    return best?.caps;
  }
}
