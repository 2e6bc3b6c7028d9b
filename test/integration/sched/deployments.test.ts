import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';

describe('scheduler: deployments', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  async function deployed(id: string): Promise<void> {
    await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment(id);
      expect(value?.Status).toBe('successful');
    });
  }

  it('a canary update waits for manual promotion, then rolls out when promoted', async () => {
    const update = rolling({ Canary: 1, MaxParallel: 1 });
    await f.sched.jobs.register(mockJob('canary', { count: 3, update }));
    await deployed('canary');

    await f.sched.jobs.register(
      mockJob('canary', { count: 3, update, config: { run_for: '1h', version: 'v2' } }),
    );
    const dep = await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('canary');
      expect(value?.JobVersion).toBe(1);
      expect(value?.StatusDescription).toBe('Deployment is running but requires manual promotion');
      expect(value?.TaskGroups?.['web']?.HealthyAllocs).toBe(1);
      return value!;
    });
    expect(dep.TaskGroups?.['web']).toMatchObject({ DesiredCanaries: 1, Promoted: false, DesiredTotal: 3 });
    const { value: allocs } = await f.sched.jobs.allocations('canary');
    const live = allocs.filter((a) => a.DesiredStatus === 'run');
    expect(live).toHaveLength(4); // three old ones keep running beside the canary
    expect(live.filter((a) => a.JobVersion === 1)).toHaveLength(1);
    expect(live.find((a) => a.JobVersion === 1)?.DeploymentStatus?.Canary).toBe(true);

    await f.sched.deployments.promote(dep.ID, { all: true });
    await deployed('canary');
    const { value: after } = await f.sched.jobs.allocations('canary');
    const running = after.filter((a) => a.DesiredStatus === 'run');
    expect(running).toHaveLength(3);
    expect(running.every((a) => a.JobVersion === 1)).toBe(true);
    const { value: final } = await f.sched.jobs.latestDeployment('canary');
    expect(final?.TaskGroups?.['web']).toMatchObject({ Promoted: true, HealthyAllocs: 3 });
  });

  it('auto-promotes canaries when the update asks for it', async () => {
    const update = rolling({ Canary: 2, MaxParallel: 2, AutoPromote: true });
    await f.sched.jobs.register(mockJob('auto', { count: 2, update }));
    await deployed('auto');
    await f.sched.jobs.register(mockJob('auto', { count: 2, update, config: { run_for: '1h', v: 2 } }));
    await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('auto');
      expect(value).toMatchObject({ JobVersion: 1, Status: 'successful' });
      expect(value?.TaskGroups?.['web']?.Promoted).toBe(true);
    });
  });

  it('a failing update is auto-reverted to the last stable version', async () => {
    const update = rolling({ AutoRevert: true, MaxParallel: 1, HealthyDeadline: 20e9 });
    await f.sched.jobs.register(mockJob('revert', { count: 2, update }));
    await deployed('revert');
    const bad = mockJob('revert', { count: 2, update, config: { run_for: '50ms', exit_code: 3 } });
    await f.sched.jobs.register(bad);
    const failed = await eventually(async () => {
      const { value } = await f.sched.jobs.deployments('revert');
      const d = value.find((x) => x.JobVersion === 1);
      expect(d?.Status).toBe('failed');
      return d!;
    }, 20_000);
    expect(failed.StatusDescription).toBe(
      'Failed due to unhealthy allocations - rolling back to job version 0',
    );
    await eventually(async () => {
      const { value: job } = await f.sched.jobs.read('revert');
      expect(job.Version).toBe(2);
      expect((job.TaskGroups?.[0]?.Tasks?.[0]?.Config as Record<string, unknown>)['run_for']).toBe('1h');
      const { value: d } = await f.sched.jobs.latestDeployment('revert');
      expect(d).toMatchObject({ JobVersion: 2, Status: 'successful' });
    }, 20_000);
    const { value: allocs } = await f.sched.jobs.allocations('revert');
    const failedAlloc = allocs.find((a) => a.JobVersion === 1 && a.ClientStatus === 'failed');
    const events = failedAlloc?.TaskStates?.['server']?.Events?.map((e) => e.Type) ?? [];
    expect(events).toEqual(expect.arrayContaining(['Started', 'Terminated', 'Restarting', 'Not Restarting']));
    const notRestarting = failedAlloc?.TaskStates?.['server']?.Events?.find(
      (e) => e.Type === 'Not Restarting',
    );
    expect(notRestarting?.DisplayMessage).toContain('Exceeded allowed attempts 1 in interval');
  });

  it('fails a deployment by hand', async () => {
    const update = rolling({ Canary: 1 });
    await f.sched.jobs.register(mockJob('manual-fail', { count: 1, update }));
    await deployed('manual-fail');
    await f.sched.jobs.register(
      mockJob('manual-fail', { count: 1, update, meta: { x: '1' }, config: { run_for: '1h', v: 3 } }),
    );
    const dep = await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('manual-fail');
      expect(value?.JobVersion).toBe(1);
      return value!;
    });
    await f.sched.deployments.fail(dep.ID);
    const { value } = await f.sched.deployments.read(dep.ID);
    expect(value).toMatchObject({ Status: 'failed', StatusDescription: 'Deployment marked as failed' });
  });
});
