/**
 * With no address in the environment, deploy starts the embedded dev agent while the app synthesizes,
 * on a guess. A right guess deploys to it; a wrong one (the provider names its own address) or a
 * failed synth leaves no trace of it in the project.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

jest.setTimeout(60_000);

const NO_ADDRESS = { SCHED_ADDR: '', REG_HTTP_ADDR: '' };

let p: Project;
beforeEach(async () => {
  p = await createProject();
});
afterEach(() => p.close());

/** The app command: cdktf.out is written by the test, so `true` is a synth that succeeds. */
function setApp(app: string): void {
  writeFileSync(path.join(p.dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app }));
}

function oneJob(provider?: Record<string, unknown>): Record<string, unknown> {
  return stackJson({
    resource: { sched_job: { web: withPath('app', 'web', { jobspec: jobspec('early-web') }) } },
    ...(provider ? { provider } : {}),
  });
}

const devDir = (): string => path.join(p.dir, '.cdktf-sched', 'dev');

test('a stack without an address deploys to the agent started during the synth', async () => {
  setApp('true');
  p.writeStack('app', oneJob());
  const r = await p.cli(['deploy', '--auto-approve'], { env: NO_ADDRESS });
  expect(r.stderr).toContain('started the embedded dev agent');
  expect(r.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  // Its state stays for the next run, and the cluster the test started saw nothing.
  expect(existsSync(devDir())).toBe(true);
  const { value: jobs } = await p.agent.sched.jobs.list();
  expect(jobs.map((j) => j.ID)).not.toContain('early-web');
});

test('a provider with its own address: the early agent is stopped and its data dir removed', async () => {
  setApp('true');
  p.writeStack('app', oneJob({ sched: [{ address: p.agent.agent.schedulerUrl }] }));
  const r = await p.cli(['deploy', '--auto-approve'], { env: NO_ADDRESS });
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain('started the embedded dev agent');
  const { value: jobs } = await p.agent.sched.jobs.list();
  expect(jobs.map((j) => j.ID)).toContain('early-web');
  expect(existsSync(path.join(p.dir, '.cdktf-sched'))).toBe(false);
});

test('a failed synth leaves no data dir behind', async () => {
  setApp('false');
  p.writeStack('app', oneJob());
  const r = await p.cli(['deploy', '--auto-approve'], { env: NO_ADDRESS });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/synth failed: "false" exited with code 1/);
  expect(existsSync(path.join(p.dir, '.cdktf-sched'))).toBe(false);
});
