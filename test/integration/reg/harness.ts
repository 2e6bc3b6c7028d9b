/**
 * A registry served over real HTTP on a free port, for integration tests (until the lead's startDevAgent
 * serves both services). Background work runs on a fast clock so deletions finish in milliseconds.
 */
import type { Server } from 'node:http';
import { RegClient, type RegClientOptions } from '../../../src/api/reg';
import { Clock } from '../../../src/agent/clock';
import { closeServer, createServiceServer, listen } from '../../../src/agent/http/server';
import { createRegistryService, type RegistryService } from '../../../src/agent/reg/service';
import { Store } from '../../../src/agent/store';

export interface RegAgent {
  url: string;
  store: Store;
  service: RegistryService;
  client(opts?: RegClientOptions): RegClient;
  /** Plain HTTP, for requests the typed client refuses to send. */
  http(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  close(): Promise<void>;
}

export interface RawResponse {
  status: number;
  text: string;
  headers: Headers;
  json<T = unknown>(): T;
}

export interface StartOptions {
  datacenter?: string;
  acl?: { enabled: boolean; bootstrapToken?: string };
  /** Clock scale for background work; 0.005 turns the 2 s cleanup delays into 10 ms. */
  timeScale?: number;
  /** Durable store directory (default: in memory). */
  dataDir?: string;
}

export async function startRegistry(opts: StartOptions = {}): Promise<RegAgent> {
  const store = Store.open(opts.dataDir ? { dataDir: opts.dataDir } : {});
  const clock = new Clock(opts.timeScale ?? 0.005);
  let url = '';
  const service = createRegistryService({
    store,
    clock,
    datacenter: opts.datacenter ?? 'dc1',
    acl: opts.acl,
    selfAddress: () => url,
  });
  const server: Server = createServiceServer({
    router: service.router,
    headerPrefix: 'X-Reg-',
    tokenFromQuery: true,
    authorize: service.authorize,
  });
  url = await listen(server, 0, '127.0.0.1');
  const clients: RegClient[] = [];
  return {
    url,
    store,
    service,
    client(o = {}) {
      const c = new RegClient({ address: url, env: {}, retries: { max: 0 }, ...o });
      clients.push(c);
      return c;
    },
    async http(method, path, body, headers = {}) {
      const res = await fetch(url + path, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, headers: res.headers, json: <T>() => JSON.parse(text) as T };
    },
    async close() {
      service.stop();
      clock.stop();
      await Promise.all(clients.map((c) => c.close()));
      await closeServer(server);
      store.close();
    },
  };
}

/** Polls until `check` returns a value that is not undefined (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
