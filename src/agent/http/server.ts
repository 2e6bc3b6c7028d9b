/**
 * The HTTP front of one service: routing, JSON bodies with a size limit, the service's headers on
 * every answer, gzip when asked, `pretty`, and errors as plain text with the right status. A handler
 * never sees a malformed request and never crashes the agent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { Duplex } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { ServerDialect } from './dialect';
import { HttpError, methodNotAllowed } from './errors';
import { parseJsonBody } from './json-body';
import { checkReadOptions } from './query';
import { headerToken } from './token';
import type { Reply, RequestContext, Router, RouteMeta } from './router';

export interface StreamReply extends Reply {
  /** Takes over the live response (event stream); `encode` turns a message into the wire's JSON. */
  stream: (res: ServerResponse, ctx: RequestContext, encode: (message: unknown) => string) => void;
}

export interface ServiceServerOptions {
  router: Router;
  /** `X-Sched-` or `X-Reg-`. */
  headerPrefix: string;
  /**
   * Answer a write's `Index` (its WriteMeta) in the Index header too, as Nomad's setIndex does for
   * every write; Consul's writes carry no index header.
   */
  writeIndexHeader?: boolean;
  /** Whether the `token` query parameter carries a token (the registry allows it). */
  tokenFromQuery?: boolean;
  /** Checks the route's capability; throws an HttpError(403) when the token lacks it. */
  authorize?: (ctx: RequestContext, meta: RouteMeta) => void | Promise<void>;
  maxBodyBytes?: number;
  timeouts?: ServerTimeouts;
  /** Called with each finished request (the benchmarks count requests per route). */
  onRequest?: (info: { method: string; path: string; status: number; durationMs: number }) => void;
  log?: (line: string) => void;
  /** Takes over `Upgrade` requests (WebSockets); without it Node answers them as it does by default. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Serve HTTPS with these PEM texts; with `clientCa`, clients must present a certificate it signed. */
  tls?: ServerTls;
  /** Serve Nomad's or Consul's names instead of the neutral ones (headers, bodies, statuses). */
  dialect?: ServerDialect;
}

export interface ServerTimeouts {
  /** Time a client has to send a request's headers. */
  headersMs: number;
  /**
   * Time a client has to send a whole request, body included. Answering is not counted: a blocking
   * query or an event stream starts once its request has arrived, and lasts as long as it must.
   */
  requestMs: number;
}

/**
 * A request slower than this is a client that stalled or never meant to finish (a body shorter than
 * its Content-Length); Node answers it with 408 and closes the connection.
 */
export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 30_000, requestMs: 60_000 };

export interface ServerTls {
  cert: string;
  key: string;
  /** Client certificates must be signed by this CA (mutual TLS). */
  clientCa?: string;
}

interface EncodedBody {
  payload: Buffer | string;
  contentType: string;
  gzipped: boolean;
  /** Bytes on the wire. */
  length: number;
}

const GZIP_MIN_BYTES = 1024;
/** The fastest level: the agent's clients are mostly on the same host, where CPU costs more than bytes. */
const GZIP_OPTIONS = { level: 1 };

