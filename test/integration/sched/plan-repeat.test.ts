import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';

/**
 * The agent remembers a plan request's job by the request's text. A repeated request must answer
 * what a fresh one would: the current state decides the plan, never the state of the first request.
 */
describe('scheduler: the same plan request again', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  const deployed = async (id: string, version: number): Promise<void> => {
    await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment(id);
      expect(value).toMatchObject({ JobVersion: version, Status: 'successful' });
    });
  };

  it('answers as a fresh request after the job it plans has changed', async () => {
    const next = mockJob('again', { count: 2, meta: { v: '2' } });
    const first = await f.sched.jobs.plan(next, { diff: true });
    const second = await f.sched.jobs.plan(next, { diff: true });
    expect(second.value).toEqual(first.value);
    expect(first.value.Diff?.Type).toBe('Added');
    expect(first.value.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({ Place: 2 });

    await f.sched.jobs.register(mockJob('again', { count: 2, meta: { v: '1' } }));
    await deployed('again', 0);
    const edited = await f.sched.jobs.plan(next, { diff: true });
    expect(edited.value.Diff?.Type).toBe('Edited');
    expect(edited.value.JobModifyIndex).toBeGreaterThan(0);

    await f.sched.jobs.register(next);
    await deployed('again', 1);
    const current = await f.sched.jobs.plan(next, { diff: true });
    expect(current.value.Diff?.Type).toBe('None');
    expect(current.value.Annotations?.DesiredTGUpdates?.['web']).toMatchObject({ Ignore: 2, Place: 0 });
  });

  it('registers a planned job sent with its keys in another order as the same job', async () => {
    const planned = mockJob('reordered', { count: 1, meta: { b: '2', a: '1' } });
    await f.sched.jobs.plan(planned, { diff: true });
    const reversed = Object.fromEntries(Object.entries(planned).reverse()) as typeof planned;
    reversed.Meta = { a: '1', b: '2' };
    await f.sched.jobs.register(reversed);
    await deployed('reordered', 0);
    const { value: stored } = await f.sched.jobs.read('reordered');
    expect(stored.Meta).toEqual({ a: '1', b: '2' });
    const again = await f.sched.jobs.plan(planned, { diff: true });
    expect(again.value.Diff?.Type).toBe('None');
  });

  it('refuses an invalid request every time with the same reason', async () => {
    const bad = mockJob('invalid', { count: 1, cpu: 0 });
    const reasons: string[] = [];
    for (let i = 0; i < 2; i++) {
      await f.sched.jobs.plan(bad).then(
        () => reasons.push('accepted'),
        (e: Error) => reasons.push(e.message),
      );
    }
    expect(reasons[0]).toMatch(/minimum CPU value is 1/);
    expect(reasons[1]).toBe(reasons[0]);
  });
});
