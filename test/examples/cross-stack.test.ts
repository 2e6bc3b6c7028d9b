/**
 * A two-stack cdktf app with a cross-stack reference (fixtures/cross-stack: `apps` runs its job in the
 * namespace `base` creates; cdktf wires it through an output of `base` and a terraform_remote_state in
 * `apps`), through the real command line against a dev agent the test owns: planned before anything
 * exists, deployed in dependency order, planned clean (all stacks, and `--stack apps` alone reading
 * what `base` recorded), and destroyed dependants first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DevAgent } from '../../src/agent';
import { agentEnv, expectExit, projectOf, startExampleAgent, type ExampleProject } from './harness';

const OUTPUT = 'cross-stack-output-sched_namespaceteamname';
const REMOTE_STATE = 'data.terraform_remote_state.cross-stack-reference-input-base';

type StateV4 = {
  outputs: Record<string, { value: unknown; sensitive?: boolean }>;
  resources: {
    mode: string;
    type: string;
    provider: string;
    instances: { attributes: Record<string, unknown>; sensitive_attributes: unknown[] }[];
  }[];
};

describe('cross-stack references', () => {
  jest.setTimeout(60_000);
  let agent: DevAgent;
  let project: ExampleProject;

  beforeAll(async () => {
    agent = await startExampleAgent();
    project = projectOf(path.join(__dirname, 'fixtures', 'cross-stack'));
  });

  afterAll(async () => {
    await agent?.stop();
    project?.remove();
  });

  const cli = (argv: string[]) => project.cli(argv, agentEnv(agent, { CI: '1' }));
  const state = (stack: string): StateV4 =>
    JSON.parse(readFileSync(path.join(project.dir, `terraform.${stack}.tfstate`), 'utf8')) as StateV4;
  const get = async (p: string): Promise<Response> => fetch(`${agent.schedulerUrl}${p}`);
  /** Where each stack's section starts in the command's output. */
  const order = (text: string): number[] => ['Stack: base', 'Stack: apps'].map((t) => text.indexOf(t));

  it('plans both stacks before anything exists: the output base will create is not known yet', async () => {
    const { stdout } = expectExit(await cli(['plan', '--detailed-exitcode']), 2);
    const [base, apps] = order(stdout);
    expect(base).toBeGreaterThanOrEqual(0);
    expect(apps).toBeGreaterThan(base!);
    const appsPart = stdout.slice(apps);
    expect(appsPart).toContain(`# ${REMOTE_STATE} will be read during apply`);
    expect(appsPart).toMatch(/\+ resource "sched_job" "worker"[\s\S]*namespace\s+= \(known after apply\)/);
  });

  it('deploys base, then apps with the namespace base recorded', async () => {
    const { stdout } = expectExit(await cli(['deploy', '--auto-approve']), 0);
    const [base, apps] = order(stdout);
    expect(apps).toBeGreaterThan(base!);
    expect((await get('/v1/job/worker?namespace=alpha')).status).toBe(200);

    const baseState = state('base');
    expect(baseState.outputs[OUTPUT]).toEqual({ value: 'alpha', type: 'string', sensitive: true });
    const remote = state('apps').resources.find((r) => r.type === 'terraform_remote_state')!;
    // Recorded as terraform records its built-in provider, so terraform can read this state too.
    expect(remote.provider).toBe('provider["terraform.io/builtin/terraform"]');
    // Typed beside its value, as terraform stores an attribute of any type (bare, `state show` fails).
    expect(remote.instances[0]!.attributes['outputs']).toEqual({
      value: { [OUTPUT]: 'alpha' },
      type: ['object', { [OUTPUT]: 'string' }],
    });
    expect(remote.instances[0]!.sensitive_attributes).toContainEqual([
      { type: 'get_attr', value: 'outputs' },
    ]);
  });

  it('plans no changes for every stack, and for apps alone from what base recorded', async () => {
    const all = expectExit(await cli(['plan', '--detailed-exitcode', '--no-synth']), 0);
    expect(all.stdout.match(/No changes\./g)).toHaveLength(2);
    const alone = expectExit(await cli(['plan', '--stack', 'apps', '--detailed-exitcode', '--no-synth']), 0);
    expect(alone.stdout).toContain('No changes.');
  });

  it('plans apps against what base will change as not known yet', async () => {
    const { stdout } = expectExit(
      await project.cli(['plan', '--detailed-exitcode'], agentEnv(agent, { CI: '1', XSTACK_NS: 'beta' })),
      2,
    );
    const appsPart = stdout.slice(order(stdout)[1]);
    expect(stdout.slice(0, order(stdout)[1])).toMatch(/sched_namespace\.team must be replaced/);
    expect(appsPart).toContain(`# ${REMOTE_STATE} will be read during apply`);
    expect(appsPart).toMatch(/namespace\s+= "alpha" -> \(known after apply\)/);
    // Planning wrote nothing: base still records the namespace it has.
    expect(state('base').outputs[OUTPUT]!.value).toBe('alpha');
  });

  it('destroys apps before base', async () => {
    const { stdout } = expectExit(await cli(['destroy', '--auto-approve', '--no-synth']), 0);
    const [base, apps] = order(stdout);
    expect(base).toBeGreaterThan(apps!);
    // The namespace could only go once the job in it had stopped.
    expect((await get('/v1/namespace/alpha')).status).toBe(404);
    expect(state('apps').resources).toEqual([]);
    expect(state('base').resources).toEqual([]);
  });

  it('after the destroy, apps alone fails on the output base no longer has, as terraform does', async () => {
    const { code, stdout, stderr } = await cli(['plan', '--stack', 'apps', '--no-synth']);
    expect(code).toBe(1);
    expect(stdout + stderr).toContain(`This object does not have an attribute named "${OUTPUT}"`);
  });
});
