/**
 * A real CDKTF app synthesized through its cdktf.json, planned as a pull-request comment, against a
 * golden file. The stack holds secrets (an auth method's service account JWT, a sensitive variable
 * in a job's spec, a sensitive output): none may appear in any output of plan or deploy.
 * After an intended change to the comment: `UPDATE_GOLDEN=1 npx jest test/e2e/cli/markdown-golden`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JWT_SECRET, TOKEN_SECRET } from './fixtures/secret-app/main.secrets';
import { createProject, REPO, type Project } from './helpers';

const GOLDEN = path.join(REPO, 'test/golden/cli-plan-secrets.md.golden');
const APP = path.join(__dirname, 'fixtures/secret-app/main.ts');

let p: Project;
beforeAll(async () => {
  p = await createProject({ app: `"${path.join(REPO, 'node_modules/.bin/tsx')}" "${APP}"` });
});
afterAll(async () => p.close());

function expectNoSecret(text: string): void {
  for (const secret of [JWT_SECRET, TOKEN_SECRET]) {
    expect(text).not.toContain(secret);
    // Nor a recognisable piece of one (e.g. the JWT's payload inside a diff of its JSON).
    expect(text).not.toContain(secret.slice(8, 24));
  }
}

test('the pull-request comment matches the golden file and holds no secret', async () => {
  const md = await p.cli(['plan', '--format', 'markdown', '--detailed-exitcode']);
  expect(md.stderr).toMatch(/Synthesizing/);
  expect(md.code).toBe(2);
  expectNoSecret(md.stdout);
  expectNoSecret(md.stderr);
  if (process.env['UPDATE_GOLDEN']) writeFileSync(GOLDEN, md.stdout);
  if (!existsSync(GOLDEN)) throw new Error(`missing ${GOLDEN}; create it with UPDATE_GOLDEN=1`);
  expect(md.stdout).toBe(readFileSync(GOLDEN, 'utf8'));

  for (const format of ['text', 'json']) {
    const r = await p.cli(['plan', '--no-synth', '--format', format]);
    expect(r.code).toBe(0);
    expectNoSecret(r.stdout + r.stderr);
  }

  const deploy = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(deploy.stderr).not.toMatch(/Error/);
  expect(deploy.code).toBe(0);
  expect(deploy.stdout).toMatch(/token = <sensitive>/);
  expectNoSecret(deploy.stdout + deploy.stderr);
  // The cluster got the real values.
  const { value: job } = await p.agent.sched.jobs.read('web', { namespace: 'apps' });
  expect(job.Meta?.['deploy_token']).toBe(TOKEN_SECRET);

  const again = await p.cli(['plan', '--no-synth', '--format', 'markdown', '--detailed-exitcode']);
  expect(again.code).toBe(0);
  expectNoSecret(again.stdout + again.stderr);
  const shown = await p.cli(['state', 'show', 'reg_acl_auth_method.k8s']);
  expect(shown.code).toBe(0);
  expectNoSecret(shown.stdout);
  expectNoSecret((await p.cli(['output'])).stdout);
});
