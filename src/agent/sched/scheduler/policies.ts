/** Restart and reschedule policy defaults by job type (Nomad's), and the reschedule delay series. */
import type { Job } from '../model';
import { MINUTE_NS, SECOND_NS } from '../../clock';
import type { Group } from './resources';

export interface RestartPolicyValues {
  Attempts: number;
  Interval: number;
  Delay: number;
  Mode: string;
}

export interface ReschedulePolicyValues {
  Attempts: number;
  Interval: number;
  Delay: number;
  DelayFunction: string;
  MaxDelay: number;
  Unlimited: boolean;
}

const HOUR_NS = 60 * MINUTE_NS;

type Loose<T> = { [K in keyof T]?: T[K] | null };

export function restartPolicy(
  job: Job,
  group: Group,
  taskPolicy?: Loose<RestartPolicyValues> | null,
): RestartPolicyValues {
  const batch = job.Type === 'batch' || job.Type === 'sysbatch';
  const base: RestartPolicyValues = batch
    ? { Attempts: 3, Interval: 24 * HOUR_NS, Delay: 15 * SECOND_NS, Mode: 'fail' }
    : { Attempts: 2, Interval: 30 * MINUTE_NS, Delay: 15 * SECOND_NS, Mode: 'fail' };
  const g = group.RestartPolicy ?? {};
  const t = taskPolicy ?? {};
  return {
    Attempts: t.Attempts ?? g.Attempts ?? base.Attempts,
    Interval: t.Interval ?? g.Interval ?? base.Interval,
    Delay: t.Delay ?? g.Delay ?? base.Delay,
    Mode: t.Mode ?? g.Mode ?? base.Mode,
  };
}

export function reschedulePolicy(job: Job, group: Group): ReschedulePolicyValues {
  const batch = job.Type === 'batch' || job.Type === 'sysbatch';
  const base: ReschedulePolicyValues = batch
    ? {
        Attempts: 1,
        Interval: 24 * HOUR_NS,
        Delay: 5 * SECOND_NS,
        DelayFunction: 'constant',
        MaxDelay: 0,
        Unlimited: false,
      }
    : {
        Attempts: 0,
        Interval: 0,
        Delay: 30 * SECOND_NS,
        DelayFunction: 'exponential',
        MaxDelay: HOUR_NS,
        Unlimited: true,
      };
  const p = group.ReschedulePolicy ?? job.Reschedule ?? {};
  return {
    Attempts: p.Attempts ?? base.Attempts,
    Interval: p.Interval ?? base.Interval,
    Delay: p.Delay ?? base.Delay,
    DelayFunction: p.DelayFunction ?? base.DelayFunction,
    MaxDelay: p.MaxDelay ?? base.MaxDelay,
    Unlimited: p.Unlimited ?? base.Unlimited,
  };
}

/** Delay before the (n+1)th reschedule, n = reschedules so far. */
export function rescheduleDelay(p: ReschedulePolicyValues, n: number): number {
  let d: number;
  switch (p.DelayFunction) {
    case 'exponential':
      d = p.Delay * Math.pow(2, n);
      break;
    case 'fibonacci': {
      let a = p.Delay;
      let b = p.Delay;
      for (let i = 1; i < n; i++) [a, b] = [b, a + b];
      d = n === 0 ? p.Delay : b;
      break;
    }
    default:
      d = p.Delay;
  }
  return p.MaxDelay > 0 ? Math.min(d, p.MaxDelay) : d;
}
