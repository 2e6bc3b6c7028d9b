/** What the agent process costs, read from /proc: CPU time with nanosecond precision and open sockets. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { cpuSeconds } from './lib';

/**
 * CPU seconds of every thread of `pid`. /proc/<pid>/stat counts in 10 ms ticks, which is a third of the
 * 2% target over a 3 s window; the scheduler's per-thread run time (schedstat) is exact. A thread that
 * exits between two readings takes its time with it, so readings are only compared across a quiet window.
 */
export function cpuTime(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
    if (ns > 0) return ns / 1e9;
  } catch {
    // a kernel without schedstat: fall back to ticks
  }
  return cpuSeconds(pid);
}

/** Open socket descriptors of `pid` (listening, idle keep-alive and in-flight connections alike). */
export function socketCount(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

/** Share of one core the process used over `seconds` of waiting, in percent. */
export async function cpuShare(pid: number, seconds: number): Promise<number> {
  const start = cpuTime(pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const wall = (performance.now() - t0) / 1000;
  return ((cpuTime(pid) - start) / wall) * 100;
}

/**
 * Waits until the process used less than `percent` of a core over half a second, at most `maxMs`;
 * returns the seconds waited.
 */
export async function settle(pid: number, percent: number, maxMs: number): Promise<number> {
  const started = performance.now();
  while ((await cpuShare(pid, 0.5)) >= percent && performance.now() - started < maxMs);
  return (performance.now() - started) / 1000;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
