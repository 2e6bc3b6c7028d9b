import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import type { Job } from '../../../src/api/sched/schemas';
import type { Constraint, Spread } from '../../../src/api/sched/schemas/constraints';

/**
 * distinct_hosts, distinct_property and spread, as Nomad places them, over HTTP against a real dev
 * agent. The agent's nodes (dev-node-1..N) all sit in one datacenter; their meta `rack` alternates
 * r1, r2, r1, r2, ... and `attr.unique.hostname` is the node's name.
 */
type AllocMetric = NonNullable<
  NonNullable<Awaited<ReturnType<AgentFixture['sched']['jobs']['plan']>>['value']['FailedTGAllocs']>[string]
>;

interface Extra {
  count: number;
  jobConstraints?: Constraint[];
  groupConstraints?: Constraint[];
  spreads?: Spread[];
  /** Changes the task's config: a destructive update of a running job. */
  version?: string;
  /** Allocations a rolling update replaces at once (default: no update block). */
  maxParallel?: number;
}

function job(id: string, x: Extra): Job {
  const j = mockJob(id, {
    count: x.count,
    config: { run_for: '1h', v: x.version ?? '1' },
    update: x.maxParallel === undefined ? undefined : rolling({ MaxParallel: x.maxParallel }),
  });
  if (x.jobConstraints) j.Constraints = x.jobConstraints;
  const g = j.TaskGroups![0]!;
  if (x.groupConstraints) g.Constraints = x.groupConstraints;
  if (x.spreads) g.Spreads = x.spreads;
  return j;
}

/** A job of two groups, `web` and `api`, each of `count`, with the same group constraints. */
function twoGroups(id: string, count: number, x: Pick<Extra, 'jobConstraints' | 'groupConstraints'>): Job {
  const j = job(id, { count, ...x });
  const api = structuredClone(j.TaskGroups![0]!);
  api.Name = 'api';
  j.TaskGroups!.push(api);
  return j;
}

const distinctHosts: Constraint = { Operand: 'distinct_hosts', RTarget: 'true' };
const distinctRack = (limit?: number): Constraint => ({
  Operand: 'distinct_property',
  LTarget: '${meta.rack}',
  ...(limit === undefined ? {} : { RTarget: String(limit) }),
});
const onNodes = (...names: string[]): Constraint => ({
  LTarget: '${attr.unique.hostname}',
  Operand: 'regexp',
  RTarget: `^(${names.join('|')})$`,
});

/** How many allocations a FailedTGAllocs entry stands for (Nomad coalesces all but the first). */
const failedCount = (m: AllocMetric | null | undefined): number => (m ? (m.CoalescedFailures ?? 0) + 1 : 0);

