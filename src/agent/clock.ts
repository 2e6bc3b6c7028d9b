/**
 * Time for the simulated cluster. Every duration the agent waits on (run_for, min_healthy_time,
 * deadlines, restart delays) goes through `scaled`, so `--time-scale 0.01` runs a whole canary
 * deployment in a fraction of a second while timestamps stay real.
 *
 * Every timer of the agent is armed here, because Node's setTimeout holds at most 2^31-1 ms (about
 * 24.8 days) and fires a longer delay at once: a `run_for = "10000h"` or a periodic launch a year
 * ahead is armed in steps and re-armed until its time has really come.
 */

/** The longest delay setTimeout honours; anything longer fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer the clock may have to re-arm several times before it fires. */
interface Pending {
  timer: NodeJS.Timeout | undefined;
}

export class Clock {
  private readonly pending = new Set<Pending>();
  private stopped = false;

  constructor(readonly scale = 1) {
    if (!(scale > 0)) throw new Error(`time scale must be a positive number, got ${scale}`);
  }

  /**
   * Wall-clock nanoseconds with sub-millisecond precision (Nomad reports UnixNano), so a benchmark can
   * measure how soon a client reacts to a timestamped change.
   */
  nowNs(): number {
    return Math.round((performance.timeOrigin + performance.now()) * 1e6);
  }

  /** Real milliseconds for a job duration given in nanoseconds. */
  scaledMs(ns: number): number {
    return Math.max(0, (ns / 1e6) * this.scale);
  }

  /** Runs fn after a job duration (ns), scaled; returns a cancel function. */
  after(ns: number, fn: () => void): () => void {
    const due = performance.now() + this.scaledMs(ns);
    return this.arm(() => due - performance.now(), fn);
  }

  /**
   * Runs fn at a wall-clock time (epoch ms) already computed from scaled durations and recorded in
   * the store (a progress deadline, an evaluation's WaitUntil, a task's start plus its run_for), so a
   * restarted agent waits only for what is left.
   */
  at(epochMs: number, fn: () => void): () => void {
    return this.arm(() => epochMs - Date.now(), fn);
  }

  stop(): void {
    this.stopped = true;
    for (const p of this.pending) clearTimeout(p.timer);
    this.pending.clear();
  }

  /** Arms setTimeout for what is left (at most MAX_TIMER_MS at a time) until nothing is. */
  private arm(left: () => number, fn: () => void): () => void {
    if (this.stopped) return () => undefined;
    const p: Pending = { timer: undefined };
    const delay = (): number => Math.min(Math.max(0, Math.ceil(left())), MAX_TIMER_MS);
    const step = (): void => {
      // Less than a millisecond left is due: Node's timers count whole milliseconds.
      if (left() >= 1) {
        p.timer = setTimeout(step, delay());
        return;
      }
      this.pending.delete(p);
      fn();
    };
    // Even a zero delay goes through a timer: callers arm timers mid-transaction.
    p.timer = setTimeout(step, delay());
    this.pending.add(p);
    return () => {
      clearTimeout(p.timer);
      this.pending.delete(p);
    };
  }
}

export const SECOND_NS = 1e9;
export const MINUTE_NS = 60 * SECOND_NS;

export function rfc3339(ms: number | null | undefined): string {
  return ms ? new Date(ms).toISOString() : '0001-01-01T00:00:00Z';
}
