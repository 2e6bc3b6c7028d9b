/**
 * Thousands of malformed requests, drawn with a fixed seed, against every route of both services: the
 * agent must answer each one without a 5xx or a hang, say what was wrong when it refuses, and end with
 * the state it started with. The seed is printed on failure with the request that broke the rule, so a
 * finding replays exactly.
 */
import { Agent, request } from 'node:http';
import { Clock } from '../../../src/agent/clock';
import { createRegistryService } from '../../../src/agent/reg/service';
import { Store } from '../../../src/agent/store';
import { RegClient } from '../../../src/api/reg/client';
import { eventually, startAgent, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';

const SEED = 0x5eed14;
const REQUESTS = 2500;
const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 10_000;

/** mulberry32: small, fast and good enough to spread requests over routes and defects. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Path segments no object can be named by, each aimed at a parser, a capability string or a key. */
const HOSTILE_SEGMENTS = [
  'a:b',
  'service:x:write',
  '..',
  '%2e%2e%2fetc',
  '%00',
  'a%2Fb',
  '*',
  ' spaced ',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%ZZ',
  'x'.repeat(2000),
  '-',
  'null',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-00000000000',
  '{"a":1}',
];

/** Query strings that are wrong: bad blocking options, filters, paging, namespaces and regions. */
const HOSTILE_QUERIES = [
  'wait=abc',
  'wait=-5s',
  'index=-1',
  'index=abc',
  'index=1e3',
  'index=99999999999999999999999',
  'filter=' + encodeURIComponent('Name matches "(a"'),
  'filter=' + encodeURIComponent('Meta.n matches "^(a+)+$"'),
  'filter=' + encodeURIComponent('(((((((((('.repeat(50)),
  'filter=' + encodeURIComponent('Name ==='),
  'filter=%FF',
  'per_page=-1',
  'per_page=abc',
  'next_token=%00',
  'namespace=a:b',
  'ns=a:b',
  'region=nowhere',
  'stale=maybe',
  'purge=sometimes',
  'cas=abc',
];

function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** Bodies no route can accept: not JSON, too deep, or not the object every write takes. */
const BAD_BODIES: readonly (() => string)[] = [
  () => '{',
  () => '{"Job": {"ID": "x", ',
  () => 'not json at all',
  () => '\u0000\u0001\u0002',
  () => `{"Job": ${'{"Config":'.repeat(5000)}1${'}'.repeat(5000)}}`,
  () => deepJson(3000),
  () => deepJson(200),
  () => '[1,2,3]',
  () => '42',
  () => '"a string"',
  () => 'true',
  () => '{"a":1}}',
  () => '{"Name": "a:b", "Kind": 7}',
  () => `{"x": "${'\\'.repeat(3)}`,
];

interface Route {
  method: string;
  pattern: string;
  base: string;
}

interface Probe {
  method: string;
  url: string;
  body?: string;
}

/** One malformed request for a route: writes always carry a bad body, reads a hostile path or query. */
function probeFor(r: Rand, route: Route, ids: Record<string, string>): Probe {
  const write = route.method !== 'GET';
  const path = route.pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':') && !part.startsWith('*')) return part;
      // Reads may name real objects, so the defect is elsewhere; writes never do, so nothing real changes.
      const real = ids[part.slice(1)];
      return !write && real !== undefined && r() < 0.5 ? real : pick(r, HOSTILE_SEGMENTS);
    })
    .join('/');
  const query = r() < (write ? 0.3 : 0.8) ? `?${pick(r, HOSTILE_QUERIES)}` : '';
  const body = write || r() < 0.2 ? pick(r, BAD_BODIES)() : undefined;
  return { method: route.method, url: `${route.base}${path}${query}`, body };
}

