import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import { ConflictError, NotFoundError } from '../../../src/api/errors';

describe('scheduler: job lifecycle against the dev agent', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  it('register -> evaluation -> allocations running -> deployment successful, job version stable', async () => {
    const job = mockJob('web-1', { count: 3, update: rolling({ MaxParallel: 2 }) });
    const { value: reg } = await f.sched.jobs.register(job);
    expect(reg.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(reg.JobModifyIndex).toBeGreaterThan(1);

    const ev = await eventually(async () => {
      const { value } = await f.sched.evaluations.read(reg.EvalID!);
      expect(value.Status).toBe('complete');
      return value;
    });
    expect(ev.TriggeredBy).toBe('job-register');

    const dep = await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('web-1');
      expect(value?.Status).toBe('successful');
      return value!;
    });
    expect(dep.StatusDescription).toBe('Deployment completed successfully');
    expect(dep.TaskGroups?.['web']).toMatchObject({
      DesiredTotal: 3,
      PlacedAllocs: 3,
      HealthyAllocs: 3,
      UnhealthyAllocs: 0,
    });

    const { value: allocs } = await f.sched.jobs.allocations('web-1');
    expect(allocs).toHaveLength(3);
    expect(allocs.map((a) => a.Name).sort()).toEqual(['web-1.web[0]', 'web-1.web[1]', 'web-1.web[2]']);
    for (const a of allocs) {
      expect(a.ClientStatus).toBe('running');
      expect(a.TaskStates?.['server']?.State).toBe('running');
      expect(a.TaskStates?.['server']?.Events?.map((e) => e.Type)).toEqual([
        'Received',
        'Task Setup',
        'Started',
      ]);
    }
    const { value: read } = await f.sched.jobs.read('web-1');
    expect(read.Status).toBe('running');
    expect(read.Stable).toBe(true);
    const { value: summary } = await f.sched.jobs.summary('web-1');
    expect(summary.Summary?.['web']).toMatchObject({ Running: 3, Queued: 0, Failed: 0 });
  });

  it('rejects a register whose JobModifyIndex does not match (check-and-set), and changes nothing', async () => {
    const { value: before } = await f.sched.jobs.read('web-1');
    const changed = mockJob('web-1', { count: 1, update: rolling() });
    const err = await f.sched.jobs
      .register(changed, { enforceIndex: (before.JobModifyIndex ?? 0) - 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toContain(`conflicting job modify index: ${before.JobModifyIndex}`);
    const { value: after } = await f.sched.jobs.read('web-1');
    expect(after.Version).toBe(before.Version);
    expect(after.JobModifyIndex).toBe(before.JobModifyIndex);
    const created = await f.sched.jobs
      .register(mockJob('web-1'), { enforceIndex: 0 })
      .catch((e: unknown) => e);
    expect(created).toBeInstanceOf(ConflictError);
    expect((created as Error).message).toContain('job already exists');
  });

  it('registers with the right JobModifyIndex (CAS success) and bumps the version', async () => {
    const { value: before } = await f.sched.jobs.read('web-1');
    const { value } = await f.sched.jobs.register(
      mockJob('web-1', { count: 3, meta: { v: '2' }, update: rolling({ MaxParallel: 2 }) }),
      {
        enforceIndex: before.JobModifyIndex ?? 0,
      },
    );
    expect(value.JobModifyIndex).toBeGreaterThan(before.JobModifyIndex ?? 0);
    const { value: after } = await f.sched.jobs.read('web-1');
    expect(after.Version).toBe((before.Version ?? 0) + 1);
    const { value: versions } = await f.sched.jobs.versions('web-1', { diffs: true });
    expect(versions.Versions?.map((v) => v.Version)).toEqual([after.Version, before.Version]);
    const metaDiff = versions.Diffs?.[0]?.Fields?.find((d) => d.Name === 'Meta[v]');
    expect(metaDiff).toMatchObject({ Type: 'Added', New: '2' });
  });

  it('deregisters (stop) and purges', async () => {
    await f.sched.jobs.register(mockJob('short', { count: 1 }));
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('short');
      expect(value[0]?.ClientStatus).toBe('running');
    });
    const { value: dereg } = await f.sched.jobs.deregister('short');
    expect(dereg.EvalID).toBeTruthy();
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('short');
      expect(value[0]).toMatchObject({ DesiredStatus: 'stop', ClientStatus: 'complete' });
      expect(value[0]?.TaskStates?.['server']?.Events?.map((e) => e.Type)).toContain('Killed');
    });
    const { value: stopped } = await f.sched.jobs.read('short');
    expect(stopped.Stop).toBe(true);
    await eventually(async () => expect((await f.sched.jobs.read('short')).value.Status).toBe('dead'));
    await f.sched.jobs.deregister('short', { purge: true });
    await expect(f.sched.jobs.read('short')).rejects.toBeInstanceOf(NotFoundError);
  });
});
