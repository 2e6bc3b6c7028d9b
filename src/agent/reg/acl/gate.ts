/**
 * Who is asking and what they may do. The token comes from (spec section 5) the body `Token` on peering
 * writes, then the `token` query parameter, then the X-Reg-Token header, then `Authorization: Bearer`.
 * With ACLs enabled a request without a token acts as the anonymous token; an unknown or expired token
 * is refused with 403 "ACL not found", as Consul does.
 */
import { HttpError } from '../../http/errors';
import { headerToken } from '../../http/token';
import type { RequestContext, RouteMeta } from '../../http/router';
import type { Store } from '../../store';
import type { StoredToken } from '../model';
import { isObject, requestNamespace } from '../request';
import { ANONYMOUS_TOKEN_ID, ANONYMOUS_TOKEN_SECRET } from './builtins';
import { Authorizer, formatCapability, parseCapability, type Capability } from './authorizer';
import { authorizerFor, findTokenBySecret } from './resolve';

/** RouteMeta.acl of routes that take a body `Token` and need no capability (peering). */
export const BODY_TOKEN = 'token:body';
/** RouteMeta.acl of server-to-server routes authenticated by their own secrets. */
export const INTERNAL = 'none:internal';

export class RequestAuth {
  constructor(
    readonly authorizer: Authorizer,
    readonly token: StoredToken | undefined,
  ) {}

  /** The token's namespace when ACLs decide things; requests without `ns` inherit it. */
  get tokenNamespace(): string | undefined {
    return this.token?.Namespace;
  }

  namespace(ctx: RequestContext): string {
    return requestNamespace(ctx, this.tokenNamespace);
  }

  can(cap: Capability | string, ns: string): boolean {
    return this.authorizer.allowed(typeof cap === 'string' ? parseCapability(cap) : cap, ns);
  }

  /** Throws 403 unless one of `caps` is allowed in namespace `ns`. */
  require(caps: Capability | string | readonly (Capability | string)[], ns: string): void {
    const list = (Array.isArray(caps) ? caps : [caps]) as (Capability | string)[];
    if (list.some((c) => this.can(c, ns))) return;
    const names = list.map((c) => (typeof c === 'string' ? c : formatCapability(c))).join("' or '");
    const who =
      this.token === undefined || this.token.AccessorID === ANONYMOUS_TOKEN_ID
        ? 'the anonymous token (used when a request carries no token)'
        : `token with AccessorID '${this.token.AccessorID}'`;
    throw new HttpError(403, `Permission denied: ${who} lacks permission '${names}'`);
  }
}

const headerTokenOf = (ctx: RequestContext): string | undefined => headerToken(ctx.headers, 'x-reg-token');

export class AclGate {
  private readonly resolved = new WeakMap<RequestContext, RequestAuth>();

  constructor(
    private readonly store: Store,
    private readonly enabled: boolean,
  ) {}

  /** The caller of a request (resolved once per request). */
  auth(ctx: RequestContext): RequestAuth {
    let a = this.resolved.get(ctx);
    if (!a) {
      a = this.resolve(ctx.query.get('token') || headerTokenOf(ctx));
      this.resolved.set(ctx, a);
    }
    return a;
  }

  /** The stored token a request names, whether or not ACLs are enforced (token/self, logout). */
  resolveAny(ctx: RequestContext): StoredToken | undefined {
    const secret = ctx.query.get('token') || headerTokenOf(ctx);
    return secret ? findTokenBySecret(this.store, secret, Date.now()) : undefined;
  }

  resolve(secret: string | undefined): RequestAuth {
    if (!this.enabled) return new RequestAuth(Authorizer.allowAll(), undefined);
    const token = findTokenBySecret(this.store, secret ?? ANONYMOUS_TOKEN_SECRET, Date.now());
    if (!token) throw new HttpError(403, 'ACL not found');
    return new RequestAuth(authorizerFor(this.store, token, true), token);
  }

  /** The server's authorize hook: resolves the token and checks the route's capability. */
  readonly authorize = async (ctx: RequestContext, meta: RouteMeta): Promise<void> => {
    if (meta.acl === INTERNAL) return;
    if (meta.acl === BODY_TOKEN) {
      const body = await ctx.json().catch(() => undefined);
      const bodyToken =
        isObject(body) && typeof body['Token'] === 'string' && body['Token'] !== ''
          ? body['Token']
          : undefined;
      const a = this.resolve(bodyToken ?? (ctx.query.get('token') || headerTokenOf(ctx)));
      this.resolved.set(ctx, a);
      return;
    }
    const a = this.auth(ctx);
    const caps = typeof meta.acl === 'function' ? meta.acl(ctx) : meta.acl;
    if (caps === undefined || (Array.isArray(caps) && caps.length === 0)) return;
    const ns = a.namespace(ctx);
    a.require(caps, ns === '*' ? (a.tokenNamespace ?? 'default') : ns);
  };
}
