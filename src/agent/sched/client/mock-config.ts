/**
 * How the mock driver behaves for one task, read from the task's Config. Jobs written for other
 * drivers (docker, exec) run with the defaults: a service keeps running, a batch task completes.
 */
import { parseDuration } from '../../../api/duration';

export interface MockBehaviour {
  /** ns; undefined = run until stopped. */
  runFor?: number;
  exitCode: number;
  startError?: string;
  startErrorRecoverable: boolean;
  /** ns before the task counts as started. */
  startBlockFor: number;
  /** ns a task takes to exit once told to stop (the kill_timeout cuts it short), as Nomad's mock driver. */
  killAfter: number;
  healthy: boolean;
}

function durationNs(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') return parseDuration(v) * 1e6;
  return undefined;
}

export function mockBehaviour(
  config: Record<string, unknown> | null | undefined,
  jobType: string,
): MockBehaviour {
  const c = config ?? {};
  const batch = jobType === 'batch' || jobType === 'sysbatch';
  let runFor = durationNs(c['run_for']);
  if (runFor === undefined && batch) runFor = 0;
  return {
    runFor,
    exitCode: typeof c['exit_code'] === 'number' ? c['exit_code'] : Number(c['exit_code'] ?? 0) || 0,
    startError:
      typeof c['start_error'] === 'string' && c['start_error'] !== '' ? c['start_error'] : undefined,
    startErrorRecoverable: c['start_error_recoverable'] === true,
    startBlockFor: durationNs(c['start_block_for']) ?? 0,
    killAfter: durationNs(c['kill_after']) ?? 0,
    healthy: c['healthy'] !== false && c['healthy'] !== 'false',
  };
}
