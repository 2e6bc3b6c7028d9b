import { existsSync } from 'node:fs';
import WebSocket from 'ws';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { PermissionDeniedError } from '../../../src/api/errors';
import { SchedClient } from '../../../src/api/sched/client';
import type { ExecSession } from '../../../src/api/sched/exec';
import { call, Tokens } from '../sched-acl/helpers';

const ROOT = '9d2c4e6f-8a0b-4c1d-9e2f-3a4b5c6d7e8f';

async function text(it: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const c of it) out += Buffer.from(c).toString();
  return out;
}

/** Waits until the output so far contains `marker` (the process is ready for what comes next). */
async function waitFor(s: ExecSession, marker: string): Promise<AsyncIterator<Uint8Array>> {
  const it = s.stdout[Symbol.asyncIterator]();
  let seen = '';
  while (!seen.includes(marker)) {
    const r = await it.next();
    if (r.done) throw new Error(`stdout ended before "${marker}"; got ${seen}`);
    seen += Buffer.from(r.value).toString();
  }
  return it;
}

async function rest(it: AsyncIterator<Uint8Array>): Promise<string> {
  let out = '';
  for (let r = await it.next(); !r.done; r = await it.next()) out += Buffer.from(r.value).toString();
  return out;
}

describe('exec: signals, restarts and stops reach exec processes; ACLs and the WebSocket handshake', () => {
  let f: AgentFixture;
  let root: SchedClient;
  let tokens: Tokens;
  const base = (): string => f.agent.schedulerUrl;

  beforeAll(async () => {
    f = await startAgent({ registry: false, acl: true, bootstrapToken: ROOT });
    root = new SchedClient({ address: base(), env: {}, retries: { max: 0 }, token: ROOT });
    tokens = new Tokens(base(), ROOT);
  });
  afterAll(async () => {
    await root.close();
    await f.stop();
  });

  async function runningAlloc(job: string, driver = 'mock'): Promise<string> {
    const spec = mockJob(job, { count: 1 });
    spec.TaskGroups![0]!.Tasks![0]!.Driver = driver;
    await root.jobs.register(spec);
    return eventually(async () => {
      const { value } = await root.jobs.allocations(job);
      const a = value.find((x) => x.DesiredStatus === 'run' && x.TaskStates?.['server']?.State === 'running');
      expect(a).toBeDefined();
      return a!.ID!;
    });
  }

  const loop = (trap: string) => ['sh', '-c', `${trap} echo ready; while :; do sleep 0.05; done`];

  it('delivers the signal endpoint to the exec process', async () => {
    const id = await runningAlloc('sig');
    const s = await root.allocations.exec(id, {
      command: loop('trap "echo got-usr1" USR1;'),
      task: 'server',
    });
    const it = await waitFor(s, 'ready');
    await root.allocations.signal(id, { signal: 'SIGUSR1', task: 'server' });
    let seen = '';
    while (!seen.includes('got-usr1')) seen += Buffer.from((await it.next()).value as Uint8Array).toString();
    await root.allocations.signal(id, { signal: 'SIGTERM' });
    await rest(it);
    expect((await s.exited).exitCode).toBe(143);
  });

  it('a restart of the task kills its exec processes', async () => {
    const id = await runningAlloc('rst');
    const s = await root.allocations.exec(id, { command: loop(''), task: 'server' });
    const it = await waitFor(s, 'ready');
    await root.allocations.restart(id, { task: 'server' });
    await rest(it);
    expect((await s.exited).exitCode).toBe(137);
  });

  it('stopping the allocation kills its exec processes and removes its working directory', async () => {
    const id = await runningAlloc('stp');
    const s = await root.allocations.exec(id, {
      command: ['sh', '-c', 'pwd; while :; do sleep 0.05; done'],
      task: 'server',
    });
    const it = s.stdout[Symbol.asyncIterator]();
    const dir = Buffer.from((await it.next()).value as Uint8Array)
      .toString()
      .trim();
    expect(existsSync(dir)).toBe(true);
    await root.allocations.stop(id);
    await rest(it);
    expect((await s.exited).exitCode).toBe(137);
    await eventually(() => expect(existsSync(dir)).toBe(false));
  });

  it('needs alloc-exec in the allocation namespace', async () => {
    const id = await runningAlloc('acl');
    const reader = await tokens.withRules('namespace "default" { policy = "read" }');
    const writer = await tokens.withRules('namespace "default" { policy = "write" }');
    const as = (secret: string) =>
      new SchedClient({ address: base(), env: {}, retries: { max: 0 }, token: secret });
    const r = as(reader.SecretID);
    const w = as(writer.SecretID);
    try {
      const denied = await r.allocations.exec(id, { command: ['true'], task: 'server' });
      await expect(denied.exited).rejects.toBeInstanceOf(PermissionDeniedError);
      const s = await w.allocations.exec(id, { command: ['echo', 'hi'], task: 'server' });
      expect(await text(s.stdout)).toBe('hi\n');
      expect((await s.exited).exitCode).toBe(0);
    } finally {
      await r.close();
      await w.close();
    }
  });

  it('needs alloc-node-exec as well for a raw_exec task', async () => {
    const id = await runningAlloc('raw', 'raw_exec');
    const writer = await tokens.withRules('namespace "default" { policy = "write" }');
    const both = await tokens.withRules(
      'namespace "default" { policy = "write"\n capabilities = ["alloc-node-exec"] }',
    );
    const tryExec = async (secret: string): Promise<number | Error> => {
      const c = new SchedClient({ address: base(), env: {}, retries: { max: 0 }, token: secret });
      try {
        const s = await c.allocations.exec(id, { command: ['true'], task: 'server' });
        return (await s.exited).exitCode;
      } catch (e) {
        return e as Error;
      } finally {
        await c.close();
      }
    };
    expect(await tryExec(writer.SecretID)).toBeInstanceOf(PermissionDeniedError);
    expect(await tryExec(both.SecretID)).toBe(0);
  });

  it('with ws_handshake=true takes the token from the first frame', async () => {
    const id = await runningAlloc('hs');
    const writer = await tokens.withRules('# handshake\nnamespace "default" { policy = "write" }');
    const open = (token: string) =>
      new Promise<{ frames: Record<string, unknown>[]; code: number; reason: string }>((resolve, reject) => {
        const cmd = encodeURIComponent(JSON.stringify(['cat']));
        const ws = new WebSocket(
          `${base().replace('http', 'ws')}/v1/client/allocation/${id}/exec?task=server&command=${cmd}&ws_handshake=true`,
        );
        const frames: Record<string, unknown>[] = [];
        ws.on('open', () => {
          // The auth frame and the input right behind it, in one burst.
          ws.send(JSON.stringify({ version: 1, auth_token: token }));
          ws.send(JSON.stringify({ stdin: { data: Buffer.from('via handshake\n').toString('base64') } }));
          ws.send(JSON.stringify({ stdin: { close: true } }));
        });
        ws.on('message', (m: WebSocket.RawData) =>
          frames.push(JSON.parse(m.toString()) as Record<string, unknown>),
        );
        ws.on('close', (code, reason) => resolve({ frames, code, reason: reason.toString() }));
        ws.on('error', reject);
      });
    const ok = await open(writer.SecretID);
    expect(ok.code).toBe(1000);
    const out = ok.frames
      .map((fr) => (fr['stdout'] as { data?: string } | undefined)?.data)
      .filter((d): d is string => !!d)
      .map((d) => Buffer.from(d, 'base64').toString())
      .join('');
    expect(out).toBe('via handshake\n');
    expect(ok.frames[ok.frames.length - 1]).toEqual({ exited: true, result: { exit_code: 0 } });

    const bad = await open('00000000-0000-4000-8000-000000000000');
    expect([bad.code, bad.reason]).toEqual([1008, 'ACL token not found']);
    const reader = await tokens.withRules('# reader\nnamespace "default" { policy = "read" }');
    const denied = await open(reader.SecretID);
    expect([denied.code, denied.reason]).toEqual([1008, 'Permission denied']);
    // Without the handshake and without a header, the request is anonymous.
    const anon = await call(base(), 'GET', '/v1/jobs');
    expect(anon.status).toBe(403);
  });

  it('sends {} heartbeats while the process is quiet', async () => {
    const id = await runningAlloc('hb');
    f.agent.scheduler.exec.manager.heartbeatMs = 50;
    const cmd = encodeURIComponent(JSON.stringify(['sleep', '0.4']));
    const frames: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(
        `${base().replace('http', 'ws')}/v1/client/allocation/${id}/exec?task=server&command=${cmd}`,
        {
          headers: { 'x-sched-token': ROOT },
        },
      );
      ws.on('message', (m: WebSocket.RawData) => frames.push(m.toString()));
      ws.on('close', () => resolve());
      ws.on('error', reject);
    });
    expect(frames.filter((fr) => fr === '{}').length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(frames[frames.length - 1]!)).toEqual({ exited: true, result: { exit_code: 0 } });
  });
});
