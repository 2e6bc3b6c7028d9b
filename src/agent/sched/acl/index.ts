/**
 * The scheduler's ACL system (spec section 5): tokens and policies in the store, the authorizer the
 * HTTP server calls before each handler, and Nomad's `/v1/acl/...` endpoints.
 */
import type { Router } from '../../http/router';
import type { SchedContext } from '../context';
import { SchedAuthorizer } from './authorize';
import { AclResolver } from './resolve';
import { aclRoutes } from './routes';
import { bootstrapToken, buildToken } from './tokens';
import { ACL_T, BOOTSTRAP_KEY } from './tables';

export { SchedAuthorizer } from './authorize';
export type { Identity } from './resolve';
export { ACL_T } from './tables';
export type { AclPolicyRecord, AclTokenRecord } from './model';

export interface SchedAclOptions {
  enabled: boolean;
  /** Secret of a management token that exists from the start (`--bootstrap-token`); it counts as the bootstrap. */
  bootstrapToken?: string;
}

export interface SchedAcl {
  authorizer: SchedAuthorizer;
  resolver: AclResolver;
  start(): void;
  stop(): void;
}

export function createSchedAcl(sc: SchedContext, router: Router, opts: SchedAclOptions): SchedAcl {
  const resolver = new AclResolver(sc.store);
  const authorizer = new SchedAuthorizer(sc, resolver, opts.enabled);
  aclRoutes(router, sc.store, authorizer);
  return {
    authorizer,
    resolver,
    start() {
      const secret = opts.bootstrapToken;
      if (!opts.enabled || !secret) return;
      const existing = resolver.tokenBySecret(secret);
      if (existing?.Type === 'management') return;
      if (existing) throw new Error('bootstrap token: the secret belongs to a client token');
      sc.store.write((tx) => {
        if (tx.get(ACL_T.bootstrap, BOOTSTRAP_KEY)) {
          // Bootstrapped before with another secret (a restarted agent): add this one beside it.
          const t = buildToken(
            { Name: 'Bootstrap Token', Type: 'management', Global: true, SecretID: secret },
            undefined,
            Date.now(),
          );
          tx.put(ACL_T.tokens, t.AccessorID, t);
        } else bootstrapToken(tx, secret, Date.now());
      });
    },
    stop() {
      resolver.close();
    },
  };
}
