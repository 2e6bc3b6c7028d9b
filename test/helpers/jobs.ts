/** Small job builders for tests: the API shape of spec section 2, with the mock driver. */
import type { Job } from '../../src/api/sched/schemas';

export interface JobOpts {
  count?: number;
  type?: string;
  cpu?: number;
  memory?: number;
  config?: Record<string, unknown>;
  meta?: Record<string, string>;
  update?: Job['Update'];
  namespace?: string;
}

export function mockJob(id: string, o: JobOpts = {}): Job {
  return {
    ID: id,
    Name: id,
    Type: o.type ?? 'service',
    Namespace: o.namespace,
    Datacenters: ['dc1'],
    Meta: o.meta,
    Update: o.update,
    TaskGroups: [
      {
        Name: 'web',
        Count: o.count ?? 2,
        RestartPolicy: { Attempts: 1, Interval: 60e9, Delay: 1e9, Mode: 'fail' },
        Tasks: [
          {
            Name: 'server',
            Driver: 'mock',
            Config: o.config ?? { run_for: '1h' },
            Resources: { CPU: o.cpu ?? 100, MemoryMB: o.memory ?? 64 },
          },
        ],
      },
    ],
  };
}

/** A rolling update block with short times (the agent runs at time scale 0.01 in tests). */
export function rolling(extra: Partial<NonNullable<Job['Update']>> = {}): NonNullable<Job['Update']> {
  return {
    MaxParallel: 1,
    MinHealthyTime: 1e9,
    HealthyDeadline: 30e9,
    ProgressDeadline: 60e9,
    HealthCheck: 'task_states',
    AutoRevert: false,
    ...extra,
  };
}
