/**
 * A deploy's slots (`--parallelism`): a job whose rollout is over gives its slot to the next create
 * while its attributes are read back (see job-requests.test.ts for the handler's side), yet with one
 * slot no two rollouts overlap, and every job is recorded with what was read back.
 */
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

test('with one slot, rollouts follow one another and each job is recorded as read back', async () => {
  const ids = ['slot-a', 'slot-b', 'slot-c'];
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_job: Object.fromEntries(ids.map((id) => [id, withPath('app', id, { jobspec: jobspec(id) })])),
      },
    }),
  );
  const before = p.agent.agent.requests.length;
  const r = await p.cli(['deploy', '--no-synth', '--auto-approve', '--parallelism', '1']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
  const requests = p.agent.agent.requests.slice(before);
  const registrations = requests.filter((q) => q.method === 'POST' && q.path === '/v1/jobs');
  expect(registrations).toHaveLength(3);

  // Deployments one after another: a slot's next rollout starts after the last one succeeded.
  const { value: deployments } = await p.agent.sched.deployments.list({ namespace: 'default' });
  const mine = deployments
    .filter((d) => ids.includes(d.JobID ?? ''))
    .sort((a, b) => (a.CreateTime ?? 0) - (b.CreateTime ?? 0));
  expect(mine.map((d) => d.Status)).toEqual(['successful', 'successful', 'successful']);
  for (let i = 1; i < mine.length; i++)
    expect(mine[i]!.CreateTime ?? 0).toBeGreaterThanOrEqual(mine[i - 1]!.ModifyTime ?? Infinity);

  // What was read back is what the state records.
  const s = p.readState();
  for (const res of s.resources.filter((x) => x.type === 'sched_job')) {
    const a = res.instances[0]!.attributes as Record<string, unknown>;
    expect(a['deployment_status']).toBe('successful');
    expect((a['allocation_ids'] as string[]).length).toBeGreaterThan(0);
  }
}, 60_000);
