import { DeployProgress, describeGroups, formatElapsed } from '../../../../src/engine/render/progress';
import { stripAnsi } from '../../../../src/engine/render/style';

class Sink {
  chunks: string[] = [];
  constructor(
    readonly isTTY: boolean,
    readonly columns = 120,
  ) {}
  write(s: string): boolean {
    this.chunks.push(s);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
  /** What a terminal would show: applies "cursor up N, clear to end" sequences. */
  get screen(): string[] {
    const lines: string[] = [];
    let cur = '';
    // eslint-disable-next-line no-control-regex
    for (const token of this.text.split(/(\x1b\[\d+A\r\x1b\[J|\n)/)) {
      // eslint-disable-next-line no-control-regex
      const up = /^\x1b\[(\d+)A\r\x1b\[J$/.exec(token);
      if (up) lines.splice(lines.length - Number(up[1]));
      else if (token === '\n') {
        lines.push(cur);
        cur = '';
      } else cur += token;
    }
    return lines;
  }
}

describe('deploy progress', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 0;
  });

  it('without a TTY writes plain lines, only when something changed', () => {
    const sink = new Sink(false);
    const p = new DeployProgress({ stream: sink, now: clock });
    p.start('sched_job.web', 'update');
    const groups = { web: { desired: 3, placed: 1, healthy: 0, unhealthy: 0, canaries: 1 } };
    p.event('sched_job.web', { message: 'deployment 1a2b3c4d running', groups });
    now = 5000;
    p.event('sched_job.web', { message: 'deployment 1a2b3c4d running', groups });
    p.tick();
    p.event('sched_job.web', {
      message: 'deployment 1a2b3c4d running',
      groups: { web: { ...groups.web, placed: 3, healthy: 2 } },
    });
    now = 12_000;
    p.finish('sched_job.web', { ok: true, id: 'web' });
    p.close();
    expect(sink.text.split('\n')).toEqual([
      'sched_job.web: Modifying...',
      'sched_job.web: deployment 1a2b3c4d running — web: 0/3 healthy, 1 placed, 1 canary',
      'sched_job.web: deployment 1a2b3c4d running — web: 2/3 healthy, 1 canary',
      'sched_job.web: Modifications complete after 12s [id=web]',
      '',
    ]);
    // eslint-disable-next-line no-control-regex
    expect(sink.text).not.toMatch(/\x1b/);
  });

  it('on a TTY keeps running resources in a block redrawn in place', () => {
    const sink = new Sink(true);
    const p = new DeployProgress({ stream: sink, now: clock, tickMs: 0 });
    p.start('sched_job.a', 'create');
    p.start('sched_job.b', 'delete');
    p.event('sched_job.a', { message: 'evaluation complete' });
    expect(sink.screen).toEqual([
      'sched_job.a: Creating...',
      'sched_job.b: Destroying...',
      'sched_job.a: evaluation complete [0s elapsed]',
      'sched_job.b: Destroying... [0s elapsed]',
    ]);
    const before = sink.chunks.length;
    p.tick(); // nothing changed: nothing written
    expect(sink.chunks.length).toBe(before);
    now = 3000;
    p.tick();
    expect(sink.screen.slice(2)).toEqual([
      'sched_job.a: evaluation complete [3s elapsed]',
      'sched_job.b: Destroying... [3s elapsed]',
    ]);
    p.finish('sched_job.b', { ok: false, error: 'namespace has jobs' });
    expect(sink.screen).toEqual([
      'sched_job.a: Creating...',
      'sched_job.b: Destroying...',
      'sched_job.b: Destruction failed after 3s: namespace has jobs',
      'sched_job.a: evaluation complete [3s elapsed]',
    ]);
    p.finish('sched_job.a', { ok: true });
    p.close();
    expect(sink.screen).toEqual([
      'sched_job.a: Creating...',
      'sched_job.b: Destroying...',
      'sched_job.b: Destruction failed after 3s: namespace has jobs',
      'sched_job.a: Creation complete after 3s',
    ]);
  });

  it('cuts live lines to the terminal width so redraws stay aligned', () => {
    const sink = new Sink(true, 30);
    const p = new DeployProgress({ stream: sink, now: clock, tickMs: 0, color: true });
    p.start('sched_job.with_a_long_name', 'update');
    p.event('sched_job.with_a_long_name', { message: 'x'.repeat(100) });
    for (const line of sink.screen.slice(1)) expect(stripAnsi(line).length).toBeLessThan(30);
    p.close();
  });

  it('never prints secrets it was told about', () => {
    const sink = new Sink(false);
    const p = new DeployProgress({ stream: sink, secrets: ['tok-123456'] });
    p.start('sched_job.a', 'create');
    p.finish('sched_job.a', { ok: false, error: 'bad token tok-123456' });
    expect(sink.text).toContain('bad token (sensitive value)');
  });

  /** The same reports, with a turn of the event loop ending after each group of them. */
  async function reportInTurns(p: DeployProgress): Promise<void> {
    const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
    p.start('sched_job.a', 'create');
    p.start('sched_job.b', 'create');
    p.event('sched_job.a', { message: 'evaluation complete' });
    await turn();
    p.event('sched_job.b', { message: 'secret tok-123456 echoed' });
    p.finish('sched_job.a', { ok: true, id: 'a' });
    await turn();
    p.event('sched_job.b', { message: 'deployment running' });
    p.finish('sched_job.b', { ok: true, id: 'b' });
    p.close();
  }

  it.each([false, true])('coalescing (TTY %s) writes what it would have, once per turn', async (tty) => {
    const plain = new Sink(tty);
    await reportInTurns(
      new DeployProgress({ stream: plain, now: clock, tickMs: 0, secrets: ['tok-123456'] }),
    );
    const sink = new Sink(tty);
    const p = new DeployProgress({
      stream: sink,
      now: clock,
      tickMs: 0,
      secrets: ['tok-123456'],
      coalesce: true,
    });
    p.start('sched_job.x', 'create');
    expect(sink.chunks).toEqual([]); // held until the turn ends
    p.close();
    expect(sink.screen).toEqual(['sched_job.x: Creating...']);
    const coalesced = new Sink(tty);
    await reportInTurns(
      new DeployProgress({
        stream: coalesced,
        now: clock,
        tickMs: 0,
        secrets: ['tok-123456'],
        coalesce: true,
      }),
    );
    expect(coalesced.screen).toEqual(plain.screen);
    expect(coalesced.text).not.toContain('tok-123456');
    expect(coalesced.text).toContain('sched_job.b: secret (sensitive value) echoed');
    expect(coalesced.chunks.length).toBe(3);
    expect(plain.chunks.length).toBeGreaterThan(6);
  });

  it('formats elapsed times and group counts', () => {
    expect(formatElapsed(59_999)).toBe('59s');
    expect(formatElapsed(125_000)).toBe('2m05s');
    expect(
      describeGroups({
        web: { desired: 2, placed: 2, healthy: 2, unhealthy: 0, canaries: 0 },
        api: { desired: 3, placed: 3, healthy: 1, unhealthy: 1, canaries: 2 },
      }),
    ).toBe('api: 1/3 healthy, 2 canaries, 1 unhealthy; web: 2/2 healthy');
  });
});
