/**
 * A deploy running in another process holds the state lock (a second one is refused with the
 * holder's name; force-unlock removes a lock by its ID), and the first Ctrl-C makes a deploy finish
 * what is running, save the state and stop.
 */
import { existsSync, readFileSync } from 'node:fs';
import { acquireLock, lockPathFor } from '../../../src/engine/state';
import { createProject, jobspec, spawnCli, stackJson, until, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

function slowJobs(ids: string[]): Record<string, unknown> {
  const jobs: Record<string, unknown> = {};
  for (const id of ids)
    jobs[id] = withPath('app', id, { jobspec: jobspec(id, { driverConfig: { start_block_for: '60s' } }) });
  return stackJson({ resource: { sched_job: jobs } });
}

async function onCluster(id: string): Promise<boolean> {
  return p.agent.sched.jobs.read(id, { namespace: 'default' }).then(
    () => true,
    () => false,
  );
}

const lockFile = (): string => lockPathFor(p.statePath());

test('a second deploy is refused while another process holds the lock; force-unlock removes a lock', async () => {
  p.writeStack('app', slowJobs(['a', 'b']));
  const run = spawnCli(p, ['deploy', '--no-synth', '--auto-approve']);
  await until(() => existsSync(lockFile()), 20_000);
  const holder = JSON.parse(readFileSync(lockFile(), 'utf8')) as { ID: string; Pid: number; Who: string };
  expect(holder.Pid).toBe(run.child.pid);

  const second = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(second.code).toBe(1);
  expect(second.stderr).toContain(`The state is locked by ${holder.Who} (pid ${holder.Pid})`);
  expect(second.stderr).toContain('Operation: OperationTypeApply');
  expect(second.stderr).toContain(`cdktf-sched force-unlock ${holder.ID}`);
  // plan takes the lock too (as Terraform's does).
  expect((await p.cli(['plan', '--no-synth'])).stderr).toContain(`locked by ${holder.Who}`);

  expect(await run.exited).toBe(0);
  expect(run.out()).toMatch(/Apply complete! Resources: 2 added/);
  expect(existsSync(lockFile())).toBe(false);

  // A lock whose holder is alive (this test) and says nothing useful: removed by its ID only.
  const lock = await acquireLock(p.statePath(), { operation: 'OperationTypeApply' });
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).stderr).toContain(
    `force-unlock ${lock.info.ID}`,
  );
  const wrong = await p.cli(['force-unlock', 'not-the-id']);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toMatch(/does not match the existing lock/);
  expect(existsSync(lockFile())).toBe(true);
  const unlocked = await p.cli(['force-unlock', lock.info.ID]);
  expect(unlocked.stderr).toBe('');
  expect(unlocked.code).toBe(0);
  expect(unlocked.stdout).toContain(`held by ${lock.info.Who}`);
  expect(existsSync(lockFile())).toBe(false);
  const after = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(after.code).toBe(0);
  await lock.release(); // no longer ours: must not remove anything
}, 40_000);

test('first Ctrl-C: nothing new starts, what runs finishes and is saved, the run ends with a summary', async () => {
  const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
  p.writeStack('app', slowJobs(['a', 'b', ...ids]));
  const run = spawnCli(p, ['deploy', '--no-synth', '--auto-approve', '--parallelism', '2']);
  // Interrupt while the first two creates are registered and waiting for their allocations.
  await until(async () => (await onCluster('c1')) && (await onCluster('c2')), 20_000);
  run.child.kill('SIGINT');
  expect(await run.exited).toBe(1);
  const out = run.out();
  expect(out).toMatch(/Interrupt received: finishing what is running/);
  expect(out).toMatch(/sched_job\.c1: Creation complete/);
  expect(out).toMatch(/sched_job\.c2: Creation complete/);
  expect(out).toMatch(/Apply interrupted\. Resources: 2 added, 0 changed, 0 destroyed, 0 failed/);
  expect(out).toMatch(/Not attempted:\n( {2}sched_job\.c[345]: interrupted\n){3}/);

  const state = p.readState();
  const names = state.resources.map((r) => r.name).sort();
  expect(names).toEqual(['a', 'b', 'c1', 'c2']);
  for (const r of state.resources) expect(r.instances[0]!.status).toBeUndefined();
  for (const id of ['c3', 'c4', 'c5']) expect(await onCluster(id)).toBe(false);
  expect(existsSync(lockFile())).toBe(false);

  // The next deploy does the rest.
  const rest = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(rest.code).toBe(0);
  expect(rest.stdout).toMatch(/Apply complete! Resources: 3 added, 0 changed, 0 destroyed/);
}, 40_000);
