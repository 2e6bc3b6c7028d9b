import { SCHED_FLAVOR } from '../../../helpers/dialect';
import { mockJob } from '../../../helpers/jobs';
import { UNKNOWN, isUnknown } from '../../../../src/provider/values';
import { schedProvider } from '../../../../src/provider/sched/provider';
import { converge, jobConfig, startHarness, type Harness, steady } from './harness';

describe('sched_job: apply details', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('waits with blocking queries, not by polling', async () => {
    // A rolling update of three allocations, one at a time, each healthy after 250 ms (25 s at time
    // scale 0.01): the wait lasts most of a second.
    const update = steady({ MaxParallel: 1, MinHealthyTime: 25e9 });
    const { state } = await converge(h.job, null, jobConfig(mockJob('slowish', { count: 3, update })));
    const before = h.f.agent.requests.length;
    const started = Date.now();
    const { state: next } = await converge(
      h.job,
      state,
      jobConfig(mockJob('slowish', { count: 3, update, config: { run_for: '2h' } })),
    );
    expect(Date.now() - started).toBeGreaterThan(700);
    const requests = h.f.agent.requests.slice(before);
    const reads = requests.filter(
      (r) => r.method === 'GET' && r.path === `/v1/deployment/${next!['deployment_id']}`,
    );
    // One read per change of the deployment (each placement, each healthy allocation), not one per tick.
    expect(reads.length).toBeGreaterThan(3);
    expect(reads.length).toBeLessThan(10);
    expect(requests.length).toBeLessThan(25);
  });

  it('passes eval_priority and policy_override to the registration', async () => {
    const { state } = await converge(
      h.job,
      null,
      jobConfig(mockJob('prio', { count: 1 }), { eval_priority: 90, policy_override: true }),
    );
    const { value: evals } = await h.f.sched.jobs.evaluations('prio');
    expect(evals.find((e) => e.TriggeredBy === 'job-register')?.Priority).toBe(90);
    expect(state!['eval_priority']).toBe(90);
  });

  it('plans a restart of a job stopped out of band', async () => {
    const job = mockJob('stopped', { count: 1, update: steady() });
    const { state } = await converge(h.job, null, jobConfig(job));
    await h.f.sched.jobs.deregister('stopped');
    const read = (await h.job.read(state!))!;
    expect(read['status']).toBe('dead');
    const change = await h.job.plan({ prior: read, config: jobConfig(job) });
    expect(change.action).toBe('update');
    expect(change.diagnostics[0]!.detail).toContain('Stop');
    const after = (await h.job.apply(change))!;
    expect(after).toMatchObject({ status: 'running', deployment_status: 'successful' });
  });

  it('plans a spec not known until apply, and applies the same rules once it is known', async () => {
    const created = await h.job.plan({ prior: null, config: { jobspec: UNKNOWN } });
    expect(created.action).toBe('create');
    expect(isUnknown(created.planned!['id'])).toBe(true);
    const text = jobConfig(mockJob('late', { count: 1, update: steady() }))['jobspec'];
    const state = (await h.job.apply({ ...created, planned: { ...created.planned, jobspec: text } }))!;
    expect(state).toMatchObject({ id: 'late', jobspec: text, deployment_status: 'successful' });

    const update = await h.job.plan({ prior: state, config: { jobspec: UNKNOWN } });
    expect(update.action).toBe('update');
    const renamed = jobConfig(mockJob('later', { count: 1, update: steady() }))['jobspec'];
    const next = (await h.job.apply({ ...update, planned: { ...update.planned, jobspec: renamed } }))!;
    expect(next).toMatchObject({ id: 'later', deployment_status: 'successful' });
    expect((await h.f.sched.jobs.read('late')).value.Stop).toBe(true);
  });

  it('registers jobs into the provider namespace when the spec names none', async () => {
    await h.f.sched.namespaces.upsert({ Name: 'prov-ns' });
    const p = schedProvider.configure(
      { address: h.f.agent.schedulerUrl, namespace: 'prov-ns', retries: 0, flavor: SCHED_FLAVOR },
      {},
    );
    try {
      const handler = p.resources['sched_job']!;
      const { state } = await converge(handler, null, jobConfig(mockJob('nsless', { count: 1 })));
      expect(state).toMatchObject({ id: 'nsless', namespace: 'prov-ns' });
      const again = await handler.plan({
        prior: (await handler.read(state!))!,
        config: jobConfig(mockJob('nsless', { count: 1 })),
      });
      expect(again.action).toBe('noop');
      await converge(handler, state, null);
      expect((await h.f.sched.jobs.read('nsless', { namespace: 'prov-ns' })).value.Stop).toBe(true);
    } finally {
      await p.close();
    }
  });
});
