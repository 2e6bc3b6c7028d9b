/**
 * examples/pr-preview: the workflow's plan command, taken from the workflow file itself, run
 * in-process against a dev agent with ACLs on (so SCHED_TOKEN is really needed), and the Markdown it
 * produces: the summary line, the table, scheduler annotations, and no secret anywhere.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { startDevAgent, type DevAgent } from '../../src/agent';
import { TEST_DIALECT } from '../helpers/dialect';
import { agentEnv, exampleProject, expectExit, REPO_ROOT, type ExampleProject } from './harness';

const WORKFLOW = path.join(REPO_ROOT, 'examples', 'pr-preview', '.github', 'workflows', 'preview.yml');

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

interface Workflow {
  on: { pull_request?: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

function workflow(): Workflow {
  return parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;
}

/** The `npx cdktf-sched plan ...` arguments of the workflow's plan step, without redirections. */
function planArgs(step: Step): string[] {
  const line = (step.run ?? '').split('\n').find((l) => l.trim().startsWith('npx cdktf-sched plan'));
  if (!line) throw new Error('the plan step runs no `npx cdktf-sched plan`');
  const words = line.trim().split(/\s+/);
  const redirect = words.findIndex((w) => /^\d?>/.test(w));
  return words.slice(2, redirect < 0 ? undefined : redirect);
}

/** Replaces the value of `--app` (a path in the repository) with the test's own project directory. */
function withApp(args: string[], dir: string): string[] {
  const i = args.indexOf('--app');
  return [...args.slice(0, i + 1), dir, ...args.slice(i + 2)];
}

describe('examples/pr-preview: the workflow', () => {
  const wf = workflow();
  const steps = Object.values(wf.jobs)[0]!.steps;
  const plan = steps.find((s) => s.id === 'plan')!;

  it('plans examples/hello as Markdown with the cluster address and token from secrets', () => {
    expect(wf.on.pull_request).toBeDefined();
    expect(wf.permissions).toMatchObject({ 'pull-requests': 'write', contents: 'read' });
    expect(steps.some((s) => s.run === 'npm ci')).toBe(true);
    expect(planArgs(plan)).toEqual(
      expect.arrayContaining(['plan', '--format', 'markdown', '--app', 'examples/hello']),
    );
    expect(plan.run).toMatch(/> plan\.md/);
    expect(plan.env).toEqual({
      SCHED_ADDR: '${{ secrets.SCHED_ADDR }}',
      SCHED_TOKEN: '${{ secrets.SCHED_TOKEN }}',
    });
  });

  it('posts the comment once and updates it afterwards, found by its marker', () => {
    const comment = steps.find((s) => s.uses?.startsWith('actions/github-script@'));
    const script = comment?.with?.['script'] ?? '';
    const marker = /const marker = '([^']+)'/.exec(script)?.[1];
    expect(marker).toMatch(/^<!-- .+ -->$/);
    expect(script).toContain("fs.readFileSync('plan.md', 'utf8')");
    expect(script).toMatch(/includes\(marker\)/);
    expect(script).toContain('github.rest.issues.updateComment');
    expect(script).toContain('github.rest.issues.createComment');
    // The comment is posted for a failed plan too; the job still fails afterwards.
    expect(steps.at(-1)).toMatchObject({ if: "${{ steps.plan.outputs.exitcode == '1' }}", run: 'exit 1' });
  });
});

describe('examples/pr-preview: the plan command', () => {
  const token = randomUUID();
  let agent: DevAgent;
  let project: ExampleProject;

  beforeAll(async () => {
    agent = await startDevAgent({
      port: 0,
      registryPort: 0,
      timeScale: 0.01,
      acl: true,
      bootstrapToken: token,
      dialect: TEST_DIALECT,
    });
    project = exampleProject('hello');
  });

  afterAll(async () => {
    await agent?.stop();
    project?.remove();
  });

  it('renders a pull-request comment for a change, and a short one for none; the token never shows', async () => {
    const args = withApp(
      planArgs(workflow().jobs['preview']!.steps.find((s) => s.id === 'plan')!),
      project.dir,
    );
    const env = agentEnv(agent, { SCHED_TOKEN: token, CI: 'true' });

    const first = expectExit(await project.cli(args, env), 2);
    // Later runs reuse the synthesized app (--no-synth) to keep the test short.
    const again = [...args, '--no-synth'];

    // The token is what lets the plan read the cluster.
    const denied = await project.cli(again, agentEnv(agent, { CI: 'true' }));
    expect(denied.code).toBe(1);
    expect(denied.stdout + denied.stderr).toMatch(/denied \(HTTP 403\): Permission denied/);

    const md = first.stdout;
    expect(md).toMatch(/^\*\*Plan:\*\* 2 to add, 0 to change, 0 to destroy$/m);
    expect(md).toContain('| Action | Resource | Construct | Scheduler |');
    expect(md).toMatch(/^\| ➕ create \| `sched_namespace\.apps` \| `hello\/apps` \|/m);
    expect(md).toMatch(/^\| ➕ create \| `sched_job\.web` \| `hello\/web` \|/m);
    expect(md).toMatch(/<details><summary>➕ create <code>sched_job\.web<\/code>/);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).not.toContain('\u001b['); // no terminal colours in a comment
    expect(md + first.stderr).not.toContain(token);

    expectExit(await project.cli(['deploy', '--app', project.dir, '--no-synth', '--auto-approve'], env), 0);
    const none = expectExit(await project.cli(again, env), 0);
    expect(none.stdout).not.toContain('| Action |');
    expect(none.stdout).toMatch(
      /^\*\*Plan:\*\* no changes\. Your infrastructure matches the configuration\.$/m,
    );

    // A change the reviewer must see: the scheduler's view of the rollout is in the table.
    const update = expectExit(await project.cli([...again, '--var', 'image=nginx:1.28'], env), 2);
    expect(update.stdout).toMatch(/^\*\*Plan:\*\* 0 to add, 1 to change, 0 to destroy$/m);
    expect(update.stdout).toMatch(/^\| 🔄 update \| `sched_job\.web` \| `hello\/web` \| .*Canary 1/m);
    expect(update.stdout + update.stderr).not.toContain(token);

    expectExit(await project.cli(['destroy', '--app', project.dir, '--no-synth', '--auto-approve'], env), 0);
  });

  it('keeps a sensitive variable out of the comment (examples/registry)', async () => {
    const registry = exampleProject('registry');
    try {
      const jwt = `eyJ.${randomUUID()}.sig`;
      const ca = readFileSync(path.join(__dirname, 'fixtures', 'k8s-ca.pem'), 'utf8');
      const result = await registry.cli(
        [
          'plan',
          '--format',
          'markdown',
          '--var',
          `peer_address=${agent.registryUrl!}`,
          '--var',
          `k8s_ca_cert=${ca}`,
          '--var',
          `k8s_reviewer_jwt=${jwt}`,
        ],
        agentEnv(agent, { REG_HTTP_TOKEN: token, CI: 'true' }),
      );
      expectExit(result, 0);
      expect(result.stdout).toMatch(/^\*\*Plan:\*\* 4 to add, 0 to change, 0 to destroy$/m);
      expect(result.stdout).toContain('(sensitive value)');
      expect(result.stdout + result.stderr).not.toContain(jwt);
      expect(result.stdout + result.stderr).not.toContain(token);
    } finally {
      registry.remove();
    }
  });
});
