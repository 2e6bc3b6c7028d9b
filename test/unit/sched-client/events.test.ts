import { PermissionDeniedError, ResponseSchemaError } from '../../../src/api/errors';
import type { SchedClient } from '../../../src/api/sched/client';
import type { EventStreamMessage } from '../../../src/api/sched/schemas';
import { clientFor, startTestServer, type TestServer } from './server';

let srv: TestServer;
let client: SchedClient;

beforeEach(async () => {
  srv = await startTestServer();
  client = clientFor(srv);
});
afterEach(async () => {
  await client.close();
  await srv.close();
});

function msg(index: number, key = 'web'): string {
  return (
    JSON.stringify({
      Index: index,
      Events: [
        {
          Topic: 'Job',
          Type: 'JobRegistered',
          Key: key,
          Namespace: 'default',
          FilterKeys: null,
          Index: index,
          Payload: { Job: { ID: key } },
        },
      ],
    }) + '\n'
  );
}

describe('event stream', () => {
  test('skips heartbeats and resumes after drops from the last delivered index + 1', async () => {
    let conn = 0;
    srv.route('GET', '/v1/event/stream', (_req, res) => {
      conn++;
      res.writeHead(200, { 'content-type': 'application/json' });
      if (conn === 1) {
        res.write('{}\n');
        res.write(msg(5));
        // Two lines in one chunk, the second split across chunks.
        const six = msg(6);
        res.write('{}\n' + six.slice(0, 10));
        setTimeout(() => {
          res.write(six.slice(10));
          // An abrupt drop: no chunked terminator.
          setTimeout(() => res.socket?.destroy(), 20);
        }, 20);
      } else if (conn === 2) {
        // The server may repeat the resume point; it must not be delivered twice.
        res.write(msg(6));
        res.write(msg(7));
        res.end(); // a clean close is a drop too
      } else {
        res.write('{}\n');
        res.write(msg(9, 'api'));
      }
    });
    const ac = new AbortController();
    const got: EventStreamMessage[] = [];
    for await (const m of client.events.stream({
      topics: { Job: ['*'], Deployment: ['web'], Node: [] },
      namespace: 'team-a',
      signal: ac.signal,
      reconnect: { baseDelayMs: 5, maxDelayMs: 10 },
    })) {
      got.push(m);
      if (m.Index === 9) ac.abort();
    }
    expect(got.map((m) => m.Index)).toEqual([5, 6, 7, 9]);
    expect(got[3]?.Events?.[0]?.Payload?.Job?.ID).toBe('api');
    expect(conn).toBe(3);
    const [first, second, third] = srv.requests;
    expect(first?.query.getAll('topic')).toEqual(['Job:*', 'Deployment:web', 'Node']);
    expect(first?.query.get('namespace')).toBe('team-a');
    expect(first?.query.has('index')).toBe(false);
    expect(second?.query.get('index')).toBe('7');
    expect(second?.query.getAll('topic')).toEqual(['Job:*', 'Deployment:web', 'Node']);
    expect(third?.query.get('index')).toBe('8');
  });

  test('starts from the given index', async () => {
    srv.route('GET', '/v1/event/stream', (_req, res) => {
      res.writeHead(200);
      res.write(msg(12));
    });
    const ac = new AbortController();
    for await (const m of client.events.stream({ index: 12, signal: ac.signal })) {
      expect(m.Index).toBe(12);
      ac.abort();
    }
    expect(srv.requests[0]?.query.get('index')).toBe('12');
    expect(srv.requests[0]?.query.has('topic')).toBe(false);
  });

  test('a refusal is not retried', async () => {
    srv.route('GET', '/v1/event/stream', {
      status: 403,
      body: 'Permission denied',
      headers: { 'content-type': 'text/plain' },
    });
    const it = client.events.stream({ topics: { '*': ['*'] }, reconnect: { baseDelayMs: 1 } });
    await expect(
      (async () => {
        for await (const _ of it) void _;
      })(),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(srv.requests).toHaveLength(1);
  });

  test('a malformed message names the field', async () => {
    srv.route('GET', '/v1/event/stream', (_req, res) => {
      res.writeHead(200);
      res.end(
        JSON.stringify({ Index: 3, Events: [{ Topic: 'Job', Type: 'JobRegistered', Index: 'three' }] }) +
          '\n',
      );
    });
    const err = await (async () => {
      for await (const _ of client.events.stream({ reconnect: false })) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseSchemaError);
    expect((err as ResponseSchemaError).field).toBe('Events[0].Index');
  });

  test('gives up after maxAttempts consecutive failed reconnects', async () => {
    srv.route('GET', '/v1/event/stream', {
      status: 500,
      body: 'no leader',
      headers: { 'content-type': 'text/plain' },
    });
    const err = await (async () => {
      for await (const _ of client.events.stream({
        reconnect: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 },
      }))
        void _;
    })().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/HTTP 500/);
    expect(srv.requests).toHaveLength(3);
  });

  test('without reconnect a clean close ends the iteration', async () => {
    srv.route('GET', '/v1/event/stream', (_req, res) => {
      res.writeHead(200);
      res.end(msg(1));
    });
    const got: number[] = [];
    for await (const m of client.events.stream({ reconnect: false })) got.push(m.Index);
    expect(got).toEqual([1]);
    expect(srv.requests).toHaveLength(1);
  });
});
