import { parseJobspec } from '../../../src/agent/sched/jobspec';
import { canonicalizeJob, comparableJob } from '../../../src/api/sched/canonicalize';
import type { Job } from '../../../src/api/sched/schemas';

const SECOND = 1e9;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

function minimal(type?: string): Job {
  return {
    ID: 'app',
    ...(type ? { Type: type } : {}),
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'docker' }] }],
  };
}

describe('canonicalizeJob defaults', () => {
  const job = canonicalizeJob(minimal());
  const group = job.TaskGroups?.[0];
  const task = group?.Tasks?.[0];

  it('fills the job defaults', () => {
    expect(job).toMatchObject({
      ID: 'app',
      Name: 'app',
      Region: 'global',
      Namespace: 'default',
      Type: 'service',
      Priority: 50,
      Datacenters: ['*'],
      NodePool: 'default',
      AllAtOnce: false,
      Stop: false,
      ParentID: '',
      Meta: null,
      Constraints: null,
      Periodic: null,
    });
  });

  it('gives service jobs and their groups the default update strategy', () => {
    const update = {
      Stagger: 30 * SECOND,
      MaxParallel: 1,
      HealthCheck: 'checks',
      MinHealthyTime: 10 * SECOND,
      HealthyDeadline: 5 * MINUTE,
      ProgressDeadline: 10 * MINUTE,
      AutoRevert: false,
      Canary: 0,
      AutoPromote: false,
    };
    expect(job.Update).toEqual(update);
    expect(group?.Update).toEqual(update);
  });

  it('fills the group defaults for a service job', () => {
    expect(group).toMatchObject({
      Count: 1,
      EphemeralDisk: { Sticky: false, Migrate: false, SizeMB: 300 },
      RestartPolicy: {
        Attempts: 2,
        Interval: 30 * MINUTE,
        Delay: 15 * SECOND,
        Mode: 'fail',
        RenderTemplates: false,
      },
      ReschedulePolicy: {
        Attempts: 0,
        Interval: 0,
        Delay: 30 * SECOND,
        DelayFunction: 'exponential',
        MaxDelay: HOUR,
        Unlimited: true,
      },
      Migrate: {
        MaxParallel: 1,
        HealthCheck: 'checks',
        MinHealthyTime: 10 * SECOND,
        HealthyDeadline: 5 * MINUTE,
      },
    });
  });

  it('fills the task defaults', () => {
    expect(task).toMatchObject({
      KillTimeout: 5 * SECOND,
      Leader: false,
      User: '',
      Resources: { CPU: 100, Cores: 0, MemoryMB: 300, DiskMB: null },
      LogConfig: { MaxFiles: 10, MaxFileSizeMB: 10, Disabled: false },
      Config: null,
      Env: null,
    });
    expect(task?.RestartPolicy).toEqual(group?.RestartPolicy);
  });

  it('uses the batch defaults for batch jobs and no update strategy', () => {
    const b = canonicalizeJob(minimal('batch'));
    const g = b.TaskGroups?.[0];
    expect(b.Update).toBeNull();
    expect(g?.Update).toBeNull();
    expect(g?.Migrate).toBeNull();
    expect(g?.RestartPolicy).toEqual({
      Attempts: 3,
      Interval: 24 * HOUR,
      Delay: 15 * SECOND,
      Mode: 'fail',
      RenderTemplates: false,
    });
    expect(g?.ReschedulePolicy).toEqual({
      Attempts: 1,
      Interval: 24 * HOUR,
      Delay: 5 * SECOND,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    });
  });

  it('gives system jobs no reschedule policy', () => {
    expect(canonicalizeJob(minimal('system')).TaskGroups?.[0]?.ReschedulePolicy).toBeNull();
  });

  it('keeps CPU at 0 when cores are requested', () => {
    const j = minimal();
    (j.TaskGroups?.[0]?.Tasks?.[0] as Record<string, unknown>).Resources = { Cores: 2 };
    expect(canonicalizeJob(j).TaskGroups?.[0]?.Tasks?.[0]?.Resources).toMatchObject({
      Cores: 2,
      CPU: 0,
      MemoryMB: 300,
    });
  });
});

