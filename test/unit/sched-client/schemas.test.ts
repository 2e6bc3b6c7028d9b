import { ResponseSchemaError } from '../../../src/api/errors';
import type { SchedClient } from '../../../src/api/sched/client';
import {
  AllocationSchema,
  EventStreamMessageSchema,
  ExecResponseFrameSchema,
  JobSchema,
  JobStubSchema,
  ObjectDiffSchema,
} from '../../../src/api/sched/schemas';
import { ALLOC_ID, clientFor, startTestServer, type TestServer } from './server';

/** A job as Nomad serialises it: zero scalars present, unset pointers, slices and maps as null. */
const nomadShapedJob = {
  Affinities: null,
  AllAtOnce: false,
  Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }],
  CreateIndex: 35,
  Datacenters: ['dc1'],
  Dispatched: false,
  ID: 'web',
  JobModifyIndex: 35,
  Meta: null,
  Migrate: null,
  ModifyIndex: 46,
  Multiregion: null,
  Name: 'web',
  Namespace: 'default',
  NodePool: 'default',
  ParameterizedJob: null,
  ParentID: '',
  Payload: null,
  Periodic: null,
  Priority: 50,
  Region: 'global',
  Reschedule: null,
  Spreads: null,
  Stable: true,
  Status: 'running',
  StatusDescription: '',
  Stop: false,
  SubmitTime: 1632027289176029400,
  SomeFutureField: { nested: true },
  TaskGroups: [
    {
      Affinities: null,
      Constraints: null,
      Count: 1,
      EphemeralDisk: { Migrate: false, SizeMB: 300, Sticky: false },
      Meta: null,
      Migrate: {
        HealthCheck: 'checks',
        HealthyDeadline: 300000000000,
        MaxParallel: 1,
        MinHealthyTime: 10000000000,
      },
      Name: 'app',
      Networks: [
        {
          CIDR: '',
          DNS: null,
          Device: '',
          DynamicPorts: [{ Label: 'http', Value: 0, To: 8080, HostNetwork: 'default' }],
          IP: '',
          MBits: 0,
          Mode: 'bridge',
          ReservedPorts: null,
        },
      ],
      ReschedulePolicy: {
        Attempts: 0,
        Delay: 30000000000,
        DelayFunction: 'exponential',
        Interval: 0,
        MaxDelay: 3600000000000,
        Unlimited: true,
      },
      RestartPolicy: { Attempts: 2, Delay: 15000000000, Interval: 1800000000000, Mode: 'fail' },
      Scaling: null,
      Services: [
        {
          Name: 'web',
          PortLabel: 'http',
          Provider: 'sched',
          Tags: null,
          Checks: [
            {
              Name: 'alive',
              Type: 'http',
              Path: '/health',
              Interval: 10000000000,
              Timeout: 2000000000,
              Header: null,
              CheckRestart: null,
            },
          ],
        },
      ],
      ShutdownDelay: null,
      Spreads: null,
      StopAfterClientDisconnect: null,
      Tasks: [
        {
          Affinities: null,
          Artifacts: [
            {
              GetterSource: 'https://example.com/a.tgz',
              GetterOptions: { checksum: 'sha256:ab' },
              RelativeDest: 'local/',
            },
          ],
          Config: { image: 'nginx:1', args: ['-g', 'daemon off;'] },
          Constraints: null,
          DispatchPayload: null,
          Driver: 'docker',
          Env: { A: '1' },
          KillSignal: '',
          KillTimeout: 5000000000,
          Kind: '',
          Leader: false,
          Lifecycle: { Hook: 'prestart', Sidecar: false },
          LogConfig: { MaxFileSizeMB: 10, MaxFiles: 10 },
          Meta: null,
          Name: 'srv',
          Resources: {
            CPU: 200,
            Cores: 0,
            Devices: null,
            DiskMB: 0,
            IOPS: 0,
            MemoryMB: 600,
            MemoryMaxMB: 0,
            Networks: null,
          },
          RestartPolicy: null,
          ScalingPolicies: null,
          Services: null,
          ShutdownDelay: 0,
          Templates: [
            {
              DestPath: 'local/app.conf',
              EmbeddedTmpl: 'x={{ key "x" }}',
              ChangeMode: 'signal',
              ChangeSignal: 'SIGHUP',
              Splay: 5000000000,
              Perms: '0644',
            },
          ],
          User: '',
          Secrets: null,
          VolumeMounts: null,
        },
      ],
      Update: {
        AutoPromote: false,
        AutoRevert: false,
        Canary: 0,
        HealthCheck: 'checks',
        HealthyDeadline: 300000000000,
        MaxParallel: 1,
        MinHealthyTime: 10000000000,
        ProgressDeadline: 600000000000,
        Stagger: 30000000000,
      },
      Volumes: null,
    },
  ],
  Type: 'service',
  Update: {
    AutoPromote: false,
    AutoRevert: false,
    Canary: 0,
    HealthCheck: '',
    HealthyDeadline: 0,
    MaxParallel: 1,
    MinHealthyTime: 0,
    ProgressDeadline: 0,
    Stagger: 30000000000,
  },
  Version: 0,
};

