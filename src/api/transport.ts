/**
 * The only code that speaks HTTP to the scheduler and the registry. One keep-alive undici pool per
 * address is shared by every client pointed at it; every read returns its value with the query meta
 * that blocking queries need; tokens never leave this file except as request headers.
 */
import { gunzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import {
  ApiError,
  ConnectionError,
  DialectMismatchError,
  RequestTimeoutError,
  ResponseSchemaError,
  errorForStatus,
  ServerError,
} from './errors';
import { dialectFor, type Dialect } from './dialect';
import { abortReason, dispatchCollect, type CollectedResponse } from './dispatch';
import { formatIssuePath } from './issue-path';
import { parseDuration } from './duration';
import { readPem } from './pem';
import { Pool } from './undici';
import { safeParseFast } from './zod-fast-parse';
import {
  DEFAULT_ADDRESS,
  headerPrefix,
  normalizeAddress,
  settingsFromEnv,
  type Env,
  type Flavor,
  type ServiceKind,
} from './env';

export type { Flavor, ServiceKind } from './env';

export interface TlsOptions {
  /** PEM text or a path to a PEM file. */
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify?: boolean;
}

export interface RetryOptions {
  /** Attempts after the first; 0 disables retries. */
  max?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface RequestLogEntry {
  method: string;
  /** Path with any token parameter removed. */
  path: string;
  status: number | 'error';
  durationMs: number;
  attempt: number;
}

export interface TransportOptions {
  service: ServiceKind;
  address?: string;
  token?: string;
  /** How the token travels: the service's token header (default) or `Authorization: Bearer`. */
  authScheme?: 'header' | 'bearer';
  flavor?: Flavor;
  region?: string;
  namespace?: string;
  headers?: Record<string, string>;
  /**
   * Ask for gzip-compressed responses. Default: only when the address is not this machine's (on
   * loopback compression costs both ends CPU and saves nothing).
   */
  compression?: boolean;
  tls?: TlsOptions;
  retries?: RetryOptions;
  /** Timeout of a non-blocking request, ms (default 60 s). */
  timeoutMs?: number;
  /** Environment to read fallbacks from (default process.env); tests pass their own. */
  env?: Env;
  logger?: (entry: RequestLogEntry) => void;
}

export type ParamValue = string | number | boolean | undefined | null | readonly string[];

export interface QueryOptions {
  namespace?: string;
  region?: string;
  stale?: boolean;
  /** Blocking query: wait until the index moves past this value. */
  index?: number;
  /** Maximum wait of a blocking query, as a duration string ("10s", "5m"). */
  wait?: string;
  filter?: string;
  perPage?: number;
  nextToken?: string;
  reverse?: boolean;
  /** Token for this call only (overrides the client's). */
  token?: string;
  params?: Record<string, ParamValue>;
  signal?: AbortSignal;
}

export interface WriteOptions {
  namespace?: string;
  region?: string;
  token?: string;
  /** The write carries an idempotency token, so it may be retried like a read. */
  idempotent?: boolean;
  params?: Record<string, ParamValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface QueryMeta {
  index: number;
  lastContact: number;
  knownLeader: boolean;
  nextToken?: string;
  filteredByAcls?: boolean;
}

export interface Result<T> {
  value: T;
  meta: QueryMeta;
}

const DEFAULT_WAIT_MS = 5 * 60_000;
const MAX_WAIT_MS = 10 * 60_000;
const BLOCKING_SLACK_MS = 10_000;

interface PoolEntry {
  pool: Pool;
  refs: number;
}
const pools = new Map<string, PoolEntry>();

/** What a TLS connection to the service is opened with (PEM texts), for HTTP and WebSocket alike. */
export interface TlsConnectOptions {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
}

function acquirePool(
  origin: string,
  tls: TlsOptions | undefined,
): { key: string; pool: Pool; connect: TlsConnectOptions | undefined } {
  const ca = readPem(tls?.ca);
  const cert = readPem(tls?.cert);
  const key = readPem(tls?.key);
  const poolKey = JSON.stringify([origin, ca, cert, key, tls?.insecureSkipVerify ?? false]);
  const connect = origin.startsWith('https:')
    ? { ca, cert, key, rejectUnauthorized: !tls?.insecureSkipVerify }
    : undefined;
  let entry = pools.get(poolKey);
  if (!entry || entry.pool.closed || entry.pool.destroyed) {
    entry = {
      pool: new Pool(origin, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000, connect }),
      refs: 0,
    };
    pools.set(poolKey, entry);
  }
  entry.refs++;
  return { key: poolKey, pool: entry.pool, connect };
}

/**
 * Closes a pool as `close()` does, but ends an idle pool's connections with one error made without a
 * stack trace. Node reads the stack of the error a socket is destroyed with, and undici's close makes
 * one per connection: formatting them (the first maps every position of the bundle to its line) cost
 * the end of a deploy of 200 jobs 37 M instructions, 1.6% of the command.
 */
function closePool(pool: Pool): Promise<void> {
  const { size, queued } = pool.stats;
  if (size > 0 || queued > 0) return pool.close();
  return pool.destroy(stacklessError('the transport is closed'));
}

function stacklessError(message: string): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Error(message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether a URL host names this machine: localhost, 127.0.0.0/8 or ::1. */
function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1';
}

const ALL_PREFIXES = ['X-Sched-', 'X-Reg-', 'X-Nomad-', 'X-Consul-'];

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

const JSON_TYPE = 'application/json';

/** The JSON text of a request body; a request without a body sends no Content-Type either. */
function jsonBody(body: unknown): string | undefined {
  return body === undefined ? undefined : JSON.stringify(body);
}

export class Transport {
  readonly service: ServiceKind;
  readonly flavor: Flavor;
  /** Names on the wire: request bodies go out in it, response bodies come back from it. */
  readonly dialect: Dialect;
  readonly address: string;
  readonly region: string | undefined;
  readonly namespace: string | undefined;
  private readonly token: string | undefined;
  private readonly authScheme: 'header' | 'bearer';
  private readonly extraHeaders: Record<string, string>;
  private readonly prefix: string;
  private readonly retries: Required<RetryOptions>;
  private readonly timeoutMs: number;
  private readonly logger: ((entry: RequestLogEntry) => void) | undefined;
  private readonly pool: Pool;
  private readonly poolKey: string;
  private readonly tlsConnect: TlsConnectOptions | undefined;
  private readonly basePath: string;
  private readonly acceptEncoding: string;
  /** The lower-cased names of the response headers read into QueryMeta, in this transport's dialect. */
  private readonly metaHeaders: Record<
    'index' | 'lastContact' | 'knownLeader' | 'nextToken' | 'filteredByAcls',
    string
  >;
  /** Request headers of the calls that add none of their own, by content type ('' for none). */
  private readonly sharedHeaders = new Map<string, Record<string, string>>();
  private closed = false;

  constructor(opts: TransportOptions) {
    this.service = opts.service;
    this.flavor = opts.flavor ?? 'sched';
    this.dialect = dialectFor(this.service, this.flavor);
    const fromEnv = settingsFromEnv(this.service, this.flavor, opts.env ?? process.env);
    this.address = normalizeAddress(opts.address ?? fromEnv.address ?? DEFAULT_ADDRESS[this.service]);
    this.token = opts.token ?? fromEnv.token;
    this.region = opts.region ?? fromEnv.region;
    this.namespace = opts.namespace ?? fromEnv.namespace;
    this.authScheme = opts.authScheme ?? 'header';
    this.extraHeaders = { ...(opts.headers ?? {}) };
    this.prefix = headerPrefix(this.service, this.flavor);
    const lower = (name: string): string => this.header(name).toLowerCase();
    this.metaHeaders = {
      index: lower('Index'),
      lastContact: lower('LastContact'),
      knownLeader: lower('KnownLeader'),
      nextToken: lower('NextToken'),
      filteredByAcls: lower('Results-Filtered-By-ACLs'),
    };
    this.retries = {
      max: opts.retries?.max ?? 3,
      baseDelayMs: opts.retries?.baseDelayMs ?? 100,
      maxDelayMs: opts.retries?.maxDelayMs ?? 5_000,
    };
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.logger = opts.logger;
    const url = new URL(this.address);
    this.basePath = url.pathname === '/' ? '' : url.pathname;
    this.acceptEncoding = (opts.compression ?? !isLoopback(url.hostname)) ? 'gzip' : 'identity';
    const tls: TlsOptions = {
      ca: opts.tls?.ca ?? fromEnv.caCert,
      cert: opts.tls?.cert ?? fromEnv.clientCert,
      key: opts.tls?.key ?? fromEnv.clientKey,
      insecureSkipVerify: opts.tls?.insecureSkipVerify ?? fromEnv.skipVerify,
    };
    const acquired = acquirePool(url.origin, tls);
    this.pool = acquired.pool;
    this.poolKey = acquired.key;
    this.tlsConnect = acquired.connect;
  }

  /** Name of a service header, e.g. `index` -> `X-Sched-Index`. */
  header(name: string): string {
    return `${this.prefix}${name}`;
  }

  async get<S extends z.ZodType>(
    path: string,
    schema: S,
    opts: QueryOptions = {},
  ): Promise<Result<z.infer<S>>> {
    return this.query('GET', path, undefined, schema, opts);
  }

  /**
   * A read that may carry a body (Consul's discovery chain with overrides is a POST read): read
   * parameters, blocking-query timeout, and retries like any other read.
   */
  async query<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    schema: S,
    opts: QueryOptions = {},
  ): Promise<Result<z.infer<S>>> {
    const blocking = opts.index !== undefined && opts.index > 0;
    let timeoutMs = this.timeoutMs;
    if (blocking) {
      const waitMs = Math.min(opts.wait ? parseDuration(opts.wait) : DEFAULT_WAIT_MS, MAX_WAIT_MS);
      timeoutMs = waitMs + waitMs / 16 + BLOCKING_SLACK_MS;
    }
    const json = jsonBody(this.dialect.toWire(body));
    return this.execute({
      method,
      path,
      query: this.queryParams(opts),
      body: json,
      contentType: json === undefined ? undefined : JSON_TYPE,
      schema,
      token: opts.token,
      signal: opts.signal,
      retryable: true,
      timeoutMs,
    });
  }

  async send<S extends z.ZodType>(
    method: 'PUT' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    schema: S,
    opts: WriteOptions = {},
  ): Promise<Result<z.infer<S>>> {
    const json = jsonBody(this.dialect.toWire(body));
    return this.write(method, path, json, json === undefined ? undefined : JSON_TYPE, schema, opts);
  }

  async sendRaw<S extends z.ZodType>(
    method: 'PUT' | 'POST',
    path: string,
    body: Uint8Array | string,
    contentType: string,
    schema: S,
    opts: WriteOptions = {},
  ): Promise<Result<z.infer<S>>> {
    return this.write(method, path, body, contentType, schema, opts);
  }

  /** Writes are retried only when they carry an idempotency token; a retried plain write could apply twice. */
  private async write<S extends z.ZodType>(
    method: 'PUT' | 'POST' | 'DELETE',
    path: string,
    body: string | Uint8Array | undefined,
    contentType: string | undefined,
    schema: S,
    opts: WriteOptions,
  ): Promise<Result<z.infer<S>>> {
    return this.execute({
      method,
      path,
      query: this.writeParams(opts),
      body,
      contentType,
      schema,
      token: opts.token,
      signal: opts.signal,
      retryable: opts.idempotent === true,
      timeoutMs: this.timeoutMs,
      headers: opts.headers,
    });
  }

  /** Follows `X-*-NextToken` page by page, yielding each element. */
  async *paginate<S extends z.ZodType>(
    path: string,
    itemSchema: S,
    opts: QueryOptions = {},
  ): AsyncGenerator<z.infer<S>, void, undefined> {
    const listSchema = z.array(itemSchema);
    let nextToken = opts.nextToken;
    for (;;) {
      const page: Result<z.infer<S>[]> = await this.get(path, listSchema, { ...opts, nextToken });
      for (const item of page.value) yield item;
      if (!page.meta.nextToken) return;
      if (page.meta.nextToken === nextToken) {
        throw new ServerError({
          status: 500,
          method: 'GET',
          path,
          serverMessage: `pagination did not advance past next_token ${nextToken}`,
        });
      }
      nextToken = page.meta.nextToken;
    }
  }

  /**
   * Opens a long-lived GET whose body is newline-delimited (the event stream) and yields its lines.
   * `idleTimeoutMs` bounds the silence between chunks so a dead connection is noticed.
   */
  async openStream(
    path: string,
    opts: QueryOptions & { idleTimeoutMs?: number } = {},
  ): Promise<{ lines: AsyncIterable<string>; status: number }> {
    const query = this.queryParams(opts);
    const fullPath = this.fullPath(path, query);
    const headers = this.requestHeaders(opts.token, undefined, undefined);
    headers['accept-encoding'] = 'identity';
    let res: Dispatcher.ResponseData;
    try {
      res = await this.pool.request({
        method: 'GET',
        path: fullPath,
        headers,
        signal: opts.signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: opts.idleTimeoutMs ?? 60_000,
      });
    } catch (err) {
      throw this.translateError(err, 'GET', path, opts.signal, this.timeoutMs);
    }
    if (res.statusCode >= 400) {
      const text = await res.body.text().catch(() => '');
      throw errorForStatus({
        status: res.statusCode,
        method: 'GET',
        path: this.displayPath(path, query),
        serverMessage: this.redact(text.trim().slice(0, 2000)),
      });
    }
    const body = res.body;
    const translate = (err: unknown): unknown => this.translateError(err, 'GET', path, opts.signal, 0);
    async function* lines(): AsyncGenerator<string> {
      let buffered = '';
      try {
        for await (const chunk of body) {
          buffered += (chunk as Buffer).toString('utf8');
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (line) yield line;
          }
        }
      } catch (err) {
        throw translate(err);
      } finally {
        body.destroy();
      }
      if (buffered.trim()) yield buffered.trim();
    }
    return { lines: lines(), status: res.statusCode };
  }

  /**
   * URL, headers and TLS settings for a WebSocket endpoint (exec): the token travels as a header, never
   * in the URL, and the socket trusts exactly what the HTTP requests trust.
   */
  websocketTarget(
    path: string,
    params: Record<string, ParamValue>,
    opts: { token?: string; namespace?: string; region?: string } = {},
  ): { url: string; headers: Record<string, string>; tls: TlsConnectOptions | undefined } {
    const query = this.writeParams({ namespace: opts.namespace, region: opts.region, params });
    const url = new URL(this.address);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return {
      url: `${url.origin}${this.fullPath(path, query)}`,
      headers: this.requestHeaders(opts.token, undefined, undefined),
      tls: this.tlsConnect,
    };
  }

  /** The token to use for a call (per-call override, then the client's); callers that must put it in a body use this. */
  tokenFor(override?: string): string | undefined {
    return override ?? this.token;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const entry = pools.get(this.poolKey);
    if (entry && entry.pool === this.pool && --entry.refs <= 0) {
      pools.delete(this.poolKey);
      await closePool(this.pool).catch(() => undefined);
    }
  }

  // ---- internals ----

  private namespaceParam(): string {
    return this.service === 'registry' ? 'ns' : 'namespace';
  }

  private queryParams(opts: QueryOptions): Array<[string, string]> {
    const q: Array<[string, string]> = [];
    const ns = opts.namespace ?? this.namespace;
    if (ns) q.push([this.namespaceParam(), ns]);
    const region = opts.region ?? this.region;
    if (region && this.service === 'scheduler') q.push(['region', region]);
    if (opts.stale) q.push(['stale', '']);
    if (opts.index !== undefined && opts.index > 0) q.push(['index', String(opts.index)]);
    if (opts.wait) q.push(['wait', opts.wait]);
    if (opts.filter) q.push(['filter', opts.filter]);
    if (opts.perPage !== undefined) q.push(['per_page', String(opts.perPage)]);
    if (opts.nextToken) q.push(['next_token', opts.nextToken]);
    if (opts.reverse) q.push(['reverse', 'true']);
    appendParams(q, opts.params);
    return q;
  }

  private writeParams(opts: Pick<WriteOptions, 'namespace' | 'region' | 'params'>): Array<[string, string]> {
    const q: Array<[string, string]> = [];
    const ns = opts.namespace ?? this.namespace;
    if (ns) q.push([this.namespaceParam(), ns]);
    const region = opts.region ?? this.region;
    if (region && this.service === 'scheduler') q.push(['region', region]);
    appendParams(q, opts.params);
    return q;
  }

  /** `search`: the query as queryString encodes it, when the caller has it already. */
  private fullPath(path: string, query: Array<[string, string]>, search = queryString(query)): string {
    return `${this.basePath}${path}${search}`;
  }

  /**
   * Path for errors and logs: no token parameter, ever. A query without one is shown as sent
   * (`search`, as for fullPath); only one with a token is encoded again without it.
   */
  private displayPath(path: string, query: Array<[string, string]>, search?: string): string {
    if (!query.some(isTokenParam)) return `${path}${search ?? queryString(query)}`;
    return `${path}${queryString(query.filter((param) => !isTokenParam(param)))}`;
  }

  private requestHeaders(
    tokenOverride: string | undefined,
    contentType: string | undefined,
    extra: Record<string, string> | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': this.acceptEncoding,
      'user-agent': 'cdktf-sched',
      ...this.extraHeaders,
      ...(extra ?? {}),
    };
    if (contentType) headers['content-type'] = contentType;
    const token = tokenOverride ?? this.token;
    if (token) {
      if (this.authScheme === 'bearer') headers['authorization'] = `Bearer ${token}`;
      else headers[this.header('Token').toLowerCase()] = token;
    }
    return headers;
  }

  /** The same headers as requestHeaders gives a call without a token or headers of its own, built once. */
  private sharedRequestHeaders(contentType: string | undefined): Record<string, string> {
    let headers = this.sharedHeaders.get(contentType ?? '');
    if (!headers) {
      headers = Object.freeze(this.requestHeaders(undefined, contentType, undefined));
      this.sharedHeaders.set(contentType ?? '', headers);
    }
    return headers;
  }

  /** Removes every token this transport knows from a text that came from outside (server messages). */
  private redact(text: string, extraToken?: string): string {
    let out = text;
    for (const t of [this.token, extraToken]) {
      if (t && t.length >= 4) out = out.split(t).join('[redacted]');
    }
    return out;
  }

  private parseMeta(headers: CollectedResponse['headers']): QueryMeta {
    const names = this.metaHeaders;
    const meta: QueryMeta = {
      index: Number(first(headers[names.index]) ?? 0) || 0,
      lastContact: Number(first(headers[names.lastContact]) ?? 0) || 0,
      knownLeader: first(headers[names.knownLeader]) === 'true',
    };
    const next = first(headers[names.nextToken]);
    if (next) meta.nextToken = next;
    if (first(headers[names.filteredByAcls]) === 'true') meta.filteredByAcls = true;
    return meta;
  }

  /** A response that carries another dialect's index header, and not ours, comes from a server of another flavor. */
  private checkDialect(headers: CollectedResponse['headers'], method: string, path: string): void {
    if (headers[this.metaHeaders.index] !== undefined) return;
    for (const prefix of ALL_PREFIXES) {
      if (prefix !== this.prefix && headers[`${prefix}index`.toLowerCase()] !== undefined) {
        throw new DialectMismatchError(method, path, this.prefix, prefix);
      }
    }
  }

  private backoff(attempt: number, retryAfter?: string | string[]): number {
    const ra = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    if (ra && /^\d+$/.test(ra)) return Math.min(Number(ra) * 1000, this.retries.maxDelayMs);
    const cap = Math.min(this.retries.maxDelayMs, this.retries.baseDelayMs * 2 ** attempt);
    // Full jitter: spreads retries of many clients hitting the same failure.
    return Math.round(cap / 2 + (Math.random() * cap) / 2);
  }

  private translateError(
    err: unknown,
    method: string,
    path: string,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): unknown {
    if (signal?.aborted) return abortReason(signal);
    if (err instanceof ApiError || err instanceof ResponseSchemaError) return err;
    const code = (err as { code?: string } | null)?.code;
    const message = err instanceof Error ? err.message : String(err);
    if (code && TIMEOUT_CODES.has(code) && code !== 'UND_ERR_CONNECT_TIMEOUT') {
      return new RequestTimeoutError(method, path, timeoutMs);
    }
    return new ConnectionError(method, path, this.redact(message), code);
  }

  private async execute<S extends z.ZodType>(req: {
    method: string;
    path: string;
    query: Array<[string, string]>;
    body?: string | Uint8Array;
    contentType?: string;
    schema: S;
    token: string | undefined;
    signal: AbortSignal | undefined;
    retryable: boolean;
    timeoutMs: number;
    headers?: Record<string, string>;
  }): Promise<Result<z.infer<S>>> {
    if (this.closed) throw new Error('transport is closed');
    // Both paths share one encoding of the query (the shown one leaves a token out).
    const search = queryString(req.query);
    const fullPath = this.fullPath(req.path, req.query, search);
    const shownPath = this.displayPath(req.path, req.query, search);
    const headers =
      req.token === undefined && req.headers === undefined
        ? this.sharedRequestHeaders(req.contentType)
        : this.requestHeaders(req.token, req.contentType, req.headers);
    for (let attempt = 0; ; attempt++) {
      if (req.signal?.aborted) throw abortReason(req.signal);
      const started = Date.now();
      let failure: unknown;
      let retryAfter: string | string[] | undefined;
      try {
        const res = await dispatchCollect(this.pool, {
          method: req.method,
          path: fullPath,
          headers,
          body: req.body,
          signal: req.signal,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        });
        const bytes = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body;
        const text = bytes.toString('utf8');
        this.logger?.({
          method: req.method,
          path: shownPath,
          status: res.statusCode,
          durationMs: Date.now() - started,
          attempt,
        });
        if (res.statusCode >= 400) {
          failure = errorForStatus({
            status: res.statusCode,
            method: req.method,
            path: shownPath,
            serverMessage: this.redact(extractMessage(text), req.token),
          });
          retryAfter = res.headers['retry-after'];
          const transient =
            res.statusCode === 429 || (res.statusCode >= 500 && failure instanceof ServerError);
          if (!req.retryable || !transient || attempt >= this.retries.max) throw failure;
        } else {
          this.checkDialect(res.headers, req.method, shownPath);
          const value = this.decode(text, req.schema, req.method, shownPath);
          return { value, meta: this.parseMeta(res.headers) };
        }
      } catch (err) {
        if (err === failure || err instanceof ResponseSchemaError || err instanceof DialectMismatchError)
          throw err;
        const translated = this.translateError(err, req.method, shownPath, req.signal, req.timeoutMs);
        if (req.signal?.aborted) throw translated;
        this.logger?.({
          method: req.method,
          path: shownPath,
          status: 'error',
          durationMs: Date.now() - started,
          attempt,
        });
        if (!req.retryable || attempt >= this.retries.max || translated instanceof ApiError) throw translated;
        failure = translated;
      }
      await sleep(this.backoff(attempt, retryAfter), req.signal);
    }
  }

  private decode<S extends z.ZodType>(text: string, schema: S, method: string, path: string): z.infer<S> {
    let parsed: unknown = null;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ResponseSchemaError(method, path, '', `body is not JSON (${text.slice(0, 80)})`);
      }
    }
    const result = safeParseFast(schema, this.dialect.fromWire(parsed));
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new ResponseSchemaError(method, path, formatIssuePath(issue.path), issue.message);
    }
    return result.data;
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function appendParams(q: Array<[string, string]>, params: Record<string, ParamValue> | undefined): void {
  if (!params) return;
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) q.push([k, item]);
    else q.push([k, String(v)]);
  }
}

