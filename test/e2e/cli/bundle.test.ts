/**
 * The built single-file bundles, as the package's bin and the benchmark run them: each runs its command
 * once (a bundle makes `require.main === module` true in every module it holds, so an entry check that
 * leaked into a bundle ran the command twice), and the bin deploys and re-plans a stack. Skipped with a
 * message when the project has not been built (`npm ci` builds it).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createProject, jobspec, REPO, stackJson, withPath, type Project } from './helpers';

const run = promisify(execFile);
const BIN = path.join(REPO, 'dist/src/cli/main.bundle.js');
const BENCH_CLI = path.join(REPO, 'dist/bench/engine-cli.bundle.js');
const built = existsSync(BIN) && existsSync(BENCH_CLI);
if (!built) console.warn('skipping bundle tests: run `npm run build` first (npm ci does)');
const maybe = built ? describe : describe.skip;

jest.setTimeout(60_000);

maybe('built bundles', () => {
  let project: Project;
  beforeAll(async () => {
    project = await createProject();
  });
  afterAll(() => project.close());

  test.each([
    ['the bin', BIN],
    ["the benchmark's engine command", BENCH_CLI],
  ])('%s runs a command once', async (_, file) => {
    const { stdout } = await run(process.execPath, [file, '--version']);
    expect(stdout).toBe('0.1.0\n');
  });

  test('the bin deploys a stack, waits for the deployment, and plans no changes after', async () => {
    project.writeStack(
      'app',
      stackJson({
        resource: {
          sched_job: { web: withPath('app', 'web', { jobspec: jobspec('bundled-web', { count: 2 }) }) },
        },
      }),
    );
    const opts = { cwd: project.dir, env: project.env };
    const deploy = await run(process.execPath, [BIN, 'deploy', '--no-synth', '--auto-approve'], opts);
    expect(deploy.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    const plan = await run(process.execPath, [BIN, 'plan', '--no-synth', '--detailed-exitcode'], opts);
    expect(plan.stdout).toContain('No changes.');
    const job = await project.agent.sched.jobs.read('bundled-web');
    expect(job.value.Status).toBe('running');
  });
});
