import { existsSync } from 'node:fs';
import WebSocket from 'ws';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { NotFoundError, ValidationError } from '../../../src/api/errors';
import type { ExecSession } from '../../../src/api/sched/exec';

async function collect(it: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of it) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

async function runToEnd(s: ExecSession): Promise<{ out: string; err: string; code: number }> {
  const [out, err, { exitCode }] = await Promise.all([collect(s.stdout), collect(s.stderr), s.exited]);
  return { out, err, code: exitCode };
}

/** Raw frames of one exec session, for what the typed client hides (frame order, close codes). */
function rawExec(
  url: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<{
  ws: WebSocket;
  frames: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
}> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${query}`, { headers });
  const frames: Record<string, unknown>[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (raw: WebSocket.RawData) =>
    frames.push(JSON.parse(raw.toString()) as Record<string, unknown>),
  );
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, frames, closed }));
    ws.on('error', reject);
  });
}

describe('exec in an allocation over a WebSocket', () => {
  let f: AgentFixture;
  let allocId = '';
  beforeAll(async () => {
    f = await startAgent({ registry: false });
    await f.sched.jobs.register(mockJob('shell', { count: 1 }));
    allocId = await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('shell');
      expect(value[0]?.TaskStates?.['server']?.State).toBe('running');
      return value[0]!.ID!;
    });
  });
  afterAll(() => f.stop());

  const exec = (command: string[], extra: { tty?: boolean } = {}) =>
    f.sched.allocations.exec(allocId, { command, task: 'server', heartbeatMs: 60_000, ...extra });

  it('runs echo and streams its output, then the exit code 0', async () => {
    const r = await runToEnd(await exec(['echo', 'hello', 'world']));
    expect(r).toEqual({ out: 'hello world\n', err: '', code: 0 });
  });

  it('feeds stdin to cat and closes it', async () => {
    const s = await exec(['cat']);
    s.stdin.write('line one\n');
    s.stdin.write(Buffer.from([0x00, 0xff, 0x0a]));
    s.stdin.close();
    const r = await runToEnd(s);
    expect(Buffer.from(r.out, 'utf8').subarray(0, 9).toString()).toBe('line one\n');
    expect(r.code).toBe(0);
  });

  it('reports the exit code and stderr of a failing command', async () => {
    const r = await runToEnd(await exec(['sh', '-c', 'echo oops >&2; exit 3']));
    expect(r).toEqual({ out: '', err: 'oops\n', code: 3 });
  });

  it('answers a command that does not exist with exit code 127 on stderr', async () => {
    const r = await runToEnd(await exec(['no-such-command-xyz']));
    expect(r.code).toBe(127);
    expect(r.err).toContain('no-such-command-xyz');
  });

  it('runs in a per-allocation working directory with the task environment', async () => {
    const r = await runToEnd(
      await exec(['sh', '-c', 'pwd; echo "$NOMAD_ALLOC_ID $NOMAD_TASK_NAME $NOMAD_JOB_ID"']),
    );
    const [dir, env] = r.out.trim().split('\n');
    expect(dir).toContain(allocId);
    expect(env).toBe(`${allocId} server shell`);
    expect(existsSync(dir!)).toBe(true);
    await runToEnd(await exec(['sh', '-c', 'echo kept > state.txt']));
    const again = await runToEnd(await exec(['cat', 'state.txt']));
    expect(again.out).toBe('kept\n');
  });

  it('sends the frames of the spec in order: data, closes, exited', async () => {
    const q = `/v1/client/allocation/${allocId}/exec?task=server&command=${encodeURIComponent(JSON.stringify(['sh', '-c', 'printf out; printf err >&2; exit 5']))}`;
    const { frames, closed } = await rawExec(f.agent.schedulerUrl, q);
    const end = await closed;
    expect(end.code).toBe(1000);
    const data = frames.filter((fr) => Object.keys(fr).length > 0);
    const decoded = data.map((fr) => {
      const [k, v] = Object.entries(fr)[0]! as [string, { data?: string; close?: boolean }];
      if (k === 'exited') return fr;
      return v.data !== undefined ? { [k]: Buffer.from(v.data, 'base64').toString() } : { [k]: 'close' };
    });
    expect(decoded).toContainEqual({ stdout: 'out' });
    expect(decoded).toContainEqual({ stderr: 'err' });
    expect(decoded.slice(-1)).toEqual([{ exited: true, result: { exit_code: 5 } }]);
    expect(decoded.filter((d) => d['stdout'] === 'close' || d['stderr'] === 'close')).toHaveLength(2);
    const lastData = Math.max(
      ...decoded.map((d, i) => (typeof d['stdout'] === 'string' && d['stdout'] !== 'close' ? i : -1)),
    );
    expect(lastData).toBeLessThan(decoded.findIndex((d) => d['stdout'] === 'close'));
  });

  it('with tty, sends stderr as stdout, records the terminal size and turns Ctrl-C into SIGINT', async () => {
    const s = await exec(
      ['sh', '-c', 'trap "echo interrupted; exit 130" INT; echo ready >&2; while :; do sleep 0.05; done'],
      {
        tty: true,
      },
    );
    s.resize(40, 120);
    const it = s.stdout[Symbol.asyncIterator]();
    const first = await it.next();
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('ready\n');
    await eventually(() =>
      expect(f.agent.scheduler.exec.manager.sessionsOf(allocId)[0]?.ttySize).toEqual({
        height: 40,
        width: 120,
      }),
    );
    s.stdin.write('\u0003');
    let rest = '';
    for (let r = await it.next(); !r.done; r = await it.next()) rest += Buffer.from(r.value).toString();
    expect(rest).toContain('interrupted');
    expect((await s.exited).exitCode).toBe(130);
  });

  it('refuses malformed queries with 400 before the upgrade, unknown tasks and allocations with 404', async () => {
    const noTask = await f.sched.allocations.exec(allocId, {
      command: ['true'],
      task: 'nope',
      heartbeatMs: 60_000,
    });
    await expect(noTask.exited).rejects.toBeInstanceOf(NotFoundError);
    const raw = new WebSocket(
      `${f.agent.schedulerUrl.replace('http', 'ws')}/v1/client/allocation/${allocId}/exec?task=server&command=notjson`,
    );
    const status = await new Promise<number>((resolve) =>
      raw.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(400);
    const missing = await f.sched.allocations
      .exec('11111111-2222-4333-8444-555555555555', { command: ['true'], task: 'server' })
      .then((s) => s.exited)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
  });

  it('refuses a command that cannot be passed to a process (NUL byte) with a close frame, not a crash', async () => {
    const s = await exec(['echo', 'a\u0000b']);
    await expect(s.exited).rejects.toBeInstanceOf(ValidationError);
    expect(f.agent.scheduler.exec.manager.sessionsOf(allocId)).toEqual([]);
    expect((await runToEnd(await exec(['true']))).code).toBe(0);
  });

  it('refuses a task that is not running', async () => {
    const err = await f.sched.allocations
      .exec(allocId, { command: ['true'], task: '', heartbeatMs: 60_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    await f.sched.jobs.register(
      mockJob('batch-done', { count: 1, type: 'batch', config: { run_for: '0s' } }),
    );
    const done = await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('batch-done');
      expect(value[0]?.ClientStatus).toBe('complete');
      return value[0]!.ID!;
    });
    const s = await f.sched.allocations.exec(done, { command: ['true'], task: 'server' });
    await expect(s.exited).rejects.toBeInstanceOf(ValidationError);
  });
});
