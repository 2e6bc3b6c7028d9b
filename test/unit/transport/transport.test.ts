import { getEventListeners } from 'node:events';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import {
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RequestTimeoutError,
  ResponseSchemaError,
  ServerError,
  Transport,
  ValidationError,
  watch,
} from '../../../src/api';
import { json, startTestServer, type TestServer } from '../../helpers/http-server';

const SECRET = 'c0ffee00-secret-token-1234';
const Any = z.unknown();

describe('transport', () => {
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

  describe('headers and parameters', () => {
    it('sends the token header of the flavor, gzip acceptance, namespace and region, never pretty', async () => {
      srv.handle((_r, res) => json(res, 200, []));
      await make({ token: SECRET, region: 'eu', namespace: 'team', compression: true }).get('/v1/jobs', Any);
      const r = srv.requests[0]!;
      expect(r.headers['x-sched-token']).toBe(SECRET);
      expect(r.headers['accept-encoding']).toBe('gzip');
      expect(r.url.searchParams.get('namespace')).toBe('team');
      expect(r.url.searchParams.get('region')).toBe('eu');
      expect(r.url.searchParams.has('pretty')).toBe(false);
    });

    it('does not ask a server on this machine to compress (it would only cost CPU at both ends)', async () => {
      srv.handle((_r, res) => json(res, 200, []));
      await make().get('/v1/jobs', Any);
      expect(srv.requests[0]!.headers['accept-encoding']).toBe('identity');
    });

    it('uses Authorization: Bearer when asked', async () => {
      await make({ token: SECRET, authScheme: 'bearer' }).get('/v1/jobs', Any);
      expect(srv.requests[0]!.headers['authorization']).toBe(`Bearer ${SECRET}`);
      expect(srv.requests[0]!.headers['x-sched-token']).toBeUndefined();
    });

    it('switches header names and environment variables with the flavor', async () => {
      srv.handle((_r, res) => json(res, 200, {}, { 'X-Nomad-Index': '42' }));
      const t = make({
        address: undefined,
        flavor: 'nomad',
        env: { NOMAD_ADDR: srv.url, NOMAD_TOKEN: SECRET },
      });
      const { meta } = await t.get('/v1/job/x', Any);
      expect(srv.requests[0]!.headers['x-nomad-token']).toBe(SECRET);
      expect(meta.index).toBe(42);
    });

    it('reads SCHED_ADDR and SCHED_TOKEN for the default flavor, and REG_* / ns for the registry', async () => {
      await make({ address: undefined, env: { SCHED_ADDR: srv.url, SCHED_TOKEN: SECRET } }).get('/v1/a', Any);
      expect(srv.requests[0]!.headers['x-sched-token']).toBe(SECRET);
      const reg = make({
        service: 'registry',
        address: undefined,
        namespace: 'ops',
        env: { REG_HTTP_ADDR: srv.url.replace('http://', ''), REG_HTTP_TOKEN: 'reg-token-value' },
      });
      await reg.get('/v1/namespaces', Any);
      expect(srv.requests[1]!.headers['x-reg-token']).toBe('reg-token-value');
      expect(srv.requests[1]!.url.searchParams.get('ns')).toBe('ops');
    });

    it('passes blocking, filter and pagination parameters', async () => {
      await make().get('/v1/jobs', Any, {
        index: 7,
        wait: '10s',
        filter: 'Status == "running"',
        perPage: 5,
        nextToken: 'abc',
        reverse: true,
        stale: true,
        params: { meta: true, topic: ['Job:*', 'Node'] },
      });
      const q = srv.requests[0]!.url.searchParams;
      expect(q.get('index')).toBe('7');
      expect(q.get('wait')).toBe('10s');
      expect(q.get('filter')).toBe('Status == "running"');
      expect(q.get('per_page')).toBe('5');
      expect(q.get('next_token')).toBe('abc');
      expect(q.get('reverse')).toBe('true');
      expect(q.has('stale')).toBe(true);
      expect(q.get('meta')).toBe('true');
      expect(q.getAll('topic')).toEqual(['Job:*', 'Node']);
    });
  });

  describe('responses', () => {
    it('returns the value with meta from the headers', async () => {
      srv.handle((_r, res) =>
        json(res, 200, [{ ID: 'a' }], {
          'X-Sched-Index': '12',
          'X-Sched-LastContact': '3',
          'X-Sched-KnownLeader': 'true',
          'X-Sched-NextToken': 'n1',
        }),
      );
      const { value, meta } = await make().get('/v1/jobs', z.array(z.looseObject({ ID: z.string() })));
      expect(value).toEqual([{ ID: 'a' }]);
      expect(meta).toEqual({ index: 12, lastContact: 3, knownLeader: true, nextToken: 'n1' });
    });

    it('reports ACL filtering of registry lists', async () => {
      srv.handle((_r, res) =>
        json(res, 200, [], { 'X-Reg-Results-Filtered-By-ACLs': 'true', 'X-Reg-Index': '3' }),
      );
      const { meta } = await make({ service: 'registry' }).get('/v1/peerings', Any);
      expect(meta.filteredByAcls).toBe(true);
      expect(meta.index).toBe(3);
    });

    it('decompresses gzip bodies', async () => {
      srv.handle((_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify({ ID: 'zipped' })));
      });
      const { value } = await make().get('/v1/job/z', z.looseObject({ ID: z.string() }));
      expect(value.ID).toBe('zipped');
    });

    it('keeps unknown fields and names the field that breaks the schema', async () => {
      srv.handle((_r, res) => json(res, 200, { TaskGroups: [{ Name: 'web', Count: 'three' }], Extra: 1 }));
      const schema = z.looseObject({
        TaskGroups: z.array(z.looseObject({ Name: z.string(), Count: z.number() })),
      });
      const err = await make()
        .get('/v1/job/x', schema)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseSchemaError);
      expect((err as ResponseSchemaError).field).toBe('TaskGroups[0].Count');
      expect((err as Error).message).toContain('TaskGroups[0].Count');
      srv.handle((_r, res) => json(res, 200, { TaskGroups: [], Extra: 1 }));
      const ok = await make().get('/v1/job/x', schema);
      expect(ok.value).toEqual({ TaskGroups: [], Extra: 1 });
    });
  });

  describe('errors', () => {
    it.each([
      [400, ValidationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [503, ServerError],
    ])('maps HTTP %d to its error class with method, path and message', async (status, cls) => {
      srv.handle((_r, res) => {
        res.statusCode = status;
        res.end('the server says no');
      });
      const err = await make({ retries: { max: 0 } })
        .send('POST', '/v1/jobs', { Job: {} }, Any)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(cls);
      expect(err).toMatchObject({
        status,
        method: 'POST',
        path: '/v1/jobs',
        serverMessage: 'the server says no',
      });
    });

    it('maps Nomad CAS failures (HTTP 500) to ConflictError', async () => {
      srv.handle((_r, res) => {
        res.statusCode = 500;
        res.end('Enforcing job modify index 5: job exists with conflicting job modify index: 7');
      });
      const err = await make()
        .send('POST', '/v1/jobs', {}, Any)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(srv.requests).toHaveLength(1);
    });

    it('never lets a token appear in an error, its path or its message', async () => {
      srv.handle((r, res) => {
        res.statusCode = 403;
        res.end(`token ${String(r.headers['x-sched-token'])} is not allowed`);
      });
      const err = await make({ token: SECRET })
        .get('/v1/job/x', Any, { params: { token: SECRET } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PermissionDeniedError);
      const dump = JSON.stringify({
        ...(err as object),
        message: (err as Error).message,
        stack: (err as Error).stack,
      });
      expect(dump).not.toContain(SECRET);
      expect((err as PermissionDeniedError).serverMessage).toContain('[redacted]');
    });

    it('reports an unreachable server as a ConnectionError without the token', async () => {
      const url = srv.url;
      await srv.close();
      const t = new Transport({
        service: 'scheduler',
        address: url,
        token: SECRET,
        env: {},
        retries: { max: 1, baseDelayMs: 1 },
      });
      transports.push(t);
      const err = await t.get('/v1/jobs', Any).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect(JSON.stringify({ m: (err as Error).message, ...(err as object) })).not.toContain(SECRET);
      srv = await startTestServer();
    });
  });

  describe('retries', () => {
    it('retries idempotent reads on 5xx and 429 with backoff, then succeeds', async () => {
      let n = 0;
      srv.handle((_r, res) => {
        n++;
        if (n === 1) return json(res, 503, 'busy');
        if (n === 2) return json(res, 429, 'slow down');
        json(res, 200, { ok: true });
      });
      const { value } = await make({ retries: { max: 3, baseDelayMs: 5 } }).get('/v1/jobs', Any);
      expect(value).toEqual({ ok: true });
      expect(srv.requests).toHaveLength(3);
    });

    it('gives up after the configured attempts', async () => {
      srv.handle((_r, res) => json(res, 502, 'down'));
      const err = await make({ retries: { max: 2, baseDelayMs: 1 } })
        .get('/v1/jobs', Any)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServerError);
      expect(srv.requests).toHaveLength(3);
    });

    it('never retries a write, but retries one that carries an idempotency token', async () => {
      srv.handle((_r, res) => json(res, 503, 'down'));
      await expect(
        make({ retries: { max: 3, baseDelayMs: 1 } }).send('PUT', '/v1/jobs', {}, Any),
      ).rejects.toThrow(ServerError);
      expect(srv.requests).toHaveLength(1);
      await expect(
        make({ retries: { max: 2, baseDelayMs: 1 } }).send('POST', '/v1/job/x/dispatch', {}, Any, {
          idempotent: true,
        }),
      ).rejects.toThrow(ServerError);
      expect(srv.requests).toHaveLength(4);
    });

    it('does not retry 4xx', async () => {
      srv.handle((_r, res) => json(res, 404, 'job not found'));
      await expect(make({ retries: { max: 3, baseDelayMs: 1 } }).get('/v1/job/x', Any)).rejects.toThrow(
        NotFoundError,
      );
      expect(srv.requests).toHaveLength(1);
    });
  });

  describe('cancellation and blocking', () => {
    it('aborts an in-flight blocking read with the caller signal', async () => {
      srv.handle(() => undefined); // never answers
      const ac = new AbortController();
      const started = Date.now();
      const p = make().get('/v1/jobs', Any, { index: 5, wait: '5m', signal: ac.signal });
      setTimeout(() => ac.abort(), 50);
      await expect(p).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('aborts a retry backoff', async () => {
      srv.handle((_r, res) => json(res, 503, 'down'));
      const ac = new AbortController();
      const p = make({ retries: { max: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 } }).get('/v1/jobs', Any, {
        signal: ac.signal,
      });
      setTimeout(() => ac.abort(), 100);
      const started = Date.now();
      await expect(p).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });

  describe('close', () => {
    it('ends the connections of an idle transport', async () => {
      const sockets: Socket[] = [];
      srv.server.on('connection', (s: Socket) => sockets.push(s));
      const t = make();
      await t.get('/v1/jobs', Any);
      expect(sockets).toHaveLength(1);
      const closed = Promise.all(sockets.map((s) => new Promise((resolve) => s.once('close', resolve))));
      await t.close();
      await closed;
      await expect(t.get('/v1/jobs', Any)).rejects.toThrow('transport is closed');
    });

    it('lets a request in flight finish first', async () => {
      let answer: (() => void) | undefined;
      srv.handle((_r, res) => void (answer = () => json(res, 200, { ok: true })));
      const t = make();
      const read = t.get('/v1/jobs', Any);
      while (!answer) await new Promise((resolve) => setTimeout(resolve, 5));
      const closing = t.close();
      answer();
      expect((await read).value).toEqual({ ok: true });
      await closing;
    });
  });

  describe('pagination', () => {
    it('follows the next token until it is absent', async () => {
      const all = Array.from({ length: 7 }, (_, i) => ({ ID: `job-${i}` }));
      srv.handle((r, res) => {
        const per = Number(r.url.searchParams.get('per_page'));
        const start = r.url.searchParams.get('next_token')
          ? all.findIndex((j) => j.ID === r.url.searchParams.get('next_token'))
          : 0;
        const page = all.slice(start, start + per);
        const next = all[start + per];
        json(res, 200, page, next ? { 'X-Sched-NextToken': next.ID } : {});
      });
      const seen: string[] = [];
      for await (const j of make().paginate('/v1/jobs', z.looseObject({ ID: z.string() }), { perPage: 3 }))
        seen.push(j.ID);
      expect(seen).toEqual(all.map((j) => j.ID));
      expect(srv.requests).toHaveLength(3);
      expect(srv.requests[2]!.url.searchParams.get('next_token')).toBe('job-6');
    });
  });

  describe('watch', () => {
    it('yields each new index, ignores unchanged ones without spinning, and resets when the index goes back', async () => {
      const indexes = [3, 3, 3, 5, 2, 4];
      let call = 0;
      srv.handle((_r, res) =>
        json(
          res,
          200,
          { n: call },
          { 'X-Sched-Index': String(indexes[Math.min(call++, indexes.length - 1)]) },
        ),
      );
      const t = make();
      const ac = new AbortController();
      const seen: number[] = [];
      const sent: number[] = [];
      for await (const r of watch(
        (index, signal) => {
          sent.push(index);
          return t.get('/v1/job/x', Any, { index, wait: '1s', signal });
        },
        { signal: ac.signal, minBackoffMs: 20 },
      )) {
        seen.push(r.meta.index);
        if (seen.length === 4) ac.abort();
      }
      expect(seen).toEqual([3, 5, 2, 4]);
      // After index 5 came back as 2, the next read started over from 0.
      expect(sent).toEqual([0, 3, 3, 3, 5, 0]);
    });
  });

  // The JSON request path below the calls (src/api/dispatch.ts).
  describe('request path', () => {
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

    it('listens to a signal once however many requests it covers (no MaxListeners warning)', async () => {
      const answer: Array<() => void> = [];
      srv.handle((_r, res) => void answer.push(() => json(res, 200, { ok: true })));
      const t = make();
      const ac = new AbortController();
      const all = Array.from({ length: 25 }, (_, i) => t.get(`/v1/job/j${i}`, Any, { signal: ac.signal }));
      while (answer.length < 25) await new Promise((r) => setTimeout(r, 5));
      expect(getEventListeners(ac.signal, 'abort')).toHaveLength(1);
      for (const a of answer) a();
      expect((await Promise.all(all)).map((r) => r.value)).toEqual(all.map(() => ({ ok: true })));
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
      expect((page as ServerError).serverMessage).toBe(
        '<html><body>Bad gateway from the proxy</body></html>',
      );

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
});
