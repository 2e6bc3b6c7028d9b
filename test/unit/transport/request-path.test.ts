/**
 * The JSON request path below the transport's calls (src/api/dispatch.ts): bodies in many chunks,
 * timeouts, cancellation, bodies that are not JSON, retries after a cut connection, and query strings.
 * Against a real node:http server started by the test.
 */
import { z } from 'zod';
import {
  ConnectionError,
  RequestTimeoutError,
  ResponseSchemaError,
  ServerError,
  Transport,
} from '../../../src/api';
import { json, startTestServer, type TestServer } from '../../helpers/http-server';

const Any = z.unknown();

describe('transport request path', () => {
  let srv: TestServer;
  const transports: Transport[] = [];
  const make = (opts: Partial<ConstructorParameters<typeof Transport>[0]> = {}): Transport => {
    const t = new Transport({ service: 'scheduler', address: srv.url, env: {}, ...opts });
    transports.push(t);
    return t;
  };

  beforeEach(async () => {
    srv = await startTestServer();
  });
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    await srv.close();
  });

  it('assembles a body that arrives in many chunks, with characters split between chunks', async () => {
    const value = {
      Name: 'caf\u00e9 \u2713 \u{1F680}',
      Items: Array.from({ length: 3000 }, (_, i) => ({ ID: `item-${i}`, Note: '\u00e9\u2713' })),
    };
    const bytes = Buffer.from(JSON.stringify(value), 'utf8');
    srv.handle(async (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'X-Sched-Index': '9' });
      // Odd-sized pieces with pauses between them: the multi-byte characters fall across pieces.
      for (let at = 0; at < bytes.length; at += 7919) {
        res.write(bytes.subarray(at, at + 7919));
        await new Promise((r) => setTimeout(r, 2));
      }
      res.end();
    });
    const got = await make().get('/v1/jobs', Any);
    expect(got.value).toEqual(value);
    expect(got.meta.index).toBe(9);
  });

  it('times out a request whose headers do not come, and one whose body stops halfway', async () => {
    srv.handle(() => undefined); // never answers
    const t = make({ timeoutMs: 150, retries: { max: 0 } });
    const silent = await t.get('/v1/job/a', Any).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(RequestTimeoutError);
    expect(silent).toMatchObject({ method: 'GET', path: '/v1/job/a', timeoutMs: 150 });

    srv.handle((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ID": "half');
    });
    const stalled = await t.get('/v1/job/b', Any).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(RequestTimeoutError);
    expect(stalled).toMatchObject({ path: '/v1/job/b' });
  });

  it('aborts every request in flight under a signal, refuses new ones, and leaves the pool usable', async () => {
    srv.handle(() => undefined); // never answers
    const t = make();
    const ac = new AbortController();
    const inFlight = [
      t.get('/v1/job/a', Any, { signal: ac.signal }),
      t.get('/v1/job/b', Any, { signal: ac.signal }),
    ];
    while (srv.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    for (const p of inFlight) await expect(p).rejects.toMatchObject({ name: 'AbortError' });

    await expect(t.get('/v1/job/c', Any, { signal: ac.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(srv.requests).toHaveLength(2);

    srv.handle((_r, res) => json(res, 200, { ok: true }));
    expect((await t.get('/v1/job/d', Any)).value).toEqual({ ok: true });
  });

  it('gives a signal that served finished requests no say over later ones', async () => {
    srv.handle((_r, res) => json(res, 200, { ok: true }));
    const t = make();
    const first = new AbortController();
    for (let i = 0; i < 3; i++) await t.get('/v1/jobs', Any, { signal: first.signal });
    first.abort();
    const later = new AbortController();
    expect((await t.get('/v1/jobs', Any, { signal: later.signal })).value).toEqual({ ok: true });
  });

  it('reports an error page that is not JSON by its text, and a 200 that is not JSON as a schema error', async () => {
    srv.handle((_r, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway from the proxy</body></html>');
    });
    const page = await make({ retries: { max: 0 } })
      .get('/v1/jobs', Any)
      .catch((e: unknown) => e);
    expect(page).toBeInstanceOf(ServerError);
    expect((page as ServerError).serverMessage).toBe('<html><body>Bad gateway from the proxy</body></html>');

    srv.handle((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('all good');
    });
    const text = await make()
      .get('/v1/jobs', Any)
      .catch((e: unknown) => e);
    expect(text).toBeInstanceOf(ResponseSchemaError);
    expect((text as Error).message).toContain('body is not JSON (all good)');
  });

  it('retries a read whose connection is cut before the answer, never a plain write', async () => {
    let n = 0;
    srv.handle((_r, res) => {
      if (n++ === 0) return void res.socket?.destroy();
      json(res, 200, { ok: n });
    });
    const t = make({ retries: { max: 2, baseDelayMs: 1 } });
    expect((await t.get('/v1/jobs', Any)).value).toEqual({ ok: 2 });
    expect(srv.requests).toHaveLength(2);

    srv.handle((_r, res) => void res.socket?.destroy());
    await expect(t.send('PUT', '/v1/jobs', { Job: {} }, Any)).rejects.toBeInstanceOf(ConnectionError);
    expect(srv.requests).toHaveLength(3);
  });

  it('writes query strings exactly as URLSearchParams does, plain or not', async () => {
    const t = make({ namespace: 'team-a', region: 'eu_1' });
    await t.get('/v1/jobs', Any, { index: 7, wait: '10s', perPage: 5 });
    expect(srv.requests[0]!.url.search).toBe('?namespace=team-a&region=eu_1&index=7&wait=10s&per_page=5');

    const params = { q: "a b!'()~*+&=%/\u00e9", list: ['x y', 'z'] };
    await t.get('/v1/jobs', Any, { filter: 'Name == "web"', params });
    const expected = new URLSearchParams([
      ['namespace', 'team-a'],
      ['region', 'eu_1'],
      ['filter', 'Name == "web"'],
      ['q', params.q],
      ['list', 'x y'],
      ['list', 'z'],
    ]);
    expect(srv.requests[1]!.url.search).toBe(`?${expected.toString()}`);
    expect(srv.requests[1]!.url.searchParams.get('q')).toBe(params.q);
  });
});
