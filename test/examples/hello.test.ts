/** examples/hello: deploy, no-op re-plan, a canary rollout through the `image` variable, destroy. */
import { SCHED_FLAVOR } from '../helpers/dialect';
import type { DevAgent } from '../../src/agent';
import { SchedClient } from '../../src/api/sched/client';
import { agentEnv, exampleProject, expectExit, startExampleAgent, type ExampleProject } from './harness';

describe('examples/hello', () => {
  let agent: DevAgent;
  let project: ExampleProject;
  let sched: SchedClient;

  beforeAll(async () => {
    agent = await startExampleAgent();
    project = exampleProject('hello');
    sched = new SchedClient({
      address: agent.schedulerUrl,
      env: {},
      namespace: 'apps',
      flavor: SCHED_FLAVOR,
    });
  });

  afterAll(async () => {
    await sched?.close();
    await agent?.stop();
    project?.remove();
  });

  it('deploys the namespace and the service, re-plans to no changes, rolls out a canary, destroys', async () => {
    const env = agentEnv(agent);
    const deploy = expectExit(await project.cli(['deploy', '--auto-approve'], env), 0);
    expect(deploy.stdout).toMatch(/Apply complete! Resources: 2 added, 0 changed, 0 destroyed/);
    expect(deploy.stdout).toMatch(/namespace = "apps"/);
    expect(deploy.stdout).toMatch(/job_version = 0/);
    expect(deploy.stdout).toMatch(/deployment_status = "successful"/);
    // The embedded agent is not started when SCHED_ADDR names a cluster.
    expect(deploy.stderr).not.toMatch(/started the embedded dev agent/);

    const { value: allocs } = await sched.jobs.allocations('hello-web');
    expect(allocs.filter((a) => a.ClientStatus === 'running')).toHaveLength(3);

    expectExit(await project.cli(['plan', '--no-synth', '--detailed-exitcode'], env), 0);

    // A new image: the plan shows a destructive update through one canary, the deploy waits for the
    // canary to be healthy, auto-promotes it and replaces the rest.
    const rollout = ['--no-synth', '--var', 'image=nginx:1.28'];
    const plan = expectExit(await project.cli(['plan', ...rollout, '--detailed-exitcode'], env), 2);
    expect(plan.stdout).toMatch(/sched_job\.web will be updated in-place/);
    expect(plan.stdout).toMatch(/Canary 1/);
    const update = expectExit(await project.cli(['deploy', ...rollout, '--auto-approve'], env), 0);
    expect(update.stdout).toMatch(/Apply complete! Resources: 0 added, 1 changed, 0 destroyed/);
    expect(update.stdout).toMatch(/job_version = 1/);
    expect(update.stdout).toMatch(/deployment_status = "successful"/);
    const { value: deployment } = await sched.jobs.latestDeployment('hello-web');
    expect(deployment?.TaskGroups?.['web']).toMatchObject({ DesiredCanaries: 1, Promoted: true });
    const { value: job } = await sched.jobs.read('hello-web');
    expect(job.TaskGroups?.[0]?.Tasks?.[0]?.Config).toMatchObject({ image: 'nginx:1.28' });

    expectExit(await project.cli(['plan', ...rollout, '--detailed-exitcode'], env), 0);

    const destroy = expectExit(await project.cli(['destroy', ...rollout, '--auto-approve'], env), 0);
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: .*2 destroyed/);
    const { value: namespaces } = await sched.namespaces.list();
    expect(namespaces.map((n) => n.Name)).not.toContain('apps');
  });
});
