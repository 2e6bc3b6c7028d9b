/**
 * Waiting for the registry to reach a state: with blocking queries where the endpoint supports them
 * (a namespace read wakes the moment its row changes or goes), and with a bounded backoff poll where it
 * does not (peering reads are not blocking, spec 4.3).
 */
import { NotFoundError } from '../../api/errors';
import type { Result } from '../../api/transport';
import { watch } from '../../api/watch';
import { deadline, OperationTimeoutError, type Deadline } from '../common/timeouts';

export interface WaitOptions {
  /** The operation, for the timeout message: `deleting namespace "team-a"`. */
  operation: string;
  /** What is awaited, for the timeout message: `namespace "team-a" still exists`. */
  what: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Longest single blocking read; the overall deadline is enforced by aborting it. */
const BLOCKING_WAIT = '30s';
const POLL_MIN_MS = 25;
const POLL_MAX_MS = 2_000;

/** Why the wait ended early: the caller's cancellation as it is, or the time limit as OperationTimeoutError. */
function stopped(d: Deadline, opts: WaitOptions): Error {
  if (d.expired()) return new OperationTimeoutError(opts.operation, opts.timeoutMs, opts.what);
  const reason: unknown = opts.signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Follows a blocking read until `done` accepts its value; a NotFoundError counts as the value `null`.
 * Resolves to the accepted value.
 */
export async function waitBlocking<T>(
  read: (index: number, wait: string, signal: AbortSignal) => Promise<Result<T>>,
  done: (value: T | null) => boolean,
  opts: WaitOptions,
): Promise<T | null> {
  const d = deadline(opts.timeoutMs, opts.signal);
  const { signal } = d;
  try {
    for await (const r of watch((index, s) => read(index, BLOCKING_WAIT, s ?? signal), { signal })) {
      if (done(r.value)) return r.value;
    }
  } catch (err) {
    if (err instanceof NotFoundError && done(null)) return null;
    if (!signal.aborted) throw err;
  } finally {
    d.dispose();
  }
  throw stopped(d, opts);
}

/**
 * Polls `read` with a doubling pause (25 ms to 2 s) until `done` accepts its value; a NotFoundError counts as
 * `null`. For endpoints without blocking queries, where the poll is the only way to notice a change.
 */
export async function poll<T>(
  read: (signal: AbortSignal) => Promise<T>,
  done: (value: T | null) => boolean,
  opts: WaitOptions,
): Promise<T | null> {
  const d = deadline(opts.timeoutMs, opts.signal);
  const { signal } = d;
  try {
    return await pollLoop(read, done, signal);
  } catch (err) {
    if (!signal.aborted) throw err;
    throw stopped(d, opts);
  } finally {
    d.dispose();
  }
}

async function pollLoop<T>(
  read: (signal: AbortSignal) => Promise<T>,
  done: (value: T | null) => boolean,
  signal: AbortSignal,
): Promise<T | null> {
  let pause = POLL_MIN_MS;
  for (;;) {
    signal.throwIfAborted();
    let value: T | null;
    try {
      value = await read(signal);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      value = null;
    }
    if (done(value)) return value;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, pause);
      function finish(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        resolve();
      }
      signal.addEventListener('abort', finish, { once: true });
    });
    pause = Math.min(pause * 2, POLL_MAX_MS);
  }
}
