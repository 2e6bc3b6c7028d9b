import { mockJob } from '../../../helpers/jobs';
import type { Job } from '../../../../src/api/sched/schemas';
import type { ProgressEvent, State } from '../../../../src/provider/resource';
import { ResourceApplyError } from '../../../../src/provider/common/errors';
import { schedProvider } from '../../../../src/provider/sched/provider';
import { TOKEN, applyFailure, converge, jobConfig, startHarness, type Harness, steady } from './harness';

/** Every message a test saw: none may carry the provider's token. */
const seen: string[] = [];
function remember(err: Error, events: ProgressEvent[] = []): void {
  seen.push(err.message, ...events.map((e) => e.message));
}

const fastUpdate = (extra: Partial<NonNullable<Job['Update']>> = {}) => steady(extra);

describe('sched_job failures against the dev agent', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('fails a deployment with each unhealthy allocation and its task events, and keeps the spec unapplied', async () => {
    const job = mockJob('broken', {
      count: 1,
      config: { start_error: 'pulling image: manifest unknown' },
      update: fastUpdate(),
    });
    const change = await h.job.plan({ prior: null, config: jobConfig(job) });
    expect(change.action).toBe('create');
    const events: ProgressEvent[] = [];
    const err = await applyFailure(h.job, change, events);
    remember(err, events);
    expect(err).toBeInstanceOf(ResourceApplyError);
    expect(err.message).toMatch(
      /deployment [0-9a-f]{8} of job broken version 0 failed: Failed due to unhealthy allocations/,
    );
    expect(err.message).toMatch(/allocation [0-9a-f]{8} \(group "web", node [^)]+\): failed, unhealthy/);
    expect(err.message).toContain('Driver Failure: pulling image: manifest unknown');
    expect(err.message).toContain('Not Restarting: Error was unrecoverable');
    expect(err.message).toContain('auto_revert is off: the failed version stays registered');
    const state = (err as ResourceApplyError).state!;
    expect(state).toMatchObject({ id: 'broken', version: 0, deployment_status: 'failed', jobspec: null });
    // The next plan registers again (the rollout of this spec failed), instead of calling it applied.
    const again = await h.job.plan({ prior: state, config: jobConfig(job) });
    expect(again.action).toBe('update');
    expect(again.private).toMatchObject({ register: true });
    const second = await applyFailure(h.job, again);
    remember(second);
    expect(second.message).toContain('Failed due to unhealthy allocations');
  });

  it('reports an auto-revert and records the reverted version', async () => {
    const good = mockJob('reverting', { count: 2, update: fastUpdate({ AutoRevert: true, MaxParallel: 2 }) });
    const created = await converge(h.job, null, jobConfig(good));
    expect(created.state).toMatchObject({ version: 0, deployment_status: 'successful' });
    const bad = mockJob('reverting', {
      count: 2,
      config: { run_for: '1h', exit_code: 7, start_error: 'exec format error' },
      update: fastUpdate({ AutoRevert: true, MaxParallel: 2 }),
    });
    const change = await h.job.plan({ prior: created.state, config: jobConfig(bad) });
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ DestructiveUpdate: 2 });
    const err = await applyFailure(h.job, change);
    remember(err);
    expect(err.message).toContain('Failed due to unhealthy allocations - rolling back to job version 0');
    expect(err.message).toContain('auto_revert rolled the job back to version 0');
    expect(err.message).toContain('exec format error');
    const state = (err as ResourceApplyError).state!;
    expect(state['version']).toBe(2);
    expect(state['jobspec']).toBe(created.state!['jobspec']);
    const { value: remote } = await h.f.sched.jobs.read('reverting');
    expect(remote.Version).toBe(2);
    expect(remote.TaskGroups?.[0]?.Tasks?.[0]?.Config).toEqual({ run_for: '1h' });
    // The cluster runs the old spec again: the configured one is still a change to make.
    const next = await h.job.plan({ prior: state, config: jobConfig(bad) });
    expect(next.action).toBe('update');
    expect(next.private).toMatchObject({ register: true, jobModifyIndex: remote.JobModifyIndex });
  });

  it('fails with "changed since plan" when the job changes between plan and apply (check-and-set)', async () => {
    const job = mockJob('cas', { count: 1, update: fastUpdate() });
    const { state } = await converge(h.job, null, jobConfig(job));
    const change = await h.job.plan({ prior: state, config: jobConfig({ ...job, Priority: 80 }) });
    expect(change.action).toBe('update');
    await h.f.sched.jobs.register({ ...job, Meta: { by: 'someone else' } });
    const err = await applyFailure(h.job, change);
    remember(err);
    expect(err.message).toBe('job cas changed since plan; plan again');
    expect((err as ResourceApplyError).state).toEqual(state);
    const { value } = await h.f.sched.jobs.read('cas');
    expect(value.Priority).toBe(50);
    expect(value.Meta).toEqual({ by: 'someone else' });
  });

  it('refuses to create a job that already exists (plan error, and CAS at apply)', async () => {
    const job = mockJob('taken', { count: 1 });
    const change = await h.job.plan({ prior: null, config: jobConfig(job) });
    await h.f.sched.jobs.register(job);
    const err = await applyFailure(h.job, change);
    expect(err.message).toBe(
      'job taken changed since plan; plan again (it now exists in namespace default: import it as taken@default)',
    );
    const replan = await h.job.plan({ prior: null, config: jobConfig(job) });
    expect(replan.action).toBe('noop');
    expect(replan.diagnostics[0]).toMatchObject({
      severity: 'error',
      summary: 'Job "taken" already exists in namespace "default" and is not stopped',
    });
  });

  it('promotes canaries once they are healthy when auto_promote_canaries is set', async () => {
    const v0 = mockJob('canary', { count: 2, update: fastUpdate({ Canary: 1 }) });
    const { state } = await converge(h.job, null, jobConfig(v0));
    const v1 = mockJob('canary', { count: 2, config: { run_for: '2h' }, update: fastUpdate({ Canary: 1 }) });
    const {
      change,
      state: next,
      events,
    } = await converge(h.job, state, jobConfig(v1, { auto_promote_canaries: true }));
    expect(change.annotations?.scheduler?.desiredTGUpdates['web']).toMatchObject({ Canary: 1 });
    expect(events.map((e) => e.message)).toContain('promoted the canaries of "web"');
    expect(events.some((e) => e.groups?.['web']?.canaries === 1)).toBe(true);
    expect(next).toMatchObject({ version: 1, deployment_status: 'successful' });
  });

  it('fails with "awaiting promotion" at the timeout when canaries need a manual promotion', async () => {
    // A progress deadline beyond the timeout: at the deadline the scheduler would fail the deployment.
    const update = fastUpdate({ Canary: 1, ProgressDeadline: 3600e9 });
    const v0 = mockJob('manual', { count: 2, update });
    const { state } = await converge(h.job, null, jobConfig(v0));
    const v1 = mockJob('manual', { count: 2, config: { run_for: '2h' }, update });
    const change = await h.job.plan({ prior: state, config: jobConfig(v1, { timeouts: { update: '1s' } }) });
    const started = Date.now();
    const err = await applyFailure(h.job, change);
    remember(err);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err.message).toContain('update of job manual timed out after 1s');
    expect(err.message).toMatch(
      /deployment [0-9a-f]{8} is awaiting promotion of its canaries \(groups web\)/,
    );
    expect((err as ResourceApplyError).state).toMatchObject({ version: 1, deployment_status: 'running' });
  });

  it('times out a create whose tasks never start, naming the deployment progress', async () => {
    const job = mockJob('slow', {
      count: 1,
      config: { run_for: '1h', start_block_for: '1h' },
      update: fastUpdate({ HealthyDeadline: 3600e9, ProgressDeadline: 7200e9 }),
    });
    const change = await h.job.plan({
      prior: null,
      config: jobConfig(job, { timeouts: { create: '500ms' } }),
    });
    const err = await applyFailure(h.job, change);
    remember(err);
    expect(err.message).toContain('create of job slow timed out after 500ms');
    expect(err.message).toMatch(/deployment [0-9a-f]{8} still running/);
    expect(err.message).toContain('group "web": 0/1 healthy, 1 placed, 0 unhealthy');
    expect((err as ResourceApplyError).state).toMatchObject({ id: 'slow', jobspec: null });
  });

  it('fails the plan on placement failures, or warns when fail_on_placement_failure is false', async () => {
    const job = mockJob('huge', { count: 1, cpu: 100_000 });
    const strict = await h.job.plan({ prior: null, config: jobConfig(job) });
    expect(strict.action).toBe('noop');
    expect(strict.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        summary: 'The scheduler cannot place all allocations of job "huge"',
        detail: expect.stringMatching(
          /task group "web" \(failed to place 1 allocation\): .*dimension "cpu" exhausted on 3 nodes/,
        ),
      }),
    ]);
    const lenient = await h.job.plan({
      prior: null,
      config: jobConfig(job, { fail_on_placement_failure: false, timeouts: { create: '300ms' } }),
    });
    expect(lenient.action).toBe('create');
    expect(lenient.diagnostics).toEqual([expect.objectContaining({ severity: 'warning' })]);
    expect(lenient.annotations?.scheduler?.failedTGAllocs).toHaveProperty('web');
    const err = await applyFailure(h.job, lenient);
    remember(err);
    expect(err.message).toContain('timed out');
    expect(err.message).toContain('placement failures:\ntask group "web" (failed to place 1 allocation)');
  });

  it('warns, not fails, when the cluster cannot be reached at plan time for a job not yet created', async () => {
    const offline = schedProvider.configure({ address: 'http://127.0.0.1:9', retries: 0, token: TOKEN }, {});
    try {
      const handler = offline.resources['sched_job']!;
      const change = await handler.plan({ prior: null, config: jobConfig(mockJob('later')) });
      expect(change.action).toBe('create');
      expect(change.diagnostics).toEqual([
        expect.objectContaining({
          severity: 'warning',
          summary: 'Cannot reach the scheduler to plan job "later"',
        }),
      ]);
      const hcl = await handler.plan({ prior: null, config: { jobspec: 'job "later" {}' } });
      expect(hcl.action).toBe('create');
      expect(hcl.diagnostics[0]).toMatchObject({
        severity: 'warning',
        summary: 'Cannot reach the scheduler to parse the HCL jobspec',
      });
      const prior: State = {
        id: 'later',
        namespace: 'default',
        jobspec: jobConfig(mockJob('later'))['jobspec'],
      };
      const existing = await handler.plan({ prior, config: jobConfig(mockJob('later', { count: 5 })) });
      expect(existing.diagnostics[0]).toMatchObject({
        severity: 'error',
        summary: 'Cannot read job "later"',
      });
      seen.push(
        ...[change, hcl, existing].flatMap((c) => c.diagnostics.map((d) => `${d.summary} ${d.detail}`)),
      );
    } finally {
      await offline.close();
    }
  });

  it('waits for a batch job to complete, and reports a failed one with its exit code', async () => {
    const ok = await converge(
      h.job,
      null,
      jobConfig(mockJob('once', { type: 'batch', count: 2, config: { run_for: '100ms' } })),
    );
    expect(ok.state!['task_groups']).toEqual([expect.objectContaining({ complete: 2 })]);
    expect(ok.events.pop()!.message).toBe('allocations of version 0: 2 complete of 2');
    const bad = mockJob('crash', { type: 'batch', count: 1, config: { run_for: '10ms', exit_code: 2 } });
    const change = await h.job.plan({ prior: null, config: jobConfig(bad) });
    const err = await applyFailure(h.job, change);
    remember(err);
    expect(err.message).toMatch(/^allocations of job crash version 0 failed:/);
    expect(err.message).toContain('Terminated: Exit Code: 2');
  });

  it('re-runs a dead batch job when rerun_if_dead is set', async () => {
    const job = mockJob('nightly', { type: 'batch', count: 1, config: { run_for: '10ms' } });
    const { state } = await converge(h.job, null, jobConfig(job, { rerun_if_dead: true }));
    const read = (await h.job.read(state!))!;
    expect(read['status']).toBe('dead');
    const firstAlloc = (read['allocation_ids'] as string[])[0];
    const change = await h.job.plan({ prior: read, config: jobConfig(job, { rerun_if_dead: true }) });
    expect(change.action).toBe('update');
    expect(change.diagnostics).toEqual([expect.objectContaining({ summary: 'Job "nightly" is dead' })]);
    const after = (await h.job.apply(change))!;
    expect(after['allocation_ids']).toHaveLength(1);
    expect(after['allocation_ids']).not.toContain(firstAlloc);
    expect(after['task_groups']).toEqual([expect.objectContaining({ complete: 1 })]);
    const without = await h.job.plan({ prior: (await h.job.read(after))!, config: jobConfig(job) });
    expect(without.action).toBe('update');
    expect(without.private).toMatchObject({ register: false });
  });

  it('keeps the cluster counts with preserve_counts, without a perpetual diff', async () => {
    const job = mockJob('scaled', { count: 1, update: fastUpdate() });
    const { state } = await converge(h.job, null, jobConfig(job, { preserve_counts: true }));
    await h.f.sched.jobs.register({ ...job, TaskGroups: [{ ...job.TaskGroups![0]!, Count: 3 }] });
    const read = (await h.job.read(state!))!;
    const same = await h.job.plan({ prior: read, config: jobConfig(job, { preserve_counts: true }) });
    expect(same.action).toBe('noop');
    const changed = await converge(
      h.job,
      read,
      jobConfig({ ...job, Priority: 60 }, { preserve_counts: true }),
    );
    expect(changed.change.action).toBe('update');
    expect((await h.f.sched.jobs.read('scaled')).value.TaskGroups?.[0]?.Count).toBe(3);
  });

  it('never shows the token in an error or a progress message', async () => {
    const job = mockJob('leaky', {
      count: 1,
      config: { start_error: `auth failed for ${TOKEN}` },
      update: fastUpdate(),
    });
    const events: ProgressEvent[] = [];
    const err = await applyFailure(h.job, await h.job.plan({ prior: null, config: jobConfig(job) }), events);
    remember(err, events);
    expect(err.message).toContain('auth failed for [redacted]');
    expect(seen.length).toBeGreaterThan(10);
    for (const text of seen) expect(text).not.toContain(TOKEN);
  });
});
