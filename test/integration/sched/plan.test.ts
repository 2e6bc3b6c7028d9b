import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';

describe('scheduler: plan (dry run)', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
    await f.sched.jobs.register(mockJob('planned', { count: 3, meta: { owner: 'a' } }));
    await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('planned');
      expect(value?.Status).toBe('successful');
    });
  });
  afterAll(() => f.stop());

  const updates = async (job: ReturnType<typeof mockJob>) => {
    const tables = ['sched/jobs', 'sched/job_versions', 'sched/evals', 'sched/allocs', 'sched/deployments'];
    const before = tables.map((t) => f.agent.store.tableIndex(t));
    const { value } = await f.sched.jobs.plan(job, { diff: true });
    // A plan is a dry run: it writes nothing.
    expect(tables.map((t) => f.agent.store.tableIndex(t))).toEqual(before);
    return value;
  };

  it('a new job plans Place for every allocation and a diff of Added fields', async () => {
    const plan = await updates(mockJob('brand-new', { count: 2 }));
    expect(plan.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({
      Place: 2,
      Stop: 0,
      InPlaceUpdate: 0,
      DestructiveUpdate: 0,
    });
    expect(plan.Diff?.Type).toBe('Added');
    expect(plan.JobModifyIndex).toBe(0);
    expect(plan.FailedTGAllocs ?? null).toBeNull();
    await expect(f.sched.jobs.read('brand-new')).rejects.toThrow();
  });

  it('an unchanged job plans nothing but Ignore', async () => {
    const plan = await updates(mockJob('planned', { count: 3, meta: { owner: 'a' } }));
    expect(plan.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({
      Ignore: 3,
      Place: 0,
      Stop: 0,
      InPlaceUpdate: 0,
      DestructiveUpdate: 0,
    });
    expect(plan.Diff?.Type).toBe('None');
    const { value: job } = await f.sched.jobs.read('planned');
    expect(plan.JobModifyIndex).toBe(job.JobModifyIndex);
  });

  it('a count change plans Place or Stop', async () => {
    const up = await updates(mockJob('planned', { count: 5, meta: { owner: 'a' } }));
    // The job's version moves, so the running allocations take it in place, as Nomad plans a scale-up.
    expect(up.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({
      Place: 2,
      InPlaceUpdate: 3,
      Stop: 0,
      DestructiveUpdate: 0,
    });
    const down = await updates(mockJob('planned', { count: 1, meta: { owner: 'a' } }));
    expect(down.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({
      Stop: 2,
      InPlaceUpdate: 1,
      Place: 0,
    });
    const countDiff = down.Diff?.TaskGroups?.[0]?.Fields?.find((d) => d.Name === 'Count');
    expect(countDiff).toMatchObject({ Type: 'Edited', Old: '3', New: '1' });
  });

  it('a task config change plans DestructiveUpdate (max_parallel at a time, the rest ignored) and annotates the task', async () => {
    // The default update block (max_parallel 1) rolls one allocation at a time, as Nomad's plan shows it.
    const plan = await updates(
      mockJob('planned', { count: 3, meta: { owner: 'a' }, config: { run_for: '2h' } }),
    );
    expect(plan.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({
      DestructiveUpdate: 1,
      Ignore: 2,
      Place: 0,
      InPlaceUpdate: 0,
    });
    const wide = await updates(
      mockJob('planned', {
        count: 3,
        meta: { owner: 'a' },
        config: { run_for: '2h' },
        update: rolling({ MaxParallel: 3 }),
      }),
    );
    expect(wide.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({ DestructiveUpdate: 3, Ignore: 0 });
    const task = plan.Diff?.TaskGroups?.[0]?.Tasks?.[0];
    expect(task?.Annotations).toContain('forces create/destroy update');
  });

  it('a job meta change is destructive (tasks see it), an update-block change is in place', async () => {
    const meta = await updates(mockJob('planned', { count: 3, meta: { owner: 'b' } }));
    expect(meta.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({ DestructiveUpdate: 1, Ignore: 2 });
    const upd = await updates(
      mockJob('planned', { count: 3, meta: { owner: 'a' }, update: rolling({ MaxParallel: 3 }) }),
    );
    expect(upd.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({
      InPlaceUpdate: 3,
      DestructiveUpdate: 0,
    });
  });

  it('reports placement failures with metrics when resources are exhausted, and a blocked evaluation', async () => {
    const plan = await updates(mockJob('huge', { count: 2, memory: 100_000 }));
    const failed = plan.FailedTGAllocs?.['web'];
    expect(failed).toBeDefined();
    expect(failed?.NodesEvaluated).toBe(3);
    expect(failed?.NodesExhausted).toBe(3);
    expect(failed?.DimensionExhausted).toEqual({ memory: 3 });
    expect(failed?.CoalescedFailures).toBe(1);
    expect(plan.CreatedEvals?.[0]).toMatchObject({ Status: 'blocked', TriggeredBy: 'queued-allocs' });
  });
});

describe('scheduler: plan of periodic and parameterized parents', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  it('places nothing for the parent itself', async () => {
    const periodic = {
      ...mockJob('cron-parent', { type: 'batch', count: 2 }),
      Periodic: { Enabled: true, Spec: '*/5 * * * *', SpecType: 'cron' },
    };
    const { value: p1 } = await f.sched.jobs.plan(periodic, { diff: true });
    expect(Object.values(p1.Annotations?.DesiredTGUpdates ?? {}).every((u) => !u.Place)).toBe(true);
    expect(p1.NextPeriodicLaunch).not.toBe('0001-01-01T00:00:00Z');
    const parameterized = {
      ...mockJob('param-parent', { type: 'batch', count: 2 }),
      ParameterizedJob: { Payload: 'optional' },
    };
    const { value: p2 } = await f.sched.jobs.plan(parameterized, { diff: true });
    expect(Object.values(p2.Annotations?.DesiredTGUpdates ?? {}).every((u) => !u.Place)).toBe(true);
  });
});
