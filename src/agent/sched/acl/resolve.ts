/**
 * From a request's secret to what it may do. Compiled ACLs are cached per token and dropped whenever
 * a token or policy changes, so a policy edit takes effect on the very next request.
 */
import { forbidden } from '../../http/errors';
import type { Commit, Store } from '../../store';
import { Acl } from './acl';
import type { AclPolicyRecord, AclTokenRecord } from './model';
import { parsePolicyRules, type ParsedPolicy } from './rules';
import { ACL_T } from './tables';

/** Nomad applies the policy named `anonymous` to requests that carry no token. */
export const ANONYMOUS_POLICY = 'anonymous';

export interface Identity {
  /** Undefined for the anonymous identity. */
  token: AclTokenRecord | undefined;
  acl: Acl;
}

export class AclResolver {
  private readonly bySecret = new Map<string, string>();
  private readonly compiled = new Map<string, Acl>();
  private readonly parsed = new Map<string, ParsedPolicy>();
  private anonymous: Acl | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly store: Store) {
    for (const t of store.list<AclTokenRecord>(ACL_T.tokens)) this.bySecret.set(t.SecretID, t.AccessorID);
    this.unsubscribe = store.onCommit((c) => this.onCommit(c));
  }

  close(): void {
    this.unsubscribe();
  }

  tokenBySecret(secret: string): AclTokenRecord | undefined {
    const accessor = this.bySecret.get(secret);
    return accessor ? this.store.get<AclTokenRecord>(ACL_T.tokens, accessor) : undefined;
  }

  /** Throws 403 for an unknown or expired token, as Nomad does. */
  resolve(secret: string | undefined): Identity {
    if (secret === undefined || secret === '') return { token: undefined, acl: this.anonymousAcl() };
    const token = this.tokenBySecret(secret);
    if (!token) throw forbidden('ACL token not found');
    if (isExpired(token)) throw forbidden('ACL token expired');
    return { token, acl: this.aclFor(token) };
  }

  aclFor(token: AclTokenRecord): Acl {
    if (token.Type === 'management') return Acl.management();
    let acl = this.compiled.get(token.AccessorID);
    if (!acl) {
      acl = Acl.fromPolicies(this.policiesOf(token.Policies ?? []));
      this.compiled.set(token.AccessorID, acl);
    }
    return acl;
  }

  private anonymousAcl(): Acl {
    return (this.anonymous ??= Acl.fromPolicies(this.policiesOf([ANONYMOUS_POLICY])));
  }

  /** Policies that no longer exist or no longer parse grant nothing. */
  private policiesOf(names: readonly string[]): ParsedPolicy[] {
    const out: ParsedPolicy[] = [];
    for (const name of names) {
      let p = this.parsed.get(name);
      if (!p) {
        const rec = this.store.get<AclPolicyRecord>(ACL_T.policies, name);
        if (!rec) continue;
        try {
          p = parsePolicyRules(rec.Rules);
        } catch {
          continue;
        }
        this.parsed.set(name, p);
      }
      out.push(p);
    }
    return out;
  }

  private onCommit(c: Commit): void {
    let touched = false;
    for (const ch of c.changes) {
      if (ch.table === ACL_T.tokens) {
        touched = true;
        const t = ch.value as AclTokenRecord;
        if (ch.op === 'put') {
          // A token's secret never changes, but a re-created accessor may carry a new one.
          for (const [s, a] of this.bySecret)
            if (a === t.AccessorID && s !== t.SecretID) this.bySecret.delete(s);
          this.bySecret.set(t.SecretID, t.AccessorID);
        } else this.bySecret.delete(t.SecretID);
      } else if (ch.table === ACL_T.policies) {
        touched = true;
        this.parsed.delete(ch.key);
      }
    }
    if (touched) {
      this.compiled.clear();
      this.anonymous = undefined;
    }
  }
}

export function isExpired(t: AclTokenRecord, nowMs = Date.now()): boolean {
  return t.ExpirationTime !== null && Date.parse(t.ExpirationTime) <= nowMs;
}
