/**
 * Running a command the way a user types it in a shell, for the fresh-clone figure: its wall time, the
 * CPU of it and everything it started, and each line of its output with the moment it arrived, so the
 * phases of a `cdktf-sched deploy` can be told apart by the lines that open them.
 */
import { spawn } from 'node:child_process';
import { childrenCpuMs } from './lib';

export interface TimedLine {
  /** performance.now() when the line arrived. */
  at: number;
  text: string;
}

export interface TimedRun {
  /** Exit code; undefined when the command was stopped at its time limit. */
  code: number | undefined;
  startedAt: number;
  wallMs: number;
  /** CPU (ms) of the command and every process it waited for. */
  cpuMs: number;
  lines: TimedLine[];
}

export interface TimedOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Splits chunks into lines, stamping each with the arrival of the chunk that completed it. */
function lineCollector(lines: TimedLine[]): { push(d: Buffer): void; flush(): void } {
  let partial = '';
  return {
    push(d) {
      const at = performance.now();
      const parts = (partial + d.toString()).split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) lines.push({ at, text });
    },
    flush() {
      if (partial) lines.push({ at: performance.now(), text: partial });
      partial = '';
    },
  };
}

export function runTimed(cmd: string, args: string[], opts: TimedOptions): Promise<TimedRun> {
  const lines: TimedLine[] = [];
  const out = lineCollector(lines);
  const err = lineCollector(lines);
  const cpu0 = childrenCpuMs();
  const startedAt = performance.now();
  // Its own process group, so that a stop at the time limit reaches what it started (npx's node, the
  // synth's app, the CLI's dev agent) and leaves nothing running in the clone being removed.
  const child = spawn(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, opts.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', (e) => {
      clearTimeout(limit);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(limit);
      out.flush();
      err.flush();
      resolve({
        code: timedOut ? undefined : (code ?? 1),
        startedAt,
        wallMs: performance.now() - startedAt,
        cpuMs: childrenCpuMs() - cpu0,
        lines,
      });
    });
  });
}

/** The last `n` characters of the run's output, for an error message. */
export function outputTail(run: TimedRun, n = 3000): string {
  const text = run.lines.map((l) => l.text).join('\n');
  return text.length > n ? `...${text.slice(-n)}` : text;
}
