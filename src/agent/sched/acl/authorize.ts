/**
 * The scheduler's authorizer: `createServiceServer({ authorize })` calls it before every handler.
 *
 * A route's `acl` meta names what it needs: `namespace:<capability>` (in the request's namespace),
 * `node:read`, `agent:write`, `operator:read`, `management`, or `none`. `a|b` accepts either; a list
 * needs every entry. Some needs depend on the request (section 4.2): those are refined here from the
 * method and path, so the route table keeps one static capability per route.
 *
 * The check happens before any lookup, so a 403 never says whether an object exists. Objects
 * addressed by bare ID (allocations, deployments, evaluations) live in a namespace the request may
 * not name; when the token may not act there, the answer is the handler's own "not found", exactly
 * what a missing object gets.
 */
import { forbidden, notFound } from '../../http/errors';
import type { RequestContext, RouteMeta } from '../../http/router';
import type { SchedContext } from '../context';
import type { NamespaceRecord } from '../model';
import { T } from '../tables';
import { Acl } from './acl';
import { POLICY_OVERRIDE } from './rules';
import type { AclResolver, Identity } from './resolve';

/** Groups of alternatives: every group must have one allowed entry. */
export type Requirement = string[][];

const MANAGEMENT: Identity = { token: undefined, acl: Acl.management() };

interface Refinement {
  method: RegExp;
  path: RegExp;
  refine(req: Requirement, ctx: RequestContext): Promise<Requirement> | Requirement;
  /** Namespace the capability applies in, when the body names it (job register and plan). */
  namespace?(ctx: RequestContext): Promise<string | undefined>;
}

const WRITE = /^(PUT|POST)$/;

async function bodyField(
  ctx: RequestContext,
  pick: (b: Record<string, unknown>) => unknown,
): Promise<unknown> {
  let body: unknown;
  try {
    body = await ctx.json();
  } catch {
    return undefined; // the handler answers the malformed body with its own 400
  }
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? pick(body as Record<string, unknown>)
    : undefined;
}

function jobNamespace(ctx: RequestContext): Promise<string | undefined> {
  return bodyField(ctx, (b) => {
    const job = b['Job'];
    const ns = job && typeof job === 'object' ? (job as Record<string, unknown>)['Namespace'] : undefined;
    return typeof ns === 'string' && ns !== '' ? ns : undefined;
  }) as Promise<string | undefined>;
}

async function withPolicyOverride(req: Requirement, ctx: RequestContext): Promise<Requirement> {
  const override = await bodyField(ctx, (b) => b['PolicyOverride']);
  return override === true ? [...req, [`namespace:${POLICY_OVERRIDE}`]] : req;
}

const REFINEMENTS: Refinement[] = [
  {
    method: WRITE,
    path: /^\/v1\/jobs\/parse\/?$/,
    refine: (req) => [...req, ['namespace:parse-job'], ['namespace:submit-job']],
  },
  {
    method: WRITE,
    path: /^\/v1\/job\/[^/]+\/periodic\/force\/?$/,
    refine: () => [['namespace:dispatch-job', 'namespace:submit-job']],
  },
  {
    method: WRITE,
    path: /^\/v1\/(jobs|job\/[^/]+|job\/[^/]+\/plan)\/?$/,
    refine: withPolicyOverride,
    namespace: jobNamespace,
  },
];

/** Objects addressed by bare ID, with the handler's answer for a missing one. */
const BY_ID: { path: RegExp; table: string; missing: string }[] = [
  {
    path: /^\/v1\/(?:client\/)?allocation\/([^/]+)(?:\/[^/]+)?\/?$/,
    table: T.allocs,
    missing: 'alloc not found',
  },
  {
    path: /^\/v1\/deployment\/(?:(?:allocations|promote|fail|pause|unblock|allocation-health)\/)?([^/]+)\/?$/,
    table: T.deployments,
    missing: 'deployment not found',
  },
  { path: /^\/v1\/evaluation\/([^/]+)(?:\/allocations)?\/?$/, table: T.evals, missing: 'eval not found' },
];

