/**
 * A tiny scripted HTTP server for client tests: records every request and answers from routes the
 * test registers. Unrouted requests get 404 so a wrong path fails loudly.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { SchedClient, type SchedClientOptions } from '../../../src/api/sched/client';

export interface Recorded {
  method: string;
  /** Path without the query string, still percent-encoded as sent. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Responder =
  Reply | ((req: Recorded, res: ServerResponse) => Reply | void | Promise<Reply | void>);

export interface TestServer {
  url: string;
  port: number;
  server: Server;
  requests: Recorded[];
  /** Routes `METHOD /path` (exact path, percent-encoded as sent) to a reply. */
  route(method: string, path: string, responder: Responder): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startTestServer(): Promise<TestServer> {
  const routes = new Map<string, Responder>();
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: await readBody(req),
      };
      requests.push(rec);
      const responder = routes.get(`${rec.method} ${rec.path}`);
      if (!responder) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no route for ${rec.method} ${rec.path}`);
        return;
      }
      const reply = typeof responder === 'function' ? await responder(rec, res) : responder;
      if (!reply) return; // the responder wrote the response itself
      const body =
        reply.body === undefined
          ? ''
          : typeof reply.body === 'string'
            ? reply.body
            : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    requests,
    route(method, path, responder) {
      routes.set(`${method} ${path}`, responder);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client pointed at the test server, isolated from the caller's environment, no retries. */
export function clientFor(srv: TestServer, extra: SchedClientOptions = {}): SchedClient {
  return new SchedClient({ address: srv.url, env: {}, retries: { max: 0 }, ...extra });
}

/** Index headers as the service sends them. */
export function meta(index: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'X-Sched-Index': String(index),
    'X-Sched-LastContact': '7',
    'X-Sched-KnownLeader': 'true',
    ...extra,
  };
}

export const ALLOC_ID = '5456bd7a-9fc0-c0dd-6131-cbee77f57577';
