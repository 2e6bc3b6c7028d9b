/**
 * Every scheduler client call that the lifecycle, deployment, plan and operations suites do not already
 * make, against the real dev agent: the client and the agent must agree on paths, bodies and shapes.
 */
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { NotFoundError, ValidationError } from '../../../src/api/errors';
import { watch } from '../../../src/api/watch';

describe('scheduler client against the dev agent', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  it('jobs: create, update, parse (with and without Canonicalize), iterate, stable, evaluate', async () => {
    const { value: created } = await f.sched.jobs.create({ Job: mockJob('c1', { count: 1 }) });
    expect(created.EvalID).toBeTruthy();
    const { value: updated } = await f.sched.jobs.update('c1', { Job: mockJob('c1', { count: 2 }) });
    expect(updated.JobModifyIndex).toBeGreaterThan(created.JobModifyIndex ?? 0);

    const hcl = `
variable "count" { default = 2 }
job "parsed" {
  datacenters = ["dc1"]
  group "g" {
    count = var.count
    task "t" {
      driver = "mock"
      config { run_for = "1h" }
    }
  }
}`;
    const { value: raw } = await f.sched.jobs.parse({ JobHCL: hcl, Variables: 'count = 4' });
    expect(raw.ID).toBe('parsed');
    expect(raw.TaskGroups?.[0]?.Count).toBe(4);
    const { value: canon } = await f.sched.jobs.parse({ JobHCL: hcl, Canonicalize: true });
    expect(canon).toMatchObject({ Region: 'global', Namespace: 'default', Type: 'service', Priority: 50 });
    expect(canon.TaskGroups?.[0]?.Tasks?.[0]?.Resources).toMatchObject({ CPU: 100, MemoryMB: 300 });
    await expect(f.sched.jobs.parse({ JobHCL: 'job "x" { bogus = 1 }' })).rejects.toThrow(
      /Unsupported argument/,
    );

    for (let i = 0; i < 5; i++) await f.sched.jobs.register(mockJob(`iter-${i}`, { count: 0 }));
    const seen: string[] = [];
    for await (const stub of f.sched.jobs.iterate({ prefix: 'iter-', perPage: 2 })) seen.push(stub.ID);
    expect(seen).toEqual(['iter-0', 'iter-1', 'iter-2', 'iter-3', 'iter-4']);

    const { value: job } = await f.sched.jobs.read('c1');
    await f.sched.jobs.stable('c1', job.Version ?? 0, true);
    expect((await f.sched.jobs.read('c1')).value.Stable).toBe(true);
    const { value: ev } = await f.sched.jobs.evaluate('c1', { forceReschedule: true });
    await eventually(async () =>
      expect((await f.sched.evaluations.read(ev.EvalID!)).value.Status).toBe('complete'),
    );
    expect((await f.sched.evaluations.read(ev.EvalID!)).value.TriggeredBy).toBe('job-eval-force-reschedule');
  });

  it('allocations: list with prefix/resources/task_states, read, stop (reschedules), signal, restart', async () => {
    await f.sched.jobs.register(mockJob('alloc-ops', { count: 1 }));
    const alloc = await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('alloc-ops');
      expect(value[0]?.ClientStatus).toBe('running');
      return value[0]!;
    });
    const { value: byPrefix } = await f.sched.allocations.list({
      prefix: alloc.ID.slice(0, 4),
      resources: true,
      taskStates: false,
    });
    const mine = byPrefix.find((a) => a.ID === alloc.ID);
    expect(mine?.AllocatedResources).toBeDefined();
    expect(mine?.TaskStates).toBeUndefined();
    const { value: full } = await f.sched.allocations.read(alloc.ID);
    expect(full).toMatchObject({
      ID: alloc.ID,
      JobID: 'alloc-ops',
      TaskGroup: 'web',
      Name: 'alloc-ops.web[0]',
    });
    expect(full.Job?.ID).toBe('alloc-ops');

    await f.sched.allocations.signal(alloc.ID, { signal: 'SIGHUP', task: 'server' });
    await f.sched.allocations.restart(alloc.ID, { task: 'server' });
    await eventually(async () => {
      const { value } = await f.sched.allocations.read(alloc.ID);
      const types = value.TaskStates?.['server']?.Events?.map((e) => e.Type) ?? [];
      expect(types).toEqual(expect.arrayContaining(['Signaling', 'Restart Signaled']));
      expect(value.TaskStates?.['server']?.State).toBe('running');
    });
    await expect(f.sched.allocations.signal(alloc.ID, { signal: 'SIGNOPE' })).rejects.toBeInstanceOf(
      ValidationError,
    );

    const { value: stop } = await f.sched.allocations.stop(alloc.ID);
    expect(stop.EvalID).toBeTruthy();
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('alloc-ops');
      const replacement = value.find((a) => a.ID !== alloc.ID && a.DesiredStatus === 'run');
      expect(replacement?.ClientStatus).toBe('running');
      expect(value.find((a) => a.ID === alloc.ID)).toMatchObject({
        DesiredStatus: 'stop',
        ClientStatus: 'complete',
      });
    });
    await expect(f.sched.allocations.read('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('deployments and evaluations: list, read, allocations; watch follows a deployment with blocking queries', async () => {
    const { value: reg } = await f.sched.jobs.register(mockJob('dep-ops', { count: 2 }));
    const { value: evals } = await f.sched.evaluations.list({ job: 'dep-ops' });
    expect(evals.map((e) => e.ID)).toContain(reg.EvalID);
    await eventually(async () =>
      expect((await f.sched.evaluations.read(reg.EvalID!)).value.Status).toBe('complete'),
    );
    const { value: evalAllocs } = await f.sched.evaluations.allocations(reg.EvalID!);
    expect(evalAllocs).toHaveLength(2);

    const dep = await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('dep-ops');
      expect(value).toBeTruthy();
      return value!;
    });
    const ac = new AbortController();
    const statuses: string[] = [];
    for await (const r of watch(
      (index, signal) => f.sched.deployments.read(dep.ID, { index, wait: '10s', signal }),
      { signal: ac.signal },
    )) {
      statuses.push(r.value.Status ?? '');
      if (r.value.Status === 'successful') ac.abort();
    }
    expect(statuses.at(-1)).toBe('successful');
    const { value: list } = await f.sched.deployments.list();
    expect(list.map((d) => d.ID)).toContain(dep.ID);
    const { value: depAllocs } = await f.sched.deployments.allocations(dep.ID);
    expect(depAllocs).toHaveLength(2);
  });

  it('nodes and namespaces', async () => {
    const { value: nodes } = await f.sched.nodes.list();
    expect(nodes).toHaveLength(3);
    const { value: node } = await f.sched.nodes.read(nodes[0]!.ID);
    expect(node).toMatchObject({ Datacenter: 'dc1', Status: 'ready', SchedulingEligibility: 'eligible' });
    expect(node.Drivers?.['mock']?.Healthy).toBe(true);

    await f.sched.namespaces.upsert({ Name: 'team-a', Description: 'team A', Meta: { owner: 'a' } });
    const { value: ns } = await f.sched.namespaces.read('team-a');
    expect(ns).toMatchObject({ Name: 'team-a', Description: 'team A' });
    const { value: all } = await f.sched.namespaces.list();
    expect(all.map((n) => n.Name)).toEqual(['default', 'team-a']);
    await f.sched.jobs.register(mockJob('in-team', { count: 0, namespace: 'team-a' }));
    expect((await f.sched.jobs.read('in-team', { namespace: 'team-a' })).value.Namespace).toBe('team-a');
    await expect(f.sched.jobs.read('in-team')).rejects.toBeInstanceOf(NotFoundError);
    await expect(f.sched.jobs.register(mockJob('nowhere', { namespace: 'missing' }))).rejects.toThrow(
      /namespace "missing" does not exist/,
    );
    await expect(f.sched.namespaces.delete('team-a')).rejects.toThrow(/non-terminal jobs/);
    await f.sched.jobs.deregister('in-team', { namespace: 'team-a', purge: true });
    await f.sched.namespaces.delete('team-a');
    await expect(f.sched.namespaces.read('team-a')).rejects.toBeInstanceOf(NotFoundError);
  });
});
