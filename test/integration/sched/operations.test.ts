import { request } from 'undici';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { ConflictError, ValidationError } from '../../../src/api/errors';
import type { Job } from '../../../src/api/sched/schemas';

describe('scheduler: placement, dispatch, periodic, revert, blocking queries', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false, nodes: 2, nodeMemory: 1024 });
  });
  afterAll(() => f.stop());

  it('records a placement failure with metrics and a blocked evaluation that unblocks when capacity appears', async () => {
    await f.sched.jobs.register(mockJob('hog', { count: 2, memory: 900 }));
    await eventually(async () =>
      expect((await f.sched.jobs.summary('hog')).value.Summary?.['web']?.Running).toBe(2),
    );
    const { value: reg } = await f.sched.jobs.register(mockJob('waiting', { count: 1, memory: 500 }));
    const ev = await eventually(async () => {
      const { value } = await f.sched.evaluations.read(reg.EvalID!);
      expect(value.Status).toBe('complete');
      return value;
    });
    expect(ev.FailedTGAllocs?.['web']).toMatchObject({
      NodesEvaluated: 2,
      NodesExhausted: 2,
      DimensionExhausted: { memory: 2 },
    });
    expect(ev.BlockedEval).toBeTruthy();
    const { value: blocked } = await f.sched.evaluations.read(ev.BlockedEval!);
    expect(blocked.Status).toBe('blocked');
    expect((await f.sched.jobs.summary('waiting')).value.Summary?.['web']?.Queued).toBe(1);
    expect((await f.sched.jobs.read('waiting')).value.Status).toBe('pending');

    await f.sched.jobs.deregister('hog');
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('waiting');
      expect(value[0]?.ClientStatus).toBe('running');
    });
    expect((await f.sched.evaluations.read(ev.BlockedEval!)).value.Status).toBe('complete');
  });

  it('dispatches a parameterized job with payload and meta, idempotently, and rejects bad dispatches', async () => {
    const parent: Job = {
      ...mockJob('report', { type: 'batch', count: 1, config: { run_for: '20ms' } }),
      ParameterizedJob: { Payload: 'required', MetaRequired: ['customer'], MetaOptional: ['tier'] },
    };
    await f.sched.jobs.register(parent);
    const { value: d1 } = await f.sched.jobs.dispatch(
      'report',
      { Payload: Buffer.from('hello').toString('base64'), Meta: { customer: 'acme' } },
      { idempotencyToken: 'tok-1' },
    );
    expect(d1.DispatchedJobID).toMatch(/^report\/dispatch-\d+-[0-9a-f]{8}$/);
    const { value: again } = await f.sched.jobs.dispatch(
      'report',
      { Payload: Buffer.from('hello').toString('base64'), Meta: { customer: 'acme' } },
      { idempotencyToken: 'tok-1' },
    );
    expect(again.DispatchedJobID).toBe(d1.DispatchedJobID);
    const { value: child } = await f.sched.jobs.read(d1.DispatchedJobID!);
    expect(child).toMatchObject({
      ParentID: 'report',
      Dispatched: true,
      Payload: Buffer.from('hello').toString('base64'),
    });
    expect(child.Meta?.['customer']).toBe('acme');
    await eventually(async () =>
      expect((await f.sched.jobs.read(d1.DispatchedJobID!)).value.Status).toBe('dead'),
    );
    const { value: allocs } = await f.sched.jobs.allocations(d1.DispatchedJobID!);
    expect(allocs[0]?.ClientStatus).toBe('complete');

    await expect(f.sched.jobs.dispatch('report', { Meta: { customer: 'x' } })).rejects.toThrow(
      /payload is not provided but required/,
    );
    await expect(
      f.sched.jobs.dispatch('report', { Payload: 'aGk=', Meta: { customer: 'x', other: 'y' } }),
    ).rejects.toThrow(/unpermitted metadata keys: \[other\]/);
    await expect(f.sched.jobs.dispatch('report', { Payload: 'aGk=' })).rejects.toThrow(
      /required meta keys: \[customer\]/,
    );
    // Over the limit: the raw endpoint, so the client's own check does not stop it first.
    const big = await request(`${f.agent.schedulerUrl}/v1/job/report/dispatch`, {
      method: 'POST',
      body: JSON.stringify({ Payload: Buffer.alloc(16385).toString('base64'), Meta: { customer: 'x' } }),
    });
    expect(big.statusCode).toBe(400);
    expect(await big.body.text()).toContain('16385 > 16384');
    // The raw-payload endpoint: the whole body becomes the payload.
    await f.sched.jobs.register({
      ...mockJob('raw-report', { type: 'batch', count: 1, config: { run_for: '10ms' } }),
      ParameterizedJob: { Payload: 'optional' },
    });
    const { value: rawDispatch } = await f.sched.jobs.dispatchPayload('raw-report', '{"any": "json"}');
    const { value: rawChild } = await f.sched.jobs.read(rawDispatch.DispatchedJobID!);
    expect(Buffer.from(rawChild.Payload as string, 'base64').toString()).toBe('{"any": "json"}');
  });

  it('forces a periodic job launch and counts its children', async () => {
    const periodic: Job = {
      ...mockJob('nightly', { type: 'batch', count: 1, config: { run_for: '10ms' } }),
      Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron', ProhibitOverlap: true },
    };
    const { value: reg } = await f.sched.jobs.register(periodic);
    expect(reg.EvalID ?? '').toBe('');
    const { value: plan } = await f.sched.jobs.plan(periodic);
    expect(new Date(plan.NextPeriodicLaunch!).getUTCHours()).toBe(3);
    const { value: forced } = await f.sched.jobs.periodicForce('nightly');
    expect(forced.EvalID).toBeTruthy();
    const { value: jobs } = await f.sched.jobs.list({ prefix: 'nightly/periodic-' });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.ParentID).toBe('nightly');
    await eventually(async () => {
      const { value } = await f.sched.jobs.summary('nightly');
      expect(value.Children).toMatchObject({ Dead: 1, Running: 0, Pending: 0 });
    });
  });

  it('reverts to a version with EnforcePriorVersion as check-and-set', async () => {
    await f.sched.jobs.register(mockJob('rev', { count: 1, meta: { v: '0' } }));
    await f.sched.jobs.register(mockJob('rev', { count: 1, meta: { v: '1' } }));
    const err = await f.sched.jobs
      .revert('rev', { JobVersion: 0, EnforcePriorVersion: 0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    const { value } = await f.sched.jobs.revert('rev', { JobVersion: 0, EnforcePriorVersion: 1 });
    expect(value.EvalID).toBeTruthy();
    const { value: job } = await f.sched.jobs.read('rev');
    expect(job.Version).toBe(2);
    expect(job.Meta?.['v']).toBe('0');
    await expect(f.sched.jobs.revert('rev', { JobVersion: 7 })).rejects.toThrow(/version 7 not found/);
  });

  it('wakes a blocking query within milliseconds of the write', async () => {
    await f.sched.jobs.register(mockJob('blocker', { count: 1 }));
    // Let the deployment settle: its last step marks the job stable, which is a write to the job.
    await eventually(async () => expect((await f.sched.jobs.read('blocker')).value.Stable).toBe(true));
    const { meta } = await f.sched.jobs.read('blocker');
    let wokeAt = 0;
    const started = Date.now();
    const pending = f.sched.jobs.read('blocker', { index: meta.index, wait: '30s' }).then((r) => {
      wokeAt = Date.now();
      return r;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(wokeAt).toBe(0); // still waiting
    const writeAt = Date.now();
    await f.sched.jobs.register(mockJob('blocker', { count: 2 }));
    const woke = await pending;
    expect(woke.meta.index).toBeGreaterThan(meta.index);
    expect(woke.value.TaskGroups?.[0]?.Count).toBe(2);
    expect(wokeAt - writeAt).toBeLessThan(100);
    expect(wokeAt - started).toBeGreaterThanOrEqual(200);
  });

  it('a blocking query with a short wait returns the same index when nothing changes', async () => {
    const { meta } = await f.sched.jobs.read('rev');
    const started = Date.now();
    const again = await f.sched.jobs.read('rev', { index: meta.index, wait: '300ms' });
    expect(again.meta.index).toBe(meta.index);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('rejects invalid jobs with every problem named, and changes nothing', async () => {
    const before = f.agent.store.tableIndex('sched/jobs');
    const bad = {
      ...mockJob('bad job'),
      Priority: 200,
      TaskGroups: [{ Name: 'web', Count: -1, Tasks: [{ Name: 't', Resources: { CPU: 0 } }] }],
    } as Job;
    const err = await f.sched.jobs.register(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const msg = (err as ValidationError).serverMessage;
    expect(msg).toContain('Job.ID: job ID contains a space');
    expect(msg).toContain('Job.Priority: job priority must be between [1, 100]');
    expect(msg).toContain('Job.TaskGroups[0].Count: task group count must be a non-negative integer');
    expect(msg).toContain('Job.TaskGroups[0].Tasks[0].Driver: missing task driver');
    expect(msg).toContain('Job.TaskGroups[0].Tasks[0].Resources.CPU: minimum CPU value is 1');
    expect(f.agent.store.tableIndex('sched/jobs')).toBe(before);
  });

  it('answers malformed requests with a 400 naming the problem, never crashing or writing', async () => {
    const base = f.agent.schedulerUrl;
    const before = f.agent.store.index;
    const cases: Array<[string, string, string | undefined, number, RegExp]> = [
      ['POST', '/v1/jobs', '{"Job": ', 400, /failed to parse JSON body/],
      ['POST', '/v1/jobs', '{"Job": {"ID": 5}}', 400, /ID: Invalid input: expected string/],
      ['POST', '/v1/jobs', '{}', 400, /Job: .*expected object/],
      ['POST', '/v1/jobs', '{"Job": {"ID": "x", "TaskGroups": "nope"}}', 400, /TaskGroups/],
      ['GET', '/v1/allocations?prefix=abc', undefined, 400, /even number of hexadecimal/],
      ['GET', '/v1/allocation/abcdef1', undefined, 400, /not a full UUID/],
      ['GET', '/v1/jobs?per_page=0', undefined, 400, /per_page: must be a positive integer/],
      ['GET', '/v1/jobs?index=abc', undefined, 400, /index: Invalid index "abc"/],
      ['GET', '/v1/job/nope', undefined, 404, /job not found/],
      ['GET', '/v1/nope', undefined, 404, /Invalid URL path/],
      ['DELETE', '/v1/jobs', undefined, 405, /Invalid method/],
      [
        'POST',
        '/v1/job/x/plan',
        '{"Job": {"ID": "y", "TaskGroups": []}}',
        400,
        /does not match request path|missing job task groups/,
      ],
      ['GET', '/v1/jobs?region=mars', undefined, 400, /region: no path to region "mars"/],
    ];
    for (const [method, path, body, status, pattern] of cases) {
      const res = await request(`${base}${path}`, { method: method as 'GET', body });
      const text = await res.body.text();
      expect({ path, status: res.statusCode }).toEqual({ path, status });
      expect(text).toMatch(pattern);
    }
    expect(f.agent.store.index).toBe(before);
    // Still alive and answering.
    expect((await f.sched.jobs.list()).value.length).toBeGreaterThan(0);
  });
});
