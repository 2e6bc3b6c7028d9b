/**
 * Terraform-style `timeouts { create = "10m" }` blocks and the deadline signals that enforce them. A
 * handler waits on blocking queries; the deadline aborts the query in flight rather than being checked
 * between polls, so a timeout is noticed at once.
 */
import { z } from 'zod';
import { formatDuration } from '../../api/duration';
import { attr } from '../schema';
import { durationMs, durationString } from './duration';

export type TimeoutOperation = 'create' | 'update' | 'delete' | 'read';

/** The `timeouts` block for the given operations (each a duration, optional). */
export function timeoutsAttribute(ops: readonly TimeoutOperation[], description?: string) {
  const fields: Record<string, z.ZodType> = {};
  for (const op of ops) {
    fields[op] = attr(durationString({ nonZero: true }).nullish(), {
      optional: true,
      description: `How long ${op} may take, e.g. "10m".`,
    });
  }
  return attr(z.object(fields).nullish(), {
    optional: true,
    block: 'single',
    description: description ?? 'Time limits of the operations that wait for the cluster.',
  });
}

/** The configured timeout of one operation in ms, or `fallbackMs` when not set. */
export function operationTimeoutMs(timeouts: unknown, op: TimeoutOperation, fallbackMs: number): number {
  if (!timeouts || typeof timeouts !== 'object') return fallbackMs;
  const ms = durationMs((timeouts as Record<string, unknown>)[op]);
  return ms !== undefined && ms > 0 ? ms : fallbackMs;
}

/** Raised when an operation runs past its time limit. */
export class OperationTimeoutError extends Error {
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    detail: string,
  ) {
    super(`${operation} timed out after ${formatDuration(timeoutMs)}${detail ? `: ${detail}` : ''}`);
    this.name = 'OperationTimeoutError';
  }
}

export interface Deadline {
  /** Aborts when the time runs out or the parent signal aborts. */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** True when the deadline (not the parent) fired. */
  expired(): boolean;
  /** Milliseconds left, at least 0. */
  remainingMs(): number;
  dispose(): void;
}

/** A signal that fires after `timeoutMs`, or when `parent` aborts. Call dispose() when done. */
export function deadline(timeoutMs: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const endsAt = Date.now() + timeoutMs;
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort(new Error(`deadline of ${formatDuration(timeoutMs)} reached`));
  }, timeoutMs);
  const onParent = (): void => controller.abort(parent?.reason);
  if (parent?.aborted) onParent();
  else parent?.addEventListener('abort', onParent, { once: true });
  return {
    signal: controller.signal,
    timeoutMs,
    expired: () => fired,
    remainingMs: () => Math.max(0, endsAt - Date.now()),
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