describe('schemas', () => {
  test('accept a job as Nomad sends it and keep unknown fields', () => {
    const job = JobSchema.parse(nomadShapedJob);
    expect(job.TaskGroups?.[0]?.Networks?.[0]?.DynamicPorts?.[0]?.To).toBe(8080);
    expect(job.TaskGroups?.[0]?.Tasks?.[0]?.Templates?.[0]?.ChangeMode).toBe('signal');
    expect((job as Record<string, unknown>)['SomeFutureField']).toEqual({ nested: true });
  });

  test('accept a sparse job as a user writes it', () => {
    expect(JobSchema.parse({ ID: 'x', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't' }] }] }).ID).toBe('x');
  });

  test('enumerations stay open: values beyond those the spec lists pass', () => {
    const job = JobSchema.parse({
      ID: 'x',
      Type: 'system',
      Status: 'dead',
      Constraints: [{ Operand: 'semver' }],
    });
    expect(job.Type).toBe('system');
  });

  test('refuse wrong types and name the field path', () => {
    const r = JobSchema.safeParse({ ID: 'x', TaskGroups: [{ Name: 'g', Count: 'two' }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['TaskGroups', 0, 'Count']);
    expect(JobStubSchema.safeParse({ Name: 'no id' }).success).toBe(false);
  });

  test('object diffs nest to any depth', () => {
    const deep = {
      Type: 'Edited',
      Name: 'a',
      Objects: [{ Type: 'Added', Name: 'b', Objects: [{ Name: 'c', Fields: [{ Name: 'f', New: '1' }] }] }],
    };
    expect(ObjectDiffSchema.parse(deep).Objects?.[0]?.Objects?.[0]?.Fields?.[0]?.New).toBe('1');
    expect(ObjectDiffSchema.safeParse({ Objects: [{ Objects: [{ Fields: [{ New: 1 }] }] }] }).success).toBe(
      false,
    );
  });

  test('allocation, event and exec frames', () => {
    expect(AllocationSchema.parse({ ID: ALLOC_ID, TaskStates: null, Job: null }).ID).toBe(ALLOC_ID);
    const msg = EventStreamMessageSchema.parse({
      Index: 7,
      Events: [
        {
          Topic: 'Node',
          Type: 'NodeRegistration',
          Key: 'n1',
          Namespace: '',
          FilterKeys: null,
          Index: 7,
          Payload: { Node: { ID: 'n1', Status: 'initializing', SchedulingEligibility: 'eligible' } },
        },
      ],
    });
    expect(msg.Events?.[0]?.Payload?.Node?.Status).toBe('initializing');
    expect(ExecResponseFrameSchema.parse({ exited: true, result: { exit_code: 3 } }).result?.exit_code).toBe(
      3,
    );
    expect(ExecResponseFrameSchema.safeParse({ stdout: { data: 5 } }).success).toBe(false);
  });
});

describe('response schema errors through the client', () => {
  let srv: TestServer;
  let client: SchedClient;
  beforeAll(async () => {
    srv = await startTestServer();
    client = clientFor(srv);
  });
  afterAll(async () => {
    await client.close();
    await srv.close();
  });

  test('name the offending field path', async () => {
    srv.route('GET', '/v1/job/web', {
      body: { ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Resources: { CPU: '100' } }] }] },
    });
    const err = await client.jobs.read('web').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseSchemaError);
    expect((err as ResponseSchemaError).field).toBe('TaskGroups[0].Tasks[0].Resources.CPU');
    expect((err as Error).message).toContain('TaskGroups[0].Tasks[0].Resources.CPU');
  });

  test('a list element missing its ID is refused', async () => {
    srv.route('GET', '/v1/allocations', { body: [{ ID: ALLOC_ID }, { Name: 'x' }] });
    const err = await client.allocations.list().catch((e: unknown) => e);
    expect((err as ResponseSchemaError).field).toBe('[1].ID');
  });
});
