/** examples/batch: deploy, dispatch the parameterized job, re-plan to no changes, destroy. */
import { SCHED_FLAVOR } from '../helpers/dialect';
import type { DevAgent } from '../../src/agent';
import { SchedClient } from '../../src/api/sched/client';
import { dispatchThumbnail, waitForJob } from '../../examples/batch/dispatch';
import { agentEnv, exampleProject, expectExit, startExampleAgent, type ExampleProject } from './harness';

describe('examples/batch', () => {
  let agent: DevAgent;
  let project: ExampleProject;
  let sched: SchedClient;

  beforeAll(async () => {
    agent = await startExampleAgent();
    project = exampleProject('batch');
    sched = new SchedClient({ address: agent.schedulerUrl, env: {}, flavor: SCHED_FLAVOR });
  });

  afterAll(async () => {
    await sched?.close();
    await agent?.stop();
    project?.remove();
  });

  it('deploys both jobs, dispatches a child that completes, re-plans to no changes and destroys', async () => {
    const env = agentEnv(agent);
    const deploy = expectExit(await project.cli(['deploy', '--auto-approve'], env), 0);
    expect(deploy.stdout).toMatch(/Apply complete! Resources: 2 added, 0 changed, 0 destroyed/);
    expect(deploy.stdout).toMatch(/thumbnail_type\s*=\s*"batch"/);

    // The batch job ran its two instances to completion.
    const report = await waitForJob(sched, 'nightly-report', 10_000);
    expect(report.allocations.map((a) => a.ClientStatus)).toEqual(['complete', 'complete']);

    // The parameterized job runs nothing until dispatched; the HCL2 variables reached the task.
    const { value: parent } = await sched.jobs.read('thumbnail');
    expect(parent.ParameterizedJob).toMatchObject({ Payload: 'required', MetaRequired: ['image_id'] });
    expect(parent.TaskGroups?.[0]?.Tasks?.[0]?.Config).toMatchObject({ run_for: '5s' });
    expect((await sched.jobs.allocations('thumbnail')).value).toEqual([]);

    const child = await dispatchThumbnail(sched, {
      imageId: 'img-42',
      size: '256x256',
      input: { source: 's3://images/img-42.png' },
    });
    expect(child.jobId).toMatch(/^thumbnail\/dispatch-\d+-img-42-/);
    const done = await waitForJob(sched, child.jobId, 10_000);
    expect(done.status).toBe('dead');
    expect(done.allocations.map((a) => a.ClientStatus)).toEqual(['complete']);
    const { value: dispatched } = await sched.jobs.read(child.jobId);
    expect(dispatched.Meta).toMatchObject({ image_id: 'img-42', size: '256x256' });
    expect(Buffer.from(dispatched.Payload ?? '', 'base64').toString('utf8')).toBe(
      JSON.stringify({ source: 's3://images/img-42.png' }),
    );

    // Neither the finished batch job nor the dispatched child is drift.
    const plan = await project.cli(['plan', '--no-synth', '--detailed-exitcode'], env);
    expectExit(plan, 0);
    expect(plan.stdout).toMatch(/No changes/);

    const destroy = expectExit(await project.cli(['destroy', '--no-synth', '--auto-approve'], env), 0);
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: .*2 destroyed/);
    for (const id of ['nightly-report', 'thumbnail']) {
      const { value: after } = await sched.jobs.read(id);
      expect(after.Stop).toBe(true);
    }
  });
});
