import type { Job } from '../../../src/agent/sched/diff';

/** A canonical service job (as the agent stores it) with one group of one task. */
export function baseJob(): Job {
  return {
    ID: 'web',
    Name: 'web',
    Namespace: 'default',
    Region: 'global',
    Type: 'service',
    Priority: 50,
    AllAtOnce: false,
    Datacenters: ['dc1'],
    Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }],
    Meta: { owner: 'team-a' },
    Status: 'running',
    StatusDescription: '',
    Version: 3,
    Stable: true,
    SubmitTime: 1_700_000_000_000_000_000,
    CreateIndex: 10,
    ModifyIndex: 42,
    JobModifyIndex: 40,
    TaskGroups: [
      {
        Name: 'frontend',
        Count: 2,
        Meta: null,
        RestartPolicy: { Attempts: 2, Interval: 1_800_000_000_000, Delay: 15_000_000_000, Mode: 'fail' },
        Update: {
          MaxParallel: 1,
          HealthCheck: 'checks',
          MinHealthyTime: 10_000_000_000,
          Stagger: 30_000_000_000,
        },
        EphemeralDisk: { Sticky: false, SizeMB: 300, Migrate: false },
        Networks: [{ Mode: 'host', MBits: 0, DynamicPorts: [{ Label: 'http', Value: 0, To: 8080 }] }],
        Services: [
          {
            Name: 'web',
            PortLabel: 'http',
            Tags: ['v1'],
            Checks: [{ Name: 'alive', Type: 'tcp', Interval: 10_000_000_000 }],
          },
        ],
        Tasks: [
          {
            Name: 'server',
            Driver: 'docker',
            User: '',
            Config: { image: 'nginx:1.25', ports: ['http'], args: ['-g', 'daemon off;'] },
            Env: { MODE: 'prod' },
            Meta: null,
            KillTimeout: 5_000_000_000,
            Resources: { CPU: 100, MemoryMB: 128, DiskMB: 0 },
            LogConfig: { MaxFiles: 10, MaxFileSizeMB: 10, Disabled: false },
            Templates: null,
            Artifacts: null,
          },
        ],
      },
    ],
  };
}

type Mutable = Record<string, unknown> & {
  TaskGroups: (Record<string, unknown> & { Tasks: Record<string, unknown>[] })[];
};

/** A deep copy of the base job, changed by `edit`. */
export function editJob(edit: (job: Mutable) => void, from: Job = baseJob()): Job {
  const copy = structuredClone(from) as unknown as Mutable;
  edit(copy);
  return copy as unknown as Job;
}

export function group(job: Mutable, i = 0): Mutable['TaskGroups'][number] {
  return job.TaskGroups[i]!;
}

export function task(job: Mutable, g = 0, t = 0): Record<string, unknown> {
  return job.TaskGroups[g]!.Tasks[t]!;
}