function isTokenParam(param: [string, string]): boolean {
  return param[0] === 'token' || param[0] === 'auth_token';
}

/** `?` and the encoded query, or nothing for an empty one. */
function queryString(query: Array<[string, string]>): string {
  return query.length === 0 ? '' : `?${formEncode(query)}`;
}

/** What URLSearchParams leaves as it is (application/x-www-form-urlencoded). */
const FORM_PLAIN = /^[A-Za-z0-9*._-]*$/;

/**
 * The query string URLSearchParams would write. Parameters are nearly always plain words and numbers,
 * which it writes unchanged; only a query with anything else is worth building the object for.
 */
function formEncode(query: Array<[string, string]>): string {
  let out = '';
  for (const [k, v] of query) {
    if (!FORM_PLAIN.test(k) || !FORM_PLAIN.test(v)) return new URLSearchParams(query).toString();
    out += out === '' ? `${k}=${v}` : `&${k}=${v}`;
  }
  return out;
}

/** Nomad and Consul answer errors in plain text; some proxies answer JSON. */
function extractMessage(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const obj = JSON.parse(trimmed) as Record<string, unknown>;
      const msg = obj['error'] ?? obj['Error'] ?? obj['message'] ?? obj['Message'];
      if (typeof msg === 'string') return msg.slice(0, 2000);
    } catch {
      // not JSON after all: fall through to the raw text
    }
  }
  return trimmed.slice(0, 2000);
}
