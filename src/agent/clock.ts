/**
 * Time for the simulated cluster. Every duration the agent waits on (run_for, min_healthy_time,
 * deadlines, restart delays) goes through `scaled`, so `--time-scale 0.01` runs a whole canary
 * deployment in a fraction of a second while timestamps stay real.
 */
export class Clock {
  private readonly timers = new Set<NodeJS.Timeout>();
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
    if (this.stopped) return () => undefined;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, this.scaledMs(ns));
    this.timers.add(t);
    return () => {
      clearTimeout(t);
      this.timers.delete(t);
    };
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

export const SECOND_NS = 1e9;
export const MINUTE_NS = 60 * SECOND_NS;

export function rfc3339(ms: number | null | undefined): string {
  return ms ? new Date(ms).toISOString() : '0001-01-01T00:00:00Z';
}
