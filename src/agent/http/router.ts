/**
 * A small path router. Path parameters are whole segments (`:id`) or the rest of the path (`*rest`),
 * URL-decoded, because job IDs and service names may hold characters that need escaping.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The request body parsed as JSON (undefined when empty). Throws a 400 HttpError when malformed. */
  json(): Promise<unknown>;
  raw(): Promise<Buffer>;
  /** Aborted when the client goes away, so blocking queries stop waiting. */
  signal: AbortSignal;
  /** Token from the service's token header, `Authorization: Bearer`, or (registry) the `token` parameter. */
  token: string | undefined;
}

export interface Reply {
  status?: number;
  body?: unknown;
  /** Raw bytes or text instead of JSON. */
  rawBody?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Becomes the service's Index header, and marks the reply as a read (LastContact, KnownLeader). */
  index?: number;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

/** Anything the server must do with a live response (event stream, WebSocket upgrade) instead of a Reply. */
export interface RouteMeta {
  /** ACL capability, checked by the service's authorizer before the handler runs. */
  acl?: string | ((ctx: RequestContext) => string | string[] | undefined);
}

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
  meta: RouteMeta;
  /** Literal segments: more of them wins, so /v1/job/:id/plan beats /v1/job/*rest. */
  score: number;
  /** Index of the `*rest` part, or -1: fixes the segment counts the route can match. */
  rest: number;
}

export interface Match {
  handler: Handler;
  params: Record<string, string>;
  meta: RouteMeta;
}

export class Router {
  private readonly routes: Route[] = [];
  /**
   * The routes a path of n segments can match, in registration order, made on first use: a request
   * is checked against those instead of every route. Counts beyond the longest route share one
   * list (only `*rest` routes take them), so what is kept stays bounded whatever paths arrive.
   */
  private readonly bySegments = new Map<number, Route[]>();
  private longest = 0;

  add(methods: string | string[], pattern: string, handler: Handler, meta: RouteMeta = {}): this {
    const parts = pattern.split('/').filter(Boolean);
    const score = parts.filter((p) => !p.startsWith(':') && !p.startsWith('*')).length;
    const rest = parts.findIndex((p) => p.startsWith('*'));
    for (const method of Array.isArray(methods) ? methods : [methods]) {
      this.routes.push({ method, parts, handler, meta, score, rest });
    }
    this.longest = Math.max(this.longest, parts.length);
    this.bySegments.clear();
    return this;
  }

  get(pattern: string, handler: Handler, meta?: RouteMeta): this {
    return this.add('GET', pattern, handler, meta);
  }

  /** Every route as registered (the fuzz test walks them all). */
  list(): { method: string; pattern: string }[] {
    return this.routes.map((r) => ({ method: r.method, pattern: `/${r.parts.join('/')}` }));
  }

  /** Finds the route; `allowed` lists the methods of a path that matched under another method. */
  match(method: string, path: string): { match?: Match; allowed: string[] } {
    const segments = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    let best: { route: Route; params: Record<string, string>; score: number } | undefined;
    for (const route of this.withSegments(segments.length)) {
      // The cheap tests come before any decoding.
      if (!literalsMatch(route.parts, segments)) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      if (best && route.score <= best.score) continue;
      const params = matchParts(route.parts, segments);
      if (params) best = { route, params, score: route.score };
    }
    return best
      ? { match: { handler: best.route.handler, params: best.params, meta: best.route.meta }, allowed }
      : { allowed };
  }

  private withSegments(n: number): Route[] {
    const key = Math.min(n, this.longest + 1);
    let list = this.bySegments.get(key);
    if (!list) {
      list = this.routes.filter((r) => (r.rest < 0 ? r.parts.length === n : n > r.rest));
      this.bySegments.set(key, list);
    }
    return list;
  }
}

function literalsMatch(parts: string[], segments: string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('*')) return true;
    if (!part.startsWith(':') && part !== segments[i]) return false;
  }
  return true;
}

function matchParts(parts: string[], segments: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('*')) {
      if (i >= segments.length) return undefined;
      params[part.slice(1)] = segments.slice(i).map(safeDecode).join('/');
      return params;
    }
    const seg = segments[i];
    if (seg === undefined) return undefined;
    if (part.startsWith(':')) params[part.slice(1)] = safeDecode(seg);
    else if (part !== seg) return undefined;
  }
  return parts.length === segments.length ? params : undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
