/** Deregistering a job and waiting, with blocking queries, until its allocations have stopped. */
import { NotFoundError } from '../../../api/errors';
import { formatDuration } from '../../../api/duration';
import { watch } from '../../../api/watch';
import type { AllocationStub } from '../../../api/sched/schemas';
import type { ProgressEvent } from '../../resource';
import type { Deadline } from '../../common/timeouts';
import type { SchedProviderContext } from '../context';
import type { JobRef } from './state';
import { describeAllocations } from './failure';

export interface DestroyOptions {
  purge: boolean;
  /** Return once the deregistration is accepted, without waiting for the allocations. */
  detach: boolean;
  deadline: Deadline;
  onProgress?: (e: ProgressEvent) => void;
}

const stopped = (a: AllocationStub): boolean =>
  a.ClientStatus === 'complete' || a.ClientStatus === 'failed' || a.ClientStatus === 'lost';

export class DestroyTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestroyTimeoutError';
  }
}

/** Deregisters (purging when asked); a job that is already gone counts as destroyed. */
export async function destroyJob(ctx: SchedProviderContext, ref: JobRef, o: DestroyOptions): Promise<void> {
  const { client } = ctx;
  const report = (message: string): void => o.onProgress?.({ message: ctx.redact(message) });
  let left: AllocationStub[] | undefined;
  const timedOut = (): DestroyTimeoutError =>
    new DestroyTimeoutError(
      ctx.redact(
        `destroy of job ${ref.id} timed out after ${formatDuration(o.deadline.timeoutMs)}${
          left === undefined
            ? ' before the scheduler confirmed the deregistration'
            : `; still running:\n${describeAllocations(left)}`
        }`,
      ),
    );
  try {
    await client.jobs.deregister(ref.id, {
      namespace: ref.namespace,
      purge: o.purge,
      signal: o.deadline.signal,
    });
  } catch (e) {
    if (e instanceof NotFoundError) return;
    if (o.deadline.expired()) throw timedOut();
    throw e;
  }
  report(`job ${ref.id} ${o.purge ? 'purged' : 'stopped'}`);
  if (o.detach) return;
  left = [];
  try {
    for await (const { value } of watch(
      (index, signal) =>
        client.jobs.allocations(ref.id, { namespace: ref.namespace, index, wait: '30s', signal }),
      { signal: o.deadline.signal },
    )) {
      left = value.filter((a) => !stopped(a));
      if (left.length === 0) {
        report(`allocations of job ${ref.id} stopped`);
        return;
      }
      report(`waiting for ${left.length} allocation${left.length === 1 ? '' : 's'} of job ${ref.id} to stop`);
    }
  } catch (e) {
    if (e instanceof NotFoundError) return;
    if (!o.deadline.expired()) throw e;
  }
  if (o.deadline.expired()) throw timedOut();
  if (o.deadline.signal.aborted) throw abortError(o.deadline.signal);
}

export function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error('the operation was cancelled');
}