describe('canonicalizeJob merging', () => {
  it('merges job update into groups, group settings winning', () => {
    const j: Job = {
      ID: 'a',
      Update: { MaxParallel: 3, Canary: 1 },
      TaskGroups: [{ Name: 'g', Update: { MaxParallel: 5 }, Tasks: [] }, { Name: 'h' }],
    };
    const c = canonicalizeJob(j);
    expect(c.Update).toMatchObject({ MaxParallel: 3, Canary: 1, Stagger: 30 * SECOND });
    expect(c.TaskGroups?.[0]?.Update).toMatchObject({ MaxParallel: 5, Canary: 1 });
    expect(c.TaskGroups?.[1]?.Update).toMatchObject({ MaxParallel: 3, Canary: 1 });
    expect(c.TaskGroups?.[0]?.Tasks).toBeNull();
  });

  it('merges task restart settings over the group ones', () => {
    const j = minimal();
    const g = j.TaskGroups?.[0] as Record<string, unknown>;
    g.RestartPolicy = { Attempts: 7 };
    (j.TaskGroups?.[0]?.Tasks?.[0] as Record<string, unknown>).RestartPolicy = { Mode: 'delay' };
    const c = canonicalizeJob(j);
    expect(c.TaskGroups?.[0]?.RestartPolicy).toMatchObject({ Attempts: 7, Mode: 'fail' });
    expect(c.TaskGroups?.[0]?.Tasks?.[0]?.RestartPolicy).toMatchObject({
      Attempts: 7,
      Mode: 'delay',
      Delay: 15 * SECOND,
    });
  });

  it('names services and fills service and check defaults', () => {
    const j = minimal();
    const g = j.TaskGroups?.[0] as Record<string, unknown>;
    g.Services = [{ PortLabel: 'http', CheckRestart: { Limit: 3 }, Checks: [{ Type: 'http', Path: '/' }] }];
    (j.TaskGroups?.[0]?.Tasks?.[0] as Record<string, unknown>).Services = [{}];
    const c = canonicalizeJob(j);
    const s = c.TaskGroups?.[0]?.Services?.[0];
    expect(s).toMatchObject({
      Name: 'app-g',
      AddressMode: 'auto',
      OnUpdate: 'require_healthy',
      Provider: 'registry',
      Tags: null,
    });
    expect(s?.Checks?.[0]).toMatchObject({
      Type: 'http',
      Path: '/',
      OnUpdate: 'require_healthy',
      CheckRestart: { Limit: 3, Grace: SECOND, IgnoreWarnings: false },
    });
    expect(c.TaskGroups?.[0]?.Tasks?.[0]?.Services?.[0]?.Name).toBe('app-g-t');
  });

  it('fills periodic and template defaults', () => {
    const j = minimal('batch');
    j.Periodic = { Spec: '@daily' };
    (j.TaskGroups?.[0]?.Tasks?.[0] as Record<string, unknown>).Templates = [
      { DestPath: 'x', ChangeMode: 'signal' },
    ];
    const c = canonicalizeJob(j);
    expect(c.Periodic).toEqual({
      Enabled: true,
      Spec: '@daily',
      SpecType: 'cron',
      ProhibitOverlap: false,
      TimeZone: 'UTC',
      Specs: null,
    });
    expect(c.TaskGroups?.[0]?.Tasks?.[0]?.Templates?.[0]).toMatchObject({
      ChangeSignal: 'SIGHUP',
      Splay: 5 * SECOND,
      Perms: '0644',
      LeftDelim: '{{',
      RightDelim: '}}',
    });
  });
});

describe('canonicalizeJob form', () => {
  const parsed = parseJobspec(`
job "web" {
  datacenters = ["dc1"]
  meta {
    a = "1"
  }
  affinity {
    attribute = "\${node.class}"
    value     = "large"
  }
  group "g" {
    network {
      port "http" {}
    }
    service {
      port = "http"
      check {
        type     = "tcp"
        interval = "5s"
        timeout  = "1s"
      }
    }
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      artifact {
        source = "https://example.com/file.tgz"
      }
      template {
        data        = "x"
        destination = "local/x"
      }
    }
  }
}
`);

  it('is idempotent', () => {
    const once = canonicalizeJob(parsed);
    expect(canonicalizeJob(once)).toEqual(once);
    expect(JSON.stringify(canonicalizeJob(once))).toBe(JSON.stringify(once));
    const batch = canonicalizeJob(minimal('batch'));
    expect(canonicalizeJob(batch)).toEqual(batch);
  });

  it('does not modify its argument', () => {
    const before = JSON.stringify(parsed);
    canonicalizeJob(parsed);
    expect(JSON.stringify(parsed)).toBe(before);
  });

  it('treats missing, null and empty collections alike', () => {
    const a = canonicalizeJob({ ID: 'x', Meta: {}, Constraints: [], TaskGroups: [] });
    const b = canonicalizeJob({ ID: 'x', Meta: null, Constraints: null });
    expect(a).toEqual(b);
    expect(a.Meta).toBeNull();
    expect(a.TaskGroups).toBeNull();
  });

  it('writes the same JSON whatever the input key order', () => {
    const reordered = JSON.parse(JSON.stringify(parsed), (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
    ) as Job;
    expect(JSON.stringify(canonicalizeJob(reordered))).toBe(JSON.stringify(canonicalizeJob(parsed)));
  });

  it('fills artifact and affinity defaults', () => {
    const c = canonicalizeJob(parsed);
    expect(c.Affinities?.[0]?.Weight).toBe(50);
    expect(c.TaskGroups?.[0]?.Tasks?.[0]?.Artifacts?.[0]).toMatchObject({
      GetterMode: 'any',
      RelativeDest: 'local/',
      GetterOptions: null,
    });
  });

  it('compares a job read back with server fields equal to the submitted one', () => {
    const submitted = canonicalizeJob(parsed);
    const readBack = {
      ...submitted,
      Status: 'running',
      Version: 3,
      CreateIndex: 10,
      ModifyIndex: 12,
      JobModifyIndex: 12,
      SubmitTime: 1.7e18,
    };
    expect(comparableJob(readBack)).toEqual(comparableJob(parsed));
    const changed = { ...readBack, Priority: 80 };
    expect(comparableJob(changed)).not.toEqual(comparableJob(parsed));
  });
});
