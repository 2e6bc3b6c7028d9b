import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { ConnectionError, NotFoundError, PermissionDeniedError } from '../../../src/api/errors';
import type { SchedClient } from '../../../src/api/sched/client';
import { ALLOC_ID, clientFor, startTestServer, type TestServer } from './server';

let srv: TestServer;
let wss: WebSocketServer;
let client: SchedClient;
let onConnection: (ws: WebSocket, req: IncomingMessage) => void;
let refuse: { status: number; message: string } | undefined;

beforeEach(async () => {
  srv = await startTestServer();
  refuse = undefined;
  wss = new WebSocketServer({
    server: srv.server,
    verifyClient: (_info, cb) => (refuse ? cb(false, refuse.status, refuse.message) : cb(true)),
  });
  wss.on('connection', (ws, req) => onConnection(ws, req));
  client = clientFor(srv, { token: 'exec-secret' });
});
afterEach(async () => {
  await client.close();
  for (const c of wss.clients) c.terminate();
  await new Promise((resolve) => wss.close(resolve));
  await srv.close();
});

const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function collect(it: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const chunk of it) out += Buffer.from(chunk).toString('utf8');
  return out;
}

describe('exec', () => {
  test('frames round trip: auth first, stdin, resize, output, exit code', async () => {
    const received: unknown[] = [];
    let url: URL | undefined;
    let tokenHeader: string | string[] | undefined;
    onConnection = (ws, req) => {
      url = new URL(req.url ?? '/', 'http://x');
      tokenHeader = req.headers['x-sched-token'];
      ws.on('message', (raw) => {
        const frame = JSON.parse(raw.toString()) as Record<string, unknown>;
        received.push(frame);
        const stdin = frame['stdin'] as { data?: string; close?: boolean } | undefined;
        if (stdin?.data) {
          // Echo stdin back, including control characters, and report on stderr.
          ws.send(JSON.stringify({ stdout: { data: stdin.data } }));
          ws.send(JSON.stringify({ stderr: { data: b64('warn\n') } }));
        }
        if (stdin?.close) {
          ws.send(JSON.stringify({ stdout: { close: true } }));
          ws.send(JSON.stringify({ stderr: { close: true } }));
          ws.send(JSON.stringify({ exited: true, result: { exit_code: 3 } }));
        }
      });
    };
    const session = await client.allocations.exec(ALLOC_ID, {
      command: ['/bin/sh', '-c', 'cat'],
      task: 'srv',
      tty: true,
      wsHandshake: true,
      namespace: 'team-a',
    });
    const out = collect(session.stdout);
    const err = collect(session.stderr);
    session.resize(40, 120);
    session.stdin.write('hi\u0003\n');
    session.stdin.write(new Uint8Array([0x1b, 0x5b, 0x41]));
    session.stdin.close();

    await expect(session.exited).resolves.toEqual({ exitCode: 3 });
    expect(await out).toBe('hi\u0003\n\u001b[A');
    expect(await err).toBe('warn\nwarn\n');
    expect(url?.pathname).toBe(`/v1/client/allocation/${ALLOC_ID}/exec`);
    expect(JSON.parse(url?.searchParams.get('command') ?? '')).toEqual(['/bin/sh', '-c', 'cat']);
    expect(url?.searchParams.get('task')).toBe('srv');
    expect(url?.searchParams.get('tty')).toBe('true');
    expect(url?.searchParams.get('ws_handshake')).toBe('true');
    expect(url?.searchParams.get('namespace')).toBe('team-a');
    expect(url?.search).not.toContain('exec-secret');
    expect(tokenHeader).toBe('exec-secret');
    expect(received).toEqual([
      { version: 1, auth_token: 'exec-secret' },
      { tty_size: { height: 40, width: 120 } },
      { stdin: { data: b64('hi\u0003\n') } },
      { stdin: { data: Buffer.from([0x1b, 0x5b, 0x41]).toString('base64') } },
      { stdin: { close: true } },
    ]);
  });

  test('without ws_handshake no auth frame is sent; heartbeats flow; callbacks receive output', async () => {
    const received: string[] = [];
    onConnection = (ws) => {
      ws.on('message', (raw) => {
        received.push(raw.toString());
        if (received.filter((r) => r === '{}').length === 2) {
          ws.send(JSON.stringify({}));
          ws.send(JSON.stringify({ stdout: { data: b64('done') } }));
          ws.send(JSON.stringify({ exited: true, result: { exit_code: 0 } }));
        }
      });
    };
    const chunks: string[] = [];
    const session = await client.allocations.exec(ALLOC_ID, {
      command: ['true'],
      task: 'srv',
      heartbeatMs: 15,
      onStdout: (d) => chunks.push(Buffer.from(d).toString()),
    });
    await expect(session.exited).resolves.toEqual({ exitCode: 0 });
    expect(received.slice(0, 2)).toEqual(['{}', '{}']);
    expect(chunks).toEqual(['done']);
  });

  test('a refused upgrade raises the typed error', async () => {
    refuse = { status: 403, message: 'Permission denied' };
    onConnection = () => undefined;
    await expect(client.allocations.exec(ALLOC_ID, { command: ['sh'], task: 'srv' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  test('a close with an error before exit rejects exited and the output streams', async () => {
    onConnection = (ws) => {
      ws.send(JSON.stringify({ stdout: { data: b64('partial') } }));
      setTimeout(() => ws.close(1008, 'unknown allocation'), 10);
    };
    const session = await client.allocations.exec(ALLOC_ID, { command: ['sh'], task: 'srv' });
    await expect(session.exited).rejects.toBeInstanceOf(NotFoundError);
    const chunks: string[] = [];
    await expect(
      (async () => {
        for await (const c of session.stdout) chunks.push(Buffer.from(c).toString());
      })(),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(chunks).toEqual(['partial']);
  });

  test('a normal close without an exit frame is a connection error', async () => {
    onConnection = (ws) => setTimeout(() => ws.close(1000), 5);
    const session = await client.allocations.exec(ALLOC_ID, { command: ['sh'], task: 'srv' });
    await expect(session.exited).rejects.toBeInstanceOf(ConnectionError);
  });

  test('abort ends the session', async () => {
    onConnection = () => undefined;
    const ac = new AbortController();
    const session = await client.allocations.exec(ALLOC_ID, {
      command: ['sh'],
      task: 'srv',
      signal: ac.signal,
    });
    ac.abort(new Error('stop now'));
    await expect(session.exited).rejects.toThrow('stop now');
    expect(() => session.stdin.write('x')).toThrow(ConnectionError);
  });
});