export function requirementOf(meta: RouteMeta, ctx: RequestContext): Requirement {
  const raw = typeof meta.acl === 'function' ? meta.acl(ctx) : meta.acl;
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((entry) => entry.split('|').map((s) => s.trim()));
}

export class SchedAuthorizer {
  private readonly identities = new WeakMap<RequestContext, Identity>();

  constructor(
    private readonly sc: SchedContext,
    private readonly resolver: AclResolver,
    readonly enabled: boolean,
  ) {}

  /** The `authorize` hook of the scheduler's HTTP server. */
  readonly authorize = async (ctx: RequestContext, meta: RouteMeta): Promise<void> => {
    if (!this.enabled) return;
    let req = requirementOf(meta, ctx);
    let ns = ctx.query.get('namespace') || 'default';
    for (const r of REFINEMENTS) {
      if (!r.method.test(ctx.method) || !r.path.test(ctx.path)) continue;
      req = await r.refine(req, ctx);
      ns = (await r.namespace?.(ctx)) ?? ns;
    }
    if (req.length === 0 && meta.acl === undefined) {
      // Unmarked routes are open (status, regions, health) except reading one namespace, which
      // Nomad allows to any token with a capability there.
      const m = /^\/v1\/namespace\/([^/]+)\/?$/.exec(ctx.path);
      if (ctx.method === 'GET' && m) {
        const id = this.identify(ctx);
        if (!id.acl.anyInNamespace(decodeURIComponent(m[1]!))) throw forbidden();
      }
      return;
    }
    const id = this.identify(ctx);
    if (!this.satisfies(id.acl, req, ns)) throw forbidden();
    this.checkObjectNamespace(ctx, id.acl, req, ns);
  };

  /** The caller's identity (cached per request); management when ACLs are off. Throws 403 for a bad token. */
  identify(ctx: RequestContext): Identity {
    if (!this.enabled) return MANAGEMENT;
    let id = this.identities.get(ctx);
    if (!id) {
      id = this.resolver.resolve(ctx.token);
      this.identities.set(ctx, id);
    }
    return id;
  }

  /** Resolves a token given outside the headers (the exec handshake frame). */
  identifySecret(secret: string | undefined): Identity {
    return this.enabled ? this.resolver.resolve(secret) : MANAGEMENT;
  }

  satisfies(acl: Acl, req: Requirement, ns: string): boolean {
    return req.every((group) => group.some((cap) => this.allows(acl, cap, ns)));
  }

  allows(acl: Acl, cap: string, ns: string): boolean {
    if (acl.management) return true;
    if (cap === 'none') return true;
    if (cap === 'management') return false;
    const colon = cap.indexOf(':');
    const scope = cap.slice(0, colon);
    const what = cap.slice(colon + 1);
    if (scope === 'namespace') {
      return ns === '*' ? acl.allowAllNamespaces(what, this.namespaces()) : acl.allowNamespace(ns, what);
    }
    if (
      (scope === 'node' || scope === 'agent' || scope === 'operator' || scope === 'quota') &&
      (what === 'read' || what === 'write')
    ) {
      return acl.allowLevel(scope, what);
    }
    return false;
  }

  namespaces(): string[] {
    return this.sc.store.list<NamespaceRecord>(T.namespaces).map((n) => n.Name);
  }

  private checkObjectNamespace(ctx: RequestContext, acl: Acl, req: Requirement, ns: string): void {
    if (acl.management) return;
    for (const b of BY_ID) {
      const m = b.path.exec(ctx.path);
      if (!m) continue;
      const key = this.sc.state.keyOf(decodeURIComponent(m[1]!));
      const rec = key ? this.sc.store.get<{ Namespace: string }>(b.table, key) : undefined;
      if (rec && rec.Namespace !== ns && !this.satisfies(acl, req, rec.Namespace)) throw notFound(b.missing);
      return;
    }
  }
}