/** node:http with kept-alive sockets: a fraction of fetch's CPU per request, which a loaded machine needs. */
const keepAlive = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(p: Probe): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = p.method === 'GET' ? undefined : p.body;
    // new URL() escapes what a raw path may not hold (spaces, quotes), as any HTTP client must.
    const req = request(
      new URL(p.url),
      {
        method: p.method,
        agent: keepAlive,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body ?? '')),
        },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      },
      (res) => {
        if (res.headers['content-length'] === undefined) {
          // A stream (the event stream) that accepted the request: it answers by staying open.
          resolve({ status: res.statusCode ?? 0, text: 'stream' });
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function describeProbe(p: Probe): string {
  return `${p.method} ${p.url.slice(0, 300)} body=${JSON.stringify((p.body ?? '').slice(0, 120))}`;
}

function registryRoutes(): { method: string; pattern: string }[] {
  const store = Store.open();
  const svc = createRegistryService({
    store,
    clock: new Clock(1),
    datacenter: 'dc1',
    selfAddress: () => 'http://127.0.0.1:1',
  });
  const list = svc.router.list();
  svc.stop();
  store.close();
  return list;
}

describe('fuzzing the dev agent with malformed requests', () => {
  let f: AgentFixture;
  let routes: Route[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    f = await startAgent({ timeScale: 0.01 });
    const reg = new RegClient({ address: f.agent.registryUrl!, env: {}, retries: { max: 0 } });
    await f.sched.jobs.register(mockJob('web', { count: 1, config: { run_for: '1h' } }));
    await reg.namespaces.create({ Name: 'team' });
    await reg.configEntries.apply({ Kind: 'service-defaults', Name: 'api', Protocol: 'http' });
    await reg.close();
    await eventually(async () => {
      const allocs = await f.sched.jobs.allocations('web');
      expect(allocs.value.map((a) => a.ClientStatus)).toEqual(['running']);
    }, 30_000);
    const [alloc] = (await f.sched.jobs.allocations('web')).value;
    Object.assign(ids, {
      id: 'web',
      job: 'web',
      jobId: 'web',
      alloc: alloc!.ID,
      allocId: alloc!.ID,
      evalId: alloc!.EvalID,
      name: 'team',
      service: 'api',
      kind: 'service-defaults',
    });
    routes = [
      ...f.agent.scheduler.router.list().map((r) => ({ ...r, base: f.agent.schedulerUrl })),
      ...registryRoutes().map((r) => ({ ...r, base: f.agent.registryUrl! })),
    ];
  }, 60_000);

  afterAll(async () => {
    keepAlive.destroy();
    await f.stop();
  });

  it(`answers ${REQUESTS} malformed requests with 4xx or a harmless read, and changes nothing`, async () => {
    // The running job writes nothing once its allocation is up; wait until the store is quiet.
    await eventually(async () => {
      const before = f.agent.store.index;
      await new Promise((r) => setTimeout(r, 300));
      expect(f.agent.store.index).toBe(before);
    }, 20_000);
    const indexBefore = f.agent.store.index;
    const jobBefore = JSON.stringify((await f.sched.jobs.read('web')).value);

    const r = prng(SEED);
    const probes = Array.from({ length: REQUESTS }, () => probeFor(r, pick(r, routes), ids));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < probes.length) {
        const p = probes[next++]!;
        let answer: { status: number; text: string };
        try {
          answer = await send(p);
        } catch (err) {
          failures.push(`no answer (${(err as Error).name}): ${describeProbe(p)}`);
          continue;
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500) failures.push(`${answer.status} ${answer.text}: ${describeProbe(p)}`);
        else if (answer.status >= 400 && answer.text.trim() === '')
          failures.push(`${answer.status} without a message: ${describeProbe(p)}`);
        // A DELETE of something that is not there answers as if it had been (Consul's deletes do).
        else if (answer.status < 400 && p.method !== 'GET' && p.method !== 'DELETE')
          failures.push(`${answer.status} to a malformed write: ${describeProbe(p)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    expect({ seed: SEED, failures: failures.slice(0, 10), count: failures.length }).toEqual({
      seed: SEED,
      failures: [],
      count: 0,
    });
    // Most answers are refusals; the rest are reads of real objects with a harmless query.
    const refused = [...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    expect(refused).toBeGreaterThan(REQUESTS / 2);
    expect(f.agent.store.index).toBe(indexBefore);
    expect(JSON.stringify((await f.sched.jobs.read('web')).value)).toBe(jobBefore);
    // Still serving, both services.
    expect((await fetch(`${f.agent.schedulerUrl}/v1/jobs`)).status).toBe(200);
    expect((await fetch(`${f.agent.registryUrl!}/v1/namespaces`)).status).toBe(200);
  }, 90_000);
});
