/**
 * How many requests a job costs: the plan that follows a refresh compares with what the refresh read,
 * and neither a deployment that finished nor the allocations are read again while the job stays the
 * same (version, modify index, status). Counted by the agent.
 */
import { mockJob } from '../../../helpers/jobs';
import { eventually } from '../../../helpers/agent';
import type { State } from '../../../../src/provider/resource';
import { converge, jobConfig, startHarness, steady, type Harness } from './harness';

describe('sched_job: requests per operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  /** Requests made while `fn` runs, as "METHOD path". */
  async function requestsOf(fn: () => Promise<unknown>): Promise<string[]> {
    const before = h.f.agent.requests.length;
    await fn();
    // Sorted: requests made side by side finish in either order.
    return h.f.agent.requests
      .slice(before)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
  }

  it('says the change is done once the rollout succeeded, before reading the job back', async () => {
    const job = mockJob('handed-on', { count: 1, update: steady() });
    const change = await h.job.plan({ prior: null, config: jobConfig(job) });
    const before = h.f.agent.requests.length;
    let atChanged: { requests: string[] } | undefined;
    const state = await h.job.apply(change, {
      onChanged: () => {
        // Synchronous: what the agent served until now is what the handler asked for before.
        atChanged = { requests: h.f.agent.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
      },
    });
    expect(atChanged).toBeDefined();
    // The rollout was followed to its end, and nothing of the job was read back yet.
    expect(atChanged!.requests).toContain('POST /v1/jobs');
    expect(atChanged!.requests.some((r) => r.startsWith('GET /v1/deployment/'))).toBe(true);
    expect(atChanged!.requests.filter((r) => r.startsWith('GET /v1/job/handed-on'))).toEqual([]);
    // The read back follows: the state carries what it found.
    expect(state).toMatchObject({ deployment_status: 'successful', status: 'running' });
    const after = h.f.agent.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(after.filter((r) => r.startsWith('GET /v1/job/handed-on')).length).toBeGreaterThan(0);
  });

  it('refreshes and plans an unchanged job with one request: the job itself', async () => {
    const job = mockJob('same', { count: 1, update: steady() });
    const { state } = await converge(h.job, null, jobConfig(job));
    let read: State | null = null;
    const requests = await requestsOf(async () => {
      read = await h.job.read(state!);
      expect((await h.job.plan({ prior: read, config: jobConfig(job) })).action).toBe('noop');
    });
    expect(read).toEqual(state);
    expect(requests).toEqual(['GET /v1/job/same']);
  });

  it('never asks for the deployment of a batch job that is unchanged (the type has none)', async () => {
    const job = mockJob('nightly-report', { type: 'batch', count: 1, config: { run_for: '10ms' } });
    const { state } = await converge(h.job, null, jobConfig(job));
    expect(state).toMatchObject({ deployment_id: null, deployment_status: null });
    const requests = await requestsOf(async () => {
      const read = await h.job.read(state!);
      expect((await h.job.plan({ prior: read, config: jobConfig(job) })).action).toBe('noop');
    });
    expect(requests).toEqual(['GET /v1/job/nightly-report']);
  });

  it('reads the allocations again once the job status moves, and counts them anew', async () => {
    const job = mockJob('short-batch', { type: 'batch', count: 1, config: { run_for: '2s' } });
    const { state } = await converge(h.job, null, jobConfig(job, { detach: true }));
    expect(state!['status']).not.toBe('dead');
    let read: State | null = null;
    await eventually(async () => {
      read = (await h.job.read(state!))!;
      expect(read['status']).toBe('dead');
    });
    expect(read!['task_groups']).toMatchObject([{ name: job.TaskGroups![0]!.Name, complete: 1, running: 0 }]);
    // Now the snapshot matches the job again: the next refresh is one request.
    const requests = await requestsOf(() => h.job.read(read!));
    expect(requests).toEqual(['GET /v1/job/short-batch']);
  });

  it('plans a changed job from the refreshed copy: read, plan', async () => {
    const job = mockJob('changed', { count: 1, update: steady() });
    const { state } = await converge(h.job, null, jobConfig(job));
    const requests = await requestsOf(async () => {
      const read = await h.job.read(state!);
      const change = await h.job.plan({ prior: read, config: jobConfig({ ...job, Meta: { v: '2' } }) });
      expect(change.action).toBe('update');
    });
    expect(requests).toEqual(['GET /v1/job/changed', 'POST /v1/job/changed/plan']);
  });

  it('reads the job itself when the prior state was not just read, and sees a change made on the cluster', async () => {
    const job = mockJob('outside', { count: 1, update: steady() });
    const { state } = await converge(h.job, null, jobConfig(job));
    await h.f.sched.jobs.register({ ...job, Meta: { by: 'hand' } });
    // A copy of the state (as a saved plan or another front end would hand over): not the read's object.
    const change = await h.job.plan({ prior: { ...state! }, config: jobConfig(job) });
    expect(change.action).toBe('update');
    expect(change.diagnostics.map((d) => d.summary)).toContain(
      'Job "outside" was changed outside of this configuration',
    );
    // The refresh sees the new registration: a new version, so its deployment is read again.
    const requests = await requestsOf(async () => {
      const read = (await h.job.read(state!))!;
      expect(read['version']).toBe(1);
      expect(read['deployment_id']).not.toBe(state!['deployment_id']);
    });
    expect(requests).toContain('GET /v1/job/outside/deployment');
  });

  it('reads a deployment again while it is still running', async () => {
    const job = mockJob('detached', { count: 1, update: steady({ MinHealthyTime: 30e9 }) });
    const { state } = await converge(h.job, null, jobConfig(job, { detach: true }));
    expect(state!['deployment_status']).toBe('running');
    await eventually(async () => {
      const read = (await h.job.read(state!))!;
      expect(read['deployment_status']).toBe('successful');
    });
  });

  it('applies a new job without reading its deployment again after following it to the end', async () => {
    const job = mockJob('fresh', { count: 1, update: steady() });
    let state: State | null = null;
    const requests = await requestsOf(async () => {
      ({ state } = await converge(h.job, null, jobConfig(job)));
    });
    expect(state).toMatchObject({ deployment_status: 'successful', version: 0 });
    // The evaluation names the deployment: it is followed by its ID, never looked up through the job.
    expect(requests.filter((r) => r === 'GET /v1/job/fresh/deployment')).toHaveLength(0);
    expect(
      requests.filter((r) => r === `GET /v1/deployment/${String(state!['deployment_id'])}`),
    ).not.toHaveLength(0);
    expect(requests.filter((r) => r === 'GET /v1/job/fresh/allocations')).toHaveLength(1);
  });

  it('creates a job with one request per step: plan, register, evaluation, deployment, final job and allocations', async () => {
    // A rollout the agent ends in one change (one allocation, healthy at once), so the deployment is
    // read once: its first change after the evaluation is its end.
    const job = mockJob('counted', { count: 1, update: steady({ MinHealthyTime: 0 }) });
    let state: State | null = null;
    const requests = await requestsOf(async () => {
      ({ state } = await converge(h.job, null, jobConfig(job)));
    });
    expect(state).toMatchObject({ deployment_status: 'successful', version: 0, status: 'running' });
    const deployment = `GET /v1/deployment/${String(state!['deployment_id'])}`;
    const evalId = requests.find((r) => r.startsWith('GET /v1/evaluation/'));
    expect(requests.filter((r) => r !== deployment)).toEqual(
      [
        'POST /v1/job/counted/plan',
        'POST /v1/jobs',
        evalId,
        'GET /v1/job/counted',
        'GET /v1/job/counted/allocations',
      ].sort(),
    );
    // A second read only if the machine is so slow that the first one's short wait ran out first.
    expect(requests.filter((r) => r === deployment).length).toBeGreaterThanOrEqual(1);
    expect(requests.filter((r) => r === deployment).length).toBeLessThanOrEqual(2);
  });

  it('creates a job the plan saw absent without reading it before the registration', async () => {
    const job = mockJob('unseen', { count: 1, update: steady() });
    const requests = await requestsOf(async () => {
      await converge(h.job, null, jobConfig(job));
    });
    // The plan saw no job: the registration's check-and-set on index 0 is the guard (job-failures.test.ts).
    // It made a new job, so version 0: the one read left is the final state.
    expect(requests.filter((r) => r === 'GET /v1/job/unseen')).toHaveLength(1);
    expect(requests.filter((r) => r === 'POST /v1/jobs')).toHaveLength(1);
  });

  it('asks the scheduler for its JobDiff only when the caller shows it (serviceDiff)', async () => {
    const config = jobConfig(mockJob('diffless', { count: 1, update: steady() }));
    const shown = await h.job.plan({ prior: null, config });
    expect(shown.annotations?.scheduler?.jobDiff).toMatchObject({ Type: 'Added', ID: 'diffless' });
    const unseen = await h.job.plan({ prior: null, config, serviceDiff: false });
    expect(unseen.action).toBe('create');
    expect(unseen.annotations?.scheduler?.jobDiff).toBeNull();
    // Everything else the plan learnt from the scheduler is the same.
    expect({ ...unseen.annotations?.scheduler, jobDiff: 'x' }).toEqual({
      ...shown.annotations?.scheduler,
      jobDiff: 'x',
    });
    expect(unseen.planned).toEqual(shown.planned);
    expect(unseen.private).toEqual(shown.private);
  });
});
