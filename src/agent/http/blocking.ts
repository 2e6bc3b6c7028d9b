/**
 * Blocking queries as Nomad and Consul serve them: with `index`, the answer waits until the watched
 * data moves past that index or `wait` (default 5m, at most 10m, plus up to wait/16 of jitter) runs out.
 * Waiting costs nothing: the store wakes exactly the queries whose tables or keys were written.
 */
import type { Store, WatchSpec } from '../store';
import { HttpError } from './errors';
import { durationParamMs, intParam } from './query';
import type { Reply, RequestContext } from './router';

export const DEFAULT_WAIT_MS = 5 * 60_000;
export const MAX_WAIT_MS = 10 * 60_000;

export interface Snapshot<T> {
  value: T;
  index: number;
  headers?: Record<string, string>;
}

export async function blockingRead<T>(
  ctx: RequestContext,
  store: Store,
  watch: WatchSpec,
  readSnapshot: () => Snapshot<T>,
): Promise<Reply> {
  const read = withErrorIndex(readSnapshot, store, watch);
  const minIndex = effectiveMinIndex(intParam(ctx.query, 'index', { min: 0 }) ?? 0, store);
  let snap = read();
  if (minIndex === 0 || snap.index > minIndex) return toReply(snap);
  const wait = Math.min(durationParamMs(ctx.query, 'wait') ?? DEFAULT_WAIT_MS, MAX_WAIT_MS);
  const deadline = Date.now() + wait + Math.random() * (wait / 16);
  let waitIndex = minIndex;
  let lastWoke = -1;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0 || ctx.signal.aborted) return toReply(snap);
    const woke = await store.waitFor(watch, waitIndex, remaining, ctx.signal).catch(() => waitIndex);
    // Every write wakes with a newer index. Waking twice at one index means nothing was written: a
    // closing store answers at once, and waiting again would spin on microtasks until the deadline,
    // starving the event loop that would deliver the abort.
    if (woke === lastWoke) return toReply(read());
    lastWoke = woke;
    // A wake whose write does not change what this query returns must not spin: wait past it.
    waitIndex = Math.max(waitIndex, woke);
    snap = read();
    if (snap.index > minIndex) return toReply(snap);
  }
}

/**
 * An index the store has not reached yet cannot be one the client saw: it comes from before a restore
 * to older state, or from another cluster. Consul resets such an index to 0 so the read answers at
 * once with the current index, and the client's loop starts again from there; waiting the whole
 * `wait` would only hide the mismatch.
 */
function effectiveMinIndex(requested: number, store: Store): number {
  return requested > store.index ? 0 : requested;
}

/** A read that fails (the job is not there) still answers the index of what it watched, as Nomad does. */
function withErrorIndex<T>(read: () => Snapshot<T>, store: Store, watch: WatchSpec): () => Snapshot<T> {
  return () => {
    try {
      return read();
    } catch (err) {
      if (err instanceof HttpError) err.index = Math.max(0, ...watch.map((w) => store.tableIndex(w.table)));
      throw err;
    }
  };
}

function toReply<T>(snap: Snapshot<T>): Reply {
  return { body: snap.value, index: snap.index, headers: snap.headers };
}