describe('scheduler: distinct_hosts, distinct_property and spread placement', () => {
  let f: AgentFixture;
  /** Node ID -> name and rack. */
  const nodes = new Map<string, { name: string; rack: string }>();
  const jobs: string[] = [];

  beforeAll(async () => {
    f = await startAgent({ registry: false, nodes: 4 });
    const { value } = await f.sched.nodes.list();
    for (const n of value) {
      const { value: full } = await f.sched.nodes.read(n.ID!);
      nodes.set(n.ID!, { name: n.Name!, rack: full.Meta!['rack']! });
    }
  });
  afterAll(() => f.stop());
  // Each case starts from an empty cluster: a left-over job would weigh on bin-packing and spread.
  afterEach(async () => {
    for (const id of jobs.splice(0)) await f.sched.jobs.deregister(id, { purge: true });
    await eventually(async () => {
      const { value } = await f.sched.allocations.list();
      expect(value.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus !== 'complete')).toEqual([]);
    });
  });

  /** Registers and waits for the evaluation to finish; returns its FailedTGAllocs. */
  const evaluate = async (j: Job) => {
    if (!jobs.includes(j.ID!)) jobs.push(j.ID!);
    const { value } = await f.sched.jobs.register(j);
    const ev = await eventually(async () => {
      const { value: e } = await f.sched.evaluations.read(value.EvalID!);
      expect(e.Status).toBe('complete');
      return e;
    });
    return ev.FailedTGAllocs ?? {};
  };
  const perGroup = (failed: Record<string, AllocMetric | null>): Record<string, number> =>
    Object.fromEntries(Object.entries(failed).map(([g, m]) => [g, failedCount(m)]));
  /** Registers; returns the evaluation's failed placements of group `web` (undefined when all placed). */
  const register = async (j: Job): Promise<AllocMetric | undefined> =>
    (await evaluate(j))['web'] ?? undefined;
  /** Registers; returns how many allocations of each group failed to place. */
  const registerGroups = async (j: Job): Promise<Record<string, number>> => perGroup(await evaluate(j));
  const planGroups = async (j: Job): Promise<Record<string, number>> =>
    perGroup((await f.sched.jobs.plan(j)).value.FailedTGAllocs ?? {});
  /** The plan, then the registration, fail these many allocations of each group. */
  const expectGroupFailures = async (j: Job, failures: Record<string, number>): Promise<void> => {
    expect(await planGroups(j)).toEqual(failures);
    expect(await registerGroups(j)).toEqual(failures);
  };
  const plan = async (j: Job) => {
    const { value } = await f.sched.jobs.plan(j);
    return {
      failed: value.FailedTGAllocs?.['web'] ?? undefined,
      updates: value.Annotations?.DesiredTGUpdates?.['web'],
    };
  };
  /** The nodes of the job's allocations desired to run, once there are `n` and all are running. */
  const live = async (id: string, n: number): Promise<string[]> =>
    eventually(async () => {
      const { value } = await f.sched.jobs.allocations(id);
      const run = value.filter((a) => a.DesiredStatus === 'run');
      expect(run.map((a) => a.ClientStatus)).toEqual(Array(n).fill('running'));
      return run.map((a) => a.NodeID!);
    });
  const racks = (nodeIds: string[]): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const id of nodeIds) out[nodes.get(id)!.rack] = (out[nodes.get(id)!.rack] ?? 0) + 1;
    return out;
  };

  it('sees four nodes, racks r1 and r2 alternating', () => {
    expect([...nodes.values()].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'dev-node-1', rack: 'r1' },
      { name: 'dev-node-2', rack: 'r2' },
      { name: 'dev-node-3', rack: 'r1' },
      { name: 'dev-node-4', rack: 'r2' },
    ]);
  });

  describe('distinct_hosts', () => {
    it('job level: one allocation per node, the rest failed with distinct_hosts named', async () => {
      const j = job('dh-job', { count: 6, jobConstraints: [distinctHosts] });
      const planned = await plan(j);
      expect(failedCount(planned.failed)).toBe(2);
      expect(planned.failed!.ConstraintFiltered).toEqual({ distinct_hosts: 4 });
      expect(planned.failed!.NodesFiltered).toBe(4);
      const failed = await register(j);
      expect(failedCount(failed)).toBe(2);
      expect(failed!.ConstraintFiltered).toEqual({ distinct_hosts: 4 });
      const placed = await live('dh-job', 4);
      expect(new Set(placed).size).toBe(4);
    });

    it('group level, on fewer eligible nodes than the count', async () => {
      const j = job('dh-group', {
        count: 3,
        groupConstraints: [onNodes('dev-node-1', 'dev-node-2'), distinctHosts],
      });
      const planned = await plan(j);
      expect(failedCount(planned.failed)).toBe(1);
      expect(planned.failed!.ConstraintFiltered).toMatchObject({ distinct_hosts: 2 });
      const failed = await register(j);
      expect(failedCount(failed)).toBe(1);
      expect(failed!.ConstraintFiltered).toMatchObject({ distinct_hosts: 2 });
      const placed = await live('dh-group', 2);
      expect(placed.map((id) => nodes.get(id)!.name).sort()).toEqual(['dev-node-1', 'dev-node-2']);
    });

    it('with enough nodes every allocation lands on a different node', async () => {
      expect(
        await register(job('dh-enough', { count: 4, groupConstraints: [distinctHosts] })),
      ).toBeUndefined();
      expect(new Set(await live('dh-enough', 4)).size).toBe(4);
    });

    it('allocations of another job do not count', async () => {
      expect(await register(job('dh-other', { count: 4, jobConstraints: [distinctHosts] }))).toBeUndefined();
      await live('dh-other', 4);
      const j = job('dh-mine', { count: 4, jobConstraints: [distinctHosts] });
      expect((await plan(j)).failed).toBeUndefined();
      expect(await register(j)).toBeUndefined();
      expect(new Set(await live('dh-mine', 4)).size).toBe(4);
    });

    it('job level counts every group of the job; group level only the group', async () => {
      await expectGroupFailures(twoGroups('dh-2g-job', 4, { jobConstraints: [distinctHosts] }), { api: 4 });
      await expectGroupFailures(twoGroups('dh-2g-group', 4, { groupConstraints: [distinctHosts] }), {});
    });

    it('RTarget "false" turns it off', async () => {
      const j = job('dh-off', {
        count: 6,
        jobConstraints: [{ Operand: 'distinct_hosts', RTarget: 'false' }],
      });
      expect((await plan(j)).failed).toBeUndefined();
      expect(await register(j)).toBeUndefined();
      await live('dh-off', 6);
    });
  });

  describe('distinct_property', () => {
    it('default limit 1: one allocation per rack, the rest failed', async () => {
      const j = job('dp-one', { count: 3, jobConstraints: [distinctRack()] });
      const planned = await plan(j);
      expect(failedCount(planned.failed)).toBe(1);
      const failed = await register(j);
      expect(failedCount(failed)).toBe(1);
      // Every node is filtered: its rack already has the one allocation allowed.
      expect(failed!.NodesFiltered).toBe(4);
      expect(Object.keys(failed!.ConstraintFiltered ?? {}).sort()).toEqual([
        'distinct_property: ${meta.rack}=r1 used by 1 allocs',
        'distinct_property: ${meta.rack}=r2 used by 1 allocs',
      ]);
      expect(racks(await live('dp-one', 2))).toEqual({ r1: 1, r2: 1 });
    });

    it('RTarget 2: two allocations per rack', async () => {
      const j = job('dp-two', { count: 5, groupConstraints: [distinctRack(2)] });
      expect(failedCount((await plan(j)).failed)).toBe(1);
      const failed = await register(j);
      expect(failedCount(failed)).toBe(1);
      expect(Object.keys(failed!.ConstraintFiltered ?? {}).sort()).toEqual([
        'distinct_property: ${meta.rack}=r1 used by 2 allocs',
        'distinct_property: ${meta.rack}=r2 used by 2 allocs',
      ]);
      expect(racks(await live('dp-two', 4))).toEqual({ r1: 2, r2: 2 });
    });

    it('job level counts every group of the job', async () => {
      await expectGroupFailures(twoGroups('dp-2g-job', 2, { jobConstraints: [distinctRack()] }), { api: 2 });
    });

    // As Nomad's propertyset (SetTGConstraint keeps the group name, filterAllocs drops other groups'
    // allocations): each group places one allocation per rack.
    it('group level counts only the group (Nomad filters the property set to the task group)', async () => {
      await expectGroupFailures(twoGroups('dp-2g-group', 2, { groupConstraints: [distinctRack()] }), {});
    });

    // Nomad's SatisfiesDistinctProperties names the filter `missing property "<target>"`.
    it('a node without the property is never used, and filtered as Nomad names it', async () => {
      const j = job('dp-missing', {
        count: 1,
        jobConstraints: [{ Operand: 'distinct_property', LTarget: '${meta.zone}' }],
      });
      const { failed } = await plan(j);
      expect(failedCount(failed)).toBe(1);
      expect(failed!.NodesFiltered).toBe(4);
      expect(failed!.ConstraintFiltered).toEqual({ 'missing property "${meta.zone}"': 4 });
      const registered = await register(j);
      expect(failedCount(registered)).toBe(1);
      expect(registered).toMatchObject({ ConstraintFiltered: { 'missing property "${meta.zone}"': 4 } });
    });

    it('on a per-node attribute it acts as distinct hosts, and other jobs do not count', async () => {
      const perNode: Constraint = { Operand: 'distinct_property', LTarget: '${attr.unique.hostname}' };
      expect(await register(job('dp-other', { count: 4, jobConstraints: [perNode] }))).toBeUndefined();
      await live('dp-other', 4);
      const failed = await register(job('dp-host', { count: 5, jobConstraints: [perNode] }));
      expect(failedCount(failed)).toBe(1);
      expect(new Set(await live('dp-host', 4)).size).toBe(4);
    });
  });

  describe('spread', () => {
    /** Half fills the r1 nodes, so that bin-packing alone would put new allocations on r1. */
    const fillR1 = async (): Promise<void> => {
      const filler = mockJob('filler', { count: 2, cpu: 2000 });
      filler.Constraints = [onNodes('dev-node-1', 'dev-node-3'), distinctHosts];
      expect(await register(filler)).toBeUndefined();
      expect(racks(await live('filler', 2))).toEqual({ r1: 2 });
    };

    it('without a spread, bin-packing puts count 2 on the fuller rack (the control)', async () => {
      await fillR1();
      expect(await register(job('sp-none', { count: 2 }))).toBeUndefined();
      expect(racks(await live('sp-none', 2))).toEqual({ r1: 2 });
    });

    it('without targets: count 2 over two racks gives 1 + 1, against bin-packing', async () => {
      await fillR1();
      const spreads: Spread[] = [{ Attribute: '${meta.rack}', Weight: 100 }];
      const j = job('sp-two', { count: 2, spreads });
      expect((await plan(j)).failed).toBeUndefined();
      expect(await register(j)).toBeUndefined();
      expect(racks(await live('sp-two', 2))).toEqual({ r1: 1, r2: 1 });
    });

    it('without targets: count 4 over two racks gives 2 + 2', async () => {
      const spreads: Spread[] = [{ Attribute: '${meta.rack}', Weight: 100 }];
      const j = job('sp-even', { count: 4, spreads });
      expect(await register(j)).toBeUndefined();
      expect(racks(await live('sp-even', 4))).toEqual({ r1: 2, r2: 2 });
    });

    it('with targets 75/25: count 4 gives 3 + 1', async () => {
      const spreads: Spread[] = [
        {
          Attribute: '${meta.rack}',
          Weight: 100,
          SpreadTarget: [
            { Value: 'r1', Percent: 75 },
            { Value: 'r2', Percent: 25 },
          ],
        },
      ];
      expect(await register(job('sp-target', { count: 4, spreads }))).toBeUndefined();
      expect(racks(await live('sp-target', 4))).toEqual({ r1: 3, r2: 1 });
    });

    it('over node names: count 4 on 4 nodes, one each', async () => {
      const spreads: Spread[] = [{ Attribute: '${node.unique.name}', Weight: 100 }];
      expect(await register(job('sp-node', { count: 4, spreads }))).toBeUndefined();
      expect(new Set(await live('sp-node', 4)).size).toBe(4);
    });
  });

  describe('releases', () => {
    it('scaling down frees a rack for a later scale-up (distinct_property)', async () => {
      const c = [distinctRack()];
      expect(await register(job('rel-scale', { count: 2, jobConstraints: c }))).toBeUndefined();
      await live('rel-scale', 2);
      expect(await register(job('rel-scale', { count: 1, jobConstraints: c }))).toBeUndefined();
      const [kept] = await live('rel-scale', 1);
      const up = job('rel-scale', { count: 2, jobConstraints: c });
      const planned = await plan(up);
      expect(planned.failed).toBeUndefined();
      expect(planned.updates).toMatchObject({ Place: 1 });
      expect(failedCount((await plan(job('rel-scale', { count: 3, jobConstraints: c }))).failed)).toBe(1);
      expect(await register(up)).toBeUndefined();
      const now = await live('rel-scale', 2);
      expect(now).toContain(kept);
      expect(racks(now)).toEqual({ r1: 1, r2: 1 });
    });

    it('scaling down frees a node for a later scale-up (distinct_hosts on two nodes)', async () => {
      const c = [onNodes('dev-node-1', 'dev-node-2'), distinctHosts];
      expect(await register(job('rel-hosts', { count: 2, groupConstraints: c }))).toBeUndefined();
      await live('rel-hosts', 2);
      expect(await register(job('rel-hosts', { count: 1, groupConstraints: c }))).toBeUndefined();
      await live('rel-hosts', 1);
      const up = job('rel-hosts', { count: 2, groupConstraints: c });
      expect((await plan(up)).failed).toBeUndefined();
      expect(await register(up)).toBeUndefined();
      expect(new Set(await live('rel-hosts', 2)).size).toBe(2);
    });

    it('scaling down and up again keeps a spread even', async () => {
      const spreads: Spread[] = [{ Attribute: '${meta.rack}', Weight: 100 }];
      expect(await register(job('rel-spread', { count: 4, spreads }))).toBeUndefined();
      expect(racks(await live('rel-spread', 4))).toEqual({ r1: 2, r2: 2 });
      expect(await register(job('rel-spread', { count: 1, spreads }))).toBeUndefined();
      await live('rel-spread', 1);
      expect(await register(job('rel-spread', { count: 4, spreads }))).toBeUndefined();
      expect(racks(await live('rel-spread', 4))).toEqual({ r1: 2, r2: 2 });
    });

    it('a stopped job frees its nodes: registering it again places every allocation', async () => {
      const j = job('rel-stop', { count: 4, jobConstraints: [distinctHosts, distinctRack(2)] });
      expect(await register(j)).toBeUndefined();
      await live('rel-stop', 4);
      await f.sched.jobs.deregister('rel-stop');
      await eventually(async () => {
        const { value } = await f.sched.jobs.allocations('rel-stop');
        expect(value.every((a) => a.DesiredStatus === 'stop')).toBe(true);
      });
      expect((await plan(j)).failed).toBeUndefined();
      expect(await register(j)).toBeUndefined();
      expect(new Set(await live('rel-stop', 4)).size).toBe(4);
    });

    it('a destructive update replaces allocations on the nodes the old ones free', async () => {
      const c = [distinctHosts, distinctRack(2)];
      const v1 = job('rel-update', { count: 4, jobConstraints: c, maxParallel: 4 });
      expect(await register(v1)).toBeUndefined();
      await live('rel-update', 4);
      const v2 = job('rel-update', { count: 4, jobConstraints: c, maxParallel: 4, version: '2' });
      const planned = await plan(v2);
      expect(planned.failed).toBeUndefined();
      expect(planned.updates).toMatchObject({ DestructiveUpdate: 4, Place: 0 });
      expect(await register(v2)).toBeUndefined();
      const placed = await eventually(async () => {
        const { value } = await f.sched.jobs.allocations('rel-update');
        const run = value.filter((a) => a.DesiredStatus === 'run');
        expect(run).toHaveLength(4);
        expect(run.every((a) => a.ClientStatus === 'running' && a.JobVersion === 1)).toBe(true);
        return run.map((a) => a.NodeID!);
      });
      expect(new Set(placed).size).toBe(4);
    });

    it('a stopped allocation is replaced on its freed rack', async () => {
      const c = [distinctRack()];
      expect(await register(job('rel-alloc', { count: 2, jobConstraints: c }))).toBeUndefined();
      const before = await live('rel-alloc', 2);
      const { value } = await f.sched.jobs.allocations('rel-alloc');
      const victim = value.find((a) => a.DesiredStatus === 'run' && nodes.get(a.NodeID!)!.rack === 'r1')!;
      await f.sched.allocations.stop(victim.ID!);
      const after = await eventually(async () => {
        const nodesNow = await live('rel-alloc', 2);
        const { value: all } = await f.sched.jobs.allocations('rel-alloc');
        expect(all.find((a) => a.ID === victim.ID)!.DesiredStatus).toBe('stop');
        return nodesNow;
      });
      expect(racks(after)).toEqual({ r1: 1, r2: 1 });
      expect(after).toContain(before.find((id) => id !== victim.NodeID));
    });
  });
});