export function createServiceServer(opts: ServiceServerOptions): Server {
  const maxBody = opts.maxBodyBytes ?? 32 * 1024 * 1024;
  const tokenHeader = `${opts.headerPrefix}Token`.toLowerCase();
  const dialect = opts.dialect;
  // The service's own header names as the served dialect spells them.
  const wireName = (name: string): string => (dialect ? dialect.outboundHeader(name) : name);
  const indexHeader = wireName(`${opts.headerPrefix}Index`);
  const lastContactHeader = wireName(`${opts.headerPrefix}LastContact`);
  const knownLeaderHeader = wireName(`${opts.headerPrefix}KnownLeader`);
  const encode = (message: unknown): string =>
    JSON.stringify(dialect ? dialect.outbound(message, 'GET') : message);
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const record = opts.onRequest;
    if (record) {
      res.on('finish', () =>
        record({
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0] ?? '',
          status: res.statusCode,
          durationMs: performance.now() - started,
        }),
      );
    }
    void handle(req, res).catch((err: unknown) => {
      opts.log?.(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('internal error');
      } else res.destroy();
    });
  };
  const tls = opts.tls;
  const timing = serverTiming(opts.timeouts ?? DEFAULT_TIMEOUTS);
  const server: Server = tls
    ? createHttpsServer(
        {
          ...timing,
          cert: tls.cert,
          key: tls.key,
          ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
        },
        onRequest,
      )
    : createServer(timing, onRequest);
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket));
  if (opts.onUpgrade) {
    const onUpgrade = opts.onUpgrade;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined);
      if (dialect) req.headers = dialect.inboundHeaders(req.headers);
      try {
        onUpgrade(req, socket, head);
      } catch (err) {
        opts.log?.(`upgrade error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        socket.destroy();
      }
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://agent');
    const method = req.method ?? 'GET';
    // Only a client that went away mid-answer cancels the handler; aborting after every normal answer
    // costs an exception object per request for nothing. The controller itself is made only for a
    // handler that asks for the signal (blocking reads, streams): most answers never look at it.
    let abort: AbortController | undefined;
    let gone = false;
    const signal = (): AbortSignal => {
      if (!abort) {
        abort = new AbortController();
        if (gone) abort.abort();
      }
      return abort.signal;
    };
    res.on('close', () => {
      if (res.writableFinished) return;
      gone = true;
      abort?.abort();
    });

    let bodyPromise: Promise<Buffer> | undefined;
    const raw = (): Promise<Buffer> => (bodyPromise ??= readBody(req, maxBody));
    const headers = dialect ? dialect.inboundHeaders(req.headers) : req.headers;
    const ctx: RequestContext = {
      method,
      path: url.pathname,
      params: {},
      // Node makes a URL's searchParams on first use; most requests carry no query to read.
      get query() {
        return url.searchParams;
      },
      headers,
      get signal() {
        return signal();
      },
      token: extractToken(headers, url, tokenHeader, opts.tokenFromQuery === true),
      raw,
      json: async () => {
        const buf = await raw();
        if (buf.length === 0) return undefined;
        const parsed = parseJsonBody(buf.toString('utf8'));
        return dialect ? dialect.inbound(parsed) : parsed;
      },
    };

    try {
      const { match, allowed } = opts.router.match(method, url.pathname);
      if (!match) {
        if (allowed.length > 0) throw methodNotAllowed(method);
        throw new HttpError(404, `Invalid URL path: ${url.pathname}`);
      }
      ctx.params = match.params;
      // A read without a query has no options to check (and needs no URLSearchParams made).
      if ((method === 'GET' || method === 'HEAD') && url.search !== '') checkReadOptions(url.searchParams);
      if (opts.authorize) await opts.authorize(ctx, match.meta);
      const reply = await match.handler(ctx);
      if ('stream' in reply && typeof (reply as StreamReply).stream === 'function') {
        (reply as StreamReply).stream(res, ctx, encode);
        return;
      }
      if (!req.complete) await raw().catch(() => undefined);
      send(req, res, url, reply);
    } catch (thrown) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const err = tooDeep(thrown) ? nestingError(thrown, opts.log) : thrown;
      if (err instanceof HttpError) {
        if (!req.complete) await raw().catch(() => undefined);
        const headers = ['content-type', 'text/plain; charset=utf-8'];
        if (err.index !== undefined) headers.push(...readHeaders(err.index));
        res.writeHead(dialect ? dialect.status(err) : err.status, headers);
        res.end(err.message);
        return;
      }
      throw err;
    }
  }

  /** A read's index headers, as a flat list of names (in the served dialect) and values. */
  function readHeaders(index: number): string[] {
    return [indexHeader, String(Math.max(1, index)), lastContactHeader, '0', knownLeaderHeader, 'true'];
  }

  /** The index headers of a reply: a read's, or a write's index where the service sends one. */
  function indexHeaders(reply: Reply): string[] {
    if (reply.index !== undefined) return readHeaders(reply.index);
    const written = opts.writeIndexHeader ? writeIndexOf(reply) : undefined;
    return written === undefined ? [] : [indexHeader, String(Math.max(1, written))];
  }

  /**
   * A reply's own headers (named in the served dialect), then its index headers, which replace an own
   * header of the same name, as a flat list: no header object is built and walked per answer.
   */
  function serviceHeaders(reply: Reply): string[] {
    const index = indexHeaders(reply);
    if (reply.headers === undefined) return index;
    const out: string[] = [];
    for (const [k, v] of Object.entries(reply.headers)) {
      const name = wireName(k);
      if (!index.some((n, i) => i % 2 === 0 && n === name)) out.push(name, v);
    }
    return out.concat(index);
  }

  function send(req: IncomingMessage, res: ServerResponse, url: URL, reply: Reply): void {
    const headers = serviceHeaders(reply);
    const body = encodeBody(req, url, reply);
    headers.push('content-type', body.contentType);
    if (body.gzipped) headers.push('content-encoding', 'gzip', 'vary', 'Accept-Encoding');
    headers.push('content-length', String(body.length));
    res.writeHead(reply.status ?? 200, headers);
    res.end(body.payload);
  }

  /** The answer's bytes or text, gzipped when it is worth it and the client takes it. */
  function encodeBody(req: IncomingMessage, url: URL, reply: Reply): EncodedBody {
    // JSON stays a string: Node sends a string answer in one write with its headers, where a Buffer
    // costs a copy and a second piece in the write.
    let payload: Buffer | string;
    let contentType: string;
    if (reply.rawBody !== undefined) {
      payload = Buffer.isBuffer(reply.rawBody) ? reply.rawBody : Buffer.from(reply.rawBody);
      contentType = reply.contentType ?? 'application/octet-stream';
    } else {
      const pretty =
        url.search !== '' && url.searchParams.has('pretty') && url.searchParams.get('pretty') !== 'false';
      const body = dialect ? dialect.outbound(reply.body ?? null, req.method ?? 'GET') : (reply.body ?? null);
      payload = pretty ? JSON.stringify(body, null, 4) + '\n' : JSON.stringify(body);
      contentType = 'application/json';
    }
    let length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const gzipped = length >= GZIP_MIN_BYTES && /\bgzip\b/.test(accepts);
    if (gzipped) {
      payload = gzipSync(payload, GZIP_OPTIONS);
      length = payload.length;
    }
    return { payload, contentType, gzipped, length };
  }

  return server;
}

/** Node checks the timeouts on a timer; a tenth of the shortest keeps a stalled client's overrun small. */
function serverTiming(t: ServerTimeouts): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  if (!(t.headersMs > 0 && t.requestMs >= t.headersMs))
    throw new Error('requestTimeoutMs must be at least headersTimeoutMs');
  return {
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    connectionsCheckingInterval: Math.max(50, Math.min(t.headersMs / 10, 5_000)),
  };
}

/**
 * Requests Node refuses before any handler runs (bad HTTP syntax, headers too large, a request slower
 * than the timeouts). Node's own answer has no text; this one says what was wrong, as every other
 * refusal of the agent does.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason] = clientErrorStatus(err.code);
  const text = `${reason} (${err.code ?? 'malformed request'})`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'Request Timeout: the request did not arrive in time'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large'];
  return [400, 'Bad Request: the request is not valid HTTP/1.1'];
}

/**
 * JSON bodies are depth-checked before parsing, but other text a request carries is read by recursive
 * parsers too (a jobspec's HCL, ACL rules, JSON inside HCL). Input nested deep enough to exhaust the
 * stack is the client's to fix: a 400 saying so, logged in case it ever comes from a bug instead.
 */
function tooDeep(err: unknown): err is RangeError {
  return err instanceof RangeError && err.message.includes('Maximum call stack size exceeded');
}

function nestingError(err: RangeError, log: ((line: string) => void) | undefined): HttpError {
  log?.(`request refused, nested too deep: ${err.stack ?? err.message}`);
  return new HttpError(
    400,
    'request: nests expressions, blocks or values too deep to read (rule: max-depth)',
  );
}

function writeIndexOf(reply: Reply): number | undefined {
  const body = reply.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const index = (body as { Index?: unknown }).Index;
  return typeof index === 'number' && Number.isSafeInteger(index) && index >= 0 ? index : undefined;
}

function extractToken(
  headers: IncomingMessage['headers'],
  url: URL,
  tokenHeader: string,
  fromQuery: boolean,
): string | undefined {
  const fromHeaders = headerToken(headers, tokenHeader);
  if (fromHeaders !== undefined) return fromHeaders;
  if (fromQuery) {
    const q = url.searchParams.get('token');
    if (q) return q;
  }
  return undefined;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, `request body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => !failed && resolve(Buffer.concat(chunks)));
    req.on('error', (err) => !failed && reject(err));
    // A client that stalls mid-body is cut off by the request timeout; the handler waiting for the
    // body must end too rather than hold its memory for ever.
    req.on('close', () => {
      if (!req.complete && !failed) {
        failed = true;
        reject(new HttpError(408, 'request body: the client closed the connection before sending all of it'));
      }
    });
  });
}

export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const scheme = server instanceof TlsServer ? 'https' : 'http';
  return `${scheme}://${shownHost}:${addr.port}`;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
