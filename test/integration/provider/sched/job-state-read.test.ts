/**
 * The end of an apply reads the job and its allocations with schemas narrowed to what the computed
 * attributes use (fetchAttributes): the attributes must come out exactly as from the full reads
 * (fetchRemote), and the narrow client reads hand back the fields they decode as the full ones do.
 */
import { eventually, startAgent, type AgentFixture } from '../../../helpers/agent';
import { mockJob } from '../../../helpers/jobs';
import {
  AllocationStatusSchema,
  EvaluationOutcomeSchema,
  JobAttributesSchema,
  type Job,
} from '../../../../src/api/sched/schemas';
import type { SchedProviderContext } from '../../../../src/provider/sched/context';
import { computedAttributes, fetchAttributes, fetchRemote } from '../../../../src/provider/sched/job/state';

/** Two groups with meta, one with two tasks, a second datacenter: every path the attributes read. */
function twoGroups(id: string): Job {
  const job = mockJob(id, { count: 2 });
  const web = job.TaskGroups![0]!;
  return {
    ...job,
    Datacenters: ['dc1', 'dc2'],
    TaskGroups: [
      { ...web, Meta: { tier: 'front' }, Tasks: [...web.Tasks!, { ...web.Tasks![0]!, Name: 'sidecar' }] },
      { ...web, Name: 'worker', Count: 1 },
    ],
  };
}

/** The keys of `o` named in `keys` that it has (an absent optional field stays absent). */
function pick(o: object, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
}

describe('sched_job: the narrow reads at the end of an apply', () => {
  let f: AgentFixture;
  let ctx: SchedProviderContext;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
    ctx = { client: f.sched, defaults: {}, redact: (s) => s };
  });
  afterAll(() => f.stop());

  /** Registers the job and waits for it to settle (its three allocations run, its rollout ended), so two reads see the same. */
  async function running(id: string): Promise<void> {
    await f.sched.jobs.register(twoGroups(id));
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations(id);
      expect(value.filter((a) => a.ClientStatus === 'running')).toHaveLength(3);
      expect((await f.sched.jobs.latestDeployment(id)).value?.Status).toBe('successful');
      expect((await f.sched.jobs.read(id)).value.Status).toBe('running');
    });
  }

  it('records the same computed attributes as the full reads', async () => {
    await running('narrow');
    const ref = { id: 'narrow', namespace: 'default' };
    const full = await fetchRemote(ctx, ref);
    const narrow = await fetchAttributes(ctx, ref);
    expect(full).not.toBeNull();
    const attributes = computedAttributes(narrow!);
    expect(attributes).toEqual(computedAttributes(full!));
    expect(attributes['task_groups']).toEqual([
      expect.objectContaining({
        name: 'web',
        tasks: ['server', 'sidecar'],
        meta: { tier: 'front' },
        running: 2,
      }),
      expect.objectContaining({ name: 'worker', tasks: ['server'], meta: null, running: 1 }),
    ]);
    expect(attributes['allocation_ids']).toHaveLength(3);
  });

  it('hands back exactly the fields it decodes, with the values the full reads give', async () => {
    await running('picked');
    const [{ value: job }, { value: narrow }] = await Promise.all([
      f.sched.jobs.read('picked'),
      f.sched.jobs.readAttributes('picked'),
    ]);
    const { TaskGroups, ...top } = narrow;
    expect(Object.keys(top).sort()).toEqual(
      Object.keys(JobAttributesSchema.shape)
        .filter((k) => k !== 'TaskGroups')
        .sort(),
    );
    expect(top).toEqual(pick(job, Object.keys(top)));
    expect(TaskGroups).toEqual(
      job.TaskGroups!.map((g) => ({
        ...pick(g, ['Name', 'Count', 'Meta']),
        Tasks: g.Tasks!.map((t) => ({ Name: t.Name })),
      })),
    );
    const [{ value: allocs }, { value: statuses }] = await Promise.all([
      f.sched.jobs.allocations('picked'),
      f.sched.jobs.allocationStatuses('picked'),
    ]);
    const fields = Object.keys(AllocationStatusSchema.shape);
    expect(statuses).toHaveLength(3);
    expect(statuses).toEqual(allocs.map((a) => pick(a, fields)));
  });

  it('reads an evaluation for its outcome with the values the full read gives', async () => {
    const { value: registered } = await f.sched.jobs.register(twoGroups('evaluated'));
    const evalId = registered.EvalID!;
    // Once complete the evaluation stays as it is, so both reads see the same one.
    await eventually(async () =>
      expect((await f.sched.evaluations.read(evalId)).value.Status).toBe('complete'),
    );
    const [{ value: full }, { value: outcome }] = await Promise.all([
      f.sched.evaluations.read(evalId),
      f.sched.evaluations.readOutcome(evalId),
    ]);
    expect(outcome.ID).toBe(evalId);
    expect(outcome).toEqual(pick(full, Object.keys(EvaluationOutcomeSchema.shape)));
  });

  it('answers null for a job that does not exist, as the full read does', async () => {
    await expect(fetchAttributes(ctx, { id: 'absent', namespace: 'default' })).resolves.toBeNull();
  });
});
