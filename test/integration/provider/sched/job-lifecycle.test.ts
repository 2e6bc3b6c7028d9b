import { NotFoundError } from '../../../../src/api/errors';
import type { Job } from '../../../../src/api/sched/schemas';
import { mockJob } from '../../../helpers/jobs';
import { eventually } from '../../../helpers/agent';
import type { State } from '../../../../src/provider/resource';
import { isUnknown } from '../../../../src/provider/values';
import { applyFailure, converge, jobConfig, startHarness, type Harness, steady } from './harness';

const web = (o: Parameters<typeof mockJob>[1] = {}) =>
  mockJob('web', { count: 2, update: steady({ MaxParallel: 2 }), ...o });

describe('sched_job lifecycle against the dev agent', () => {
  let h: Harness;
  let state: State;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('creates a job: plan shows placements, apply waits for the deployment and reports progress', async () => {
    const change = await h.job.plan({ prior: null, config: jobConfig(web()) });
    expect(change.action).toBe('create');
    expect(change.diagnostics).toEqual([]);
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ Place: 2 });
    expect(change.private).toMatchObject({ register: true, jobModifyIndex: 0 });
    expect(change.planned).toMatchObject({
      id: 'web',
      namespace: 'default',
      type: 'service',
      datacenters: ['dc1'],
    });
    expect(isUnknown(change.planned!['version'])).toBe(true);
    const events: { message: string; groups?: Record<string, { desired: number; healthy: number }> }[] = [];
    state = (await h.job.apply(change, { onProgress: (e) => events.push(e) }))!;
    expect(state).toMatchObject({
      id: 'web',
      version: 0,
      status: 'running',
      deployment_status: 'successful',
      jobspec: jobConfig(web())['jobspec'],
    });
    expect(state['allocation_ids']).toHaveLength(2);
    expect(state['task_groups']).toEqual([
      expect.objectContaining({ name: 'web', count: 2, tasks: ['server'], running: 2, failed: 0 }),
    ]);
    expect(events[0]!.message).toMatch(/^registered job web version 0 \(evaluation [0-9a-f]{8}\)$/);
    const last = events.filter((e) => e.groups).pop()!;
    expect(last.message).toMatch(/deployment [0-9a-f]{8} successful/);
    expect(last.groups!['web']).toMatchObject({ desired: 2, healthy: 2 });
  });

  it('reads with no drift and plans no change; a reformatted spec records the text without registering', async () => {
    const read = (await h.job.read(state))!;
    expect(read).toEqual(state);
    const same = await h.job.plan({ prior: read, config: jobConfig(web()) });
    expect(same.action).toBe('noop');
    // Same job, other key order and layout: not a change of the job.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(web()).reverse()));
    const reformat = await h.job.plan({ prior: read, config: { jobspec: reordered } });
    expect(reformat.action).toBe('update');
    expect(reformat.private).toMatchObject({ register: false });
    const after = (await h.job.apply(reformat))!;
    expect(after['jobspec']).toBe(reordered);
    expect(after['version']).toBe(0);
    expect((await h.f.sched.jobs.read('web')).value.Version).toBe(0);
    state = (await converge(h.job, after, jobConfig(web()))).state!;
  });

  it('updates in place: the plan counts InPlaceUpdate and the allocations stay', async () => {
    const before = [...(state['allocation_ids'] as string[])];
    const { change, state: next } = await converge(h.job, state, jobConfig({ ...web(), Priority: 70 }));
    expect(change.action).toBe('update');
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({
      InPlaceUpdate: 2,
      DestructiveUpdate: 0,
    });
    expect(change.private).toMatchObject({ register: true, jobModifyIndex: state['job_modify_index'] });
    expect(next).toMatchObject({ version: 1, deployment_status: 'successful' });
    expect(next!['allocation_ids']).toEqual(before);
    state = next!;
  });

  it('updates destructively: new allocations replace the old ones', async () => {
    const before = state['allocation_ids'] as string[];
    const spec = { ...web({ config: { run_for: '2h' } }), Priority: 70 };
    const { change, state: next } = await converge(h.job, state, jobConfig(spec));
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ DestructiveUpdate: 2 });
    const diff = change.annotations?.scheduler?.jobDiff as { Type: string };
    expect(diff.Type).toBe('Edited');
    expect(next).toMatchObject({ version: 2, deployment_status: 'successful' });
    expect((next!['allocation_ids'] as string[]).some((id) => before.includes(id))).toBe(false);
    state = next!;
  });

  it('detects a change made out of band and plans to restore the configured spec', async () => {
    const spec = { ...web({ config: { run_for: '2h' } }), Priority: 70 };
    await h.f.sched.jobs.register({ ...spec, TaskGroups: [{ ...spec.TaskGroups![0]!, Count: 3 }] });
    const read = (await h.job.read(state))!;
    expect(read['version']).toBe(3);
    const change = await h.job.plan({ prior: read, config: jobConfig(spec) });
    expect(change.action).toBe('update');
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ Stop: 1 });
    expect(change.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        summary: 'Job "web" was changed outside of this configuration',
        detail: expect.stringContaining('TaskGroups[web].Count'),
      }),
    ]);
    const next = (await h.job.apply(change))!;
    expect(next['version']).toBe(4);
    expect((await h.f.sched.jobs.read('web')).value.TaskGroups?.[0]?.Count).toBe(2);
    state = next;
  });

  it('imports <id>@<namespace>, then plans no change for the same spec', async () => {
    const imported = await h.job.import('web@default');
    expect(imported).toMatchObject({ id: 'web', namespace: 'default', version: 4, status: 'running' });
    expect(JSON.parse(imported['jobspec'] as string)).toMatchObject({ ID: 'web', Priority: 70 });
    const spec = { ...web({ config: { run_for: '2h' } }), Priority: 70 };
    const change = await h.job.plan({ prior: imported, config: jobConfig(spec) });
    expect(change.action).toBe('update');
    expect(change.private).toMatchObject({ register: false });
    await expect(h.job.import('nope@default')).rejects.toThrow(
      'job "nope" does not exist in namespace "default"',
    );
    await expect(h.job.import('@default')).rejects.toThrow('has no job ID');
  });

  it('replaces the job when its ID changes (deregistering the old one)', async () => {
    const spec = { ...web(), ID: 'web2', Name: 'web2' };
    const { change, state: next } = await converge(h.job, state, jobConfig(spec));
    expect(change.action).toBe('replace');
    expect(change.replacePaths).toEqual([['jobspec']]);
    expect(next).toMatchObject({ id: 'web2', version: 0, deployment_status: 'successful' });
    const old = (await h.f.sched.jobs.read('web')).value;
    expect(old.Stop).toBe(true);
    state = next!;
  });

  it('registers the new ID and leaves the old job when deregister_on_id_change is false', async () => {
    const spec = { ...web(), ID: 'web3', Name: 'web3' };
    const { change, state: next } = await converge(
      h.job,
      state,
      jobConfig(spec, { deregister_on_id_change: false }),
    );
    expect(change.action).toBe('update');
    expect(next).toMatchObject({ id: 'web3', deployment_status: 'successful' });
    expect((await h.f.sched.jobs.read('web2')).value.Stop).toBe(false);
    state = next!;
  });

  it('replaces the job when its namespace changes', async () => {
    await h.f.sched.namespaces.upsert({ Name: 'team-a' });
    const spec = { ...web(), ID: 'web3', Name: 'web3', Namespace: 'team-a' };
    const { change, state: next } = await converge(h.job, state, jobConfig(spec));
    expect(change.action).toBe('replace');
    expect(next).toMatchObject({ id: 'web3', namespace: 'team-a', deployment_status: 'successful' });
    expect((await h.f.sched.jobs.read('web3')).value.Stop).toBe(true);
    state = next!;
  });

  it('destroys: deregisters and waits until the allocations stopped', async () => {
    const ids = state['allocation_ids'] as string[];
    const { change, state: gone } = await converge(h.job, state, null);
    expect(change.action).toBe('delete');
    expect(gone).toBeNull();
    for (const id of ids) {
      const { value } = await h.f.sched.allocations.read(id, { namespace: 'team-a' });
      expect(value.ClientStatus).toBe('complete');
    }
    const { value: job } = await h.f.sched.jobs.read('web3', { namespace: 'team-a' });
    expect(job.Stop).toBe(true);
    expect(await h.job.read({ ...state, id: 'nope' })).toBeNull();
  });

  it('purge_on_destroy removes the job; deregister_on_destroy=false leaves it', async () => {
    const a = await converge(
      h.job,
      null,
      jobConfig(mockJob('purged', { count: 1 }), { purge_on_destroy: true, detach: true }),
    );
    expect(a.state!['id']).toBe('purged');
    await converge(h.job, a.state, null);
    await expect(h.f.sched.jobs.read('purged')).rejects.toThrow('found nothing');
    const b = await converge(
      h.job,
      null,
      jobConfig(mockJob('kept', { count: 1 }), { deregister_on_destroy: false }),
    );
    await converge(h.job, b.state, null);
    expect((await h.f.sched.jobs.read('kept')).value.Stop).toBe(false);
  });

  it('creates a job again after destroying it: takes over the stopped job with check-and-set', async () => {
    const config = jobConfig(mockJob('again', { count: 1 }));
    const first = await converge(h.job, null, config);
    await converge(h.job, first.state, null);
    const { value: stopped } = await h.f.sched.jobs.read('again');
    expect(stopped.Stop).toBe(true);

    const change = await h.job.plan({ prior: null, config });
    expect(change.action).toBe('create');
    expect(change.diagnostics).toEqual([]);
    expect(change.private).toMatchObject({ jobModifyIndex: stopped.JobModifyIndex });
    const state = await h.job.apply(change, {});
    expect(state).toMatchObject({ id: 'again', status: 'running' });
    expect((await h.f.sched.jobs.read('again')).value.Stop).toBe(false);

    // Stopped again, and started by someone else between plan and apply: the index moved, so the
    // create fails instead of adopting a job the state does not own.
    await converge(h.job, state, null);
    const racing = await h.job.plan({ prior: null, config });
    await h.f.sched.jobs.register({ ...mockJob('again', { count: 1 }), Meta: { by: 'someone else' } });
    const err = await applyFailure(h.job, racing);
    expect(err.message).toBe('job again changed since plan; plan again');
    const refused = await h.job.plan({ prior: null, config });
    expect(refused.diagnostics[0]).toMatchObject({
      severity: 'error',
      summary: 'Job "again" already exists in namespace "default" and is not stopped',
    });
  });

  it('takes over at apply a stopped job its plan could not see (the namespace did not exist yet)', async () => {
    const config = jobConfig(mockJob('later', { count: 1, namespace: 'later-ns' }));
    const change = await h.job.plan({ prior: null, config });
    expect(change.action).toBe('create');
    expect(change.diagnostics[0]).toMatchObject({ summary: 'Namespace "later-ns" does not exist yet' });
    // What a destroyed stack leaves when its deploy runs again: the namespace comes back, and in it
    // the job the destroy stopped.
    await h.f.sched.namespaces.upsert({ Name: 'later-ns' });
    await h.f.sched.jobs.register(mockJob('later', { count: 1, namespace: 'later-ns' }));
    await h.f.sched.jobs.deregister('later', { namespace: 'later-ns' });
    const state = await h.job.apply(change, {});
    expect(state).toMatchObject({ id: 'later', namespace: 'later-ns' });
    expect((await h.f.sched.jobs.read('later', { namespace: 'later-ns' })).value.Stop).toBe(false);
  });

  it('detach returns right after registration, without waiting for the deployment', async () => {
    const { state: s, events } = await converge(
      h.job,
      null,
      jobConfig(mockJob('detached', { count: 2, update: steady({ MinHealthyTime: 50e9 }) }), {
        detach: true,
      }),
    );
    expect(events.map((e) => e.message)).toEqual([
      expect.stringMatching(/^registered job detached version 0/),
    ]);
    expect(s!['deployment_status']).toBe('running');
    await eventually(async () =>
      expect((await h.f.sched.jobs.latestDeployment('detached')).value?.Status).toBe('successful'),
    );
    // Destroy, detached too: returns before the allocations stopped.
    await converge(h.job, s, null);
    expect((await h.f.sched.jobs.read('detached')).value.Stop).toBe(true);
  });

  it('fails an apply whose plan data is missing instead of registering blindly', async () => {
    const change = await h.job.plan({ prior: null, config: jobConfig(mockJob('x', { count: 1 })) });
    const err = await applyFailure(h.job, { ...change, private: {} });
    expect(err.message).toContain('plan again');
  });

  it('registers nothing from plan data whose job is malformed below its top level: the server rejects it', async () => {
    const change = await h.job.plan({ prior: null, config: jobConfig(mockJob('garbled', { count: 1 })) });
    const priv = change.private as { job: Job };
    const job = { ...priv.job, TaskGroups: [{ ...priv.job.TaskGroups![0]!, Count: 'two' }] };
    const err = await applyFailure(h.job, { ...change, private: { ...priv, job } });
    expect(err.message).toContain('job garbled was rejected');
    await expect(h.f.sched.jobs.read('garbled')).rejects.toThrow(NotFoundError);
  });
});
