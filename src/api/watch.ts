/**
 * Turns a blocking read into a stream of changes. The rules are those Nomad's and Consul's clients
 * follow: the index only moves forward; when it goes backwards (a restored snapshot, a new cluster)
 * start over from 0; and a read that returns at once with an unchanged index never causes a tight loop.
 */
import type { Result } from './transport';

export interface WatchOptions {
  signal?: AbortSignal;
  /** Start from this index instead of reading the current value first. */
  startIndex?: number;
  /** Yield even when the index did not move (the wait ran out); default false. */
  yieldOnTimeout?: boolean;
  /** Pause after a read that returned early without progress (default 50 ms, doubling to 5 s). */
  minBackoffMs?: number;
}

const MAX_IDLE_BACKOFF_MS = 5_000;

export async function* watch<T>(
  read: (index: number, signal: AbortSignal | undefined) => Promise<Result<T>>,
  opts: WatchOptions = {},
): AsyncGenerator<Result<T>, void, undefined> {
  let index = opts.startIndex ?? 0;
  const minBackoff = opts.minBackoffMs ?? 50;
  let backoff = minBackoff;
  for (;;) {
    if (opts.signal?.aborted) return;
    const started = Date.now();
    let result: Result<T>;
    try {
      result = await read(index, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) return;
      throw err;
    }
    const next = result.meta.index;
    if (next > index) {
      index = next;
      backoff = minBackoff;
      yield result;
      continue;
    }
    if (next < index) {
      // The server's index went backwards: its state was reset. Re-read from scratch.
      index = 0;
      yield result;
      continue;
    }
    if (opts.yieldOnTimeout) yield result;
    // Unchanged index. A blocking read that came back early (an idempotent write, a misbehaving
    // proxy) must not turn into a busy loop.
    if (Date.now() - started < 1_000) {
      await new Promise((r) => setTimeout(r, backoff));
      backoff = Math.min(backoff * 2, MAX_IDLE_BACKOFF_MS);
    }
  }
}
