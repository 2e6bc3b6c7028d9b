/**
 * sched_job through the CLI where the engine and the handler meet: a create adopted after a kill whose
 * rollout failed later, and replacements that keep the job's ID.
 */
import { PendingJournal } from '../../../src/engine/state/pending-journal';
import type { Job } from '../../../src/api/sched/schemas';
import { createProject, jobspec, stackJson, until, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

const failing = {
  driverConfig: { start_error: 'image not found' },
  update: {
    MaxParallel: 1,
    HealthCheck: 'task_states',
    MinHealthyTime: 1e9,
    HealthyDeadline: 3e9,
    ProgressDeadline: 5e9,
  },
};

// A create that a kill interrupted is adopted from the cluster on the next deploy (the engine's
// pending journal). Its spec and jobspec text are the configured ones, but its deployment failed after
// the kill: the plan sees the failed deployment the refresh recorded, registers the spec again and
// waits, so the deploy fails instead of saying "No changes".
test('an adopted job whose rollout failed after the kill is not reported as done', async () => {
  const spec = jobspec('adopted', failing);
  p.writeStack(
    'app',
    stackJson({ resource: { sched_job: { adopted: withPath('app', 'adopted', { jobspec: spec }) } } }),
  );
  // What a deploy killed mid-create leaves: the job registered, its create journaled, no state.
  await p.agent.sched.jobs.register(JSON.parse(spec) as Job, { namespace: 'default' });
  const journal = new PendingJournal(p.statePath());
  await journal.append({
    address: 'sched_job.adopted',
    object: { schemaVersion: 0, attributes: { jobspec: spec, id: 'adopted', namespace: 'default' } },
  });
  await journal.close();
  await until(
    async () =>
      (await p.agent.sched.jobs.latestDeployment('adopted', { namespace: 'default' })).value?.Status ===
      'failed',
  );
  const r = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/sched_job\.adopted/);
});

// lifecycle.replace_triggered_by on a job that keeps its ID: the engine tells the handler it plans
// the create half of a replacement, so the existing job is not refused as someone else's; the destroy
// half stops it and the create registers over the stopped job (check-and-set on its index).
test('replace_triggered_by replaces a job that keeps its ID', async () => {
  const cfg = (description: string): Record<string, unknown> =>
    stackJson({
      resource: {
        sched_namespace: { n: withPath('app', 'n', { name: 'trig', description }) },
        sched_job: {
          j: withPath('app', 'j', {
            jobspec: jobspec('j'),
            lifecycle: { replace_triggered_by: ['sched_namespace.n'] },
          }),
        },
      },
    });
  p.writeStack('app', cfg('one'));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  const before = (await p.agent.sched.jobs.read('j', { namespace: 'default' })).value.JobModifyIndex;
  p.writeStack('app', cfg('two'));
  const plan = await p.cli(['plan', '--no-synth']);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain('# sched_job.j will be replaced due to changes in replace_triggered_by');
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  const after = (await p.agent.sched.jobs.read('j', { namespace: 'default' })).value;
  expect(after.Stop).toBeFalsy();
  expect(after.JobModifyIndex).toBeGreaterThan(before ?? 0);
  const versions = (await p.agent.sched.jobs.versions('j', { namespace: 'default' })).value.Versions;
  // The original, the stopped one, the one registered again.
  expect((versions ?? []).map((v) => v.Stop)).toEqual([false, true, false]);
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
});

test('create_before_destroy cannot replace a job in place: the plan says why', async () => {
  const cfg = (description: string): Record<string, unknown> =>
    stackJson({
      resource: {
        sched_namespace: { m: withPath('app', 'm', { name: 'trig-cbd', description }) },
        sched_job: {
          k: withPath('app', 'k', {
            jobspec: jobspec('k'),
            lifecycle: { replace_triggered_by: ['sched_namespace.m'], create_before_destroy: true },
          }),
        },
      },
    });
  p.writeStack('app', cfg('one'));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  const before = (await p.agent.sched.jobs.read('k', { namespace: 'default' })).value;
  p.writeStack('app', cfg('two'));
  const plan = await p.cli(['plan', '--no-synth']);
  expect(plan.code).toBe(1);
  expect(plan.stderr + plan.stdout).toMatch(/Job "k" cannot be replaced before it is destroyed/);
  expect(plan.stderr + plan.stdout).toMatch(/create_before_destroy/);
  const after = (await p.agent.sched.jobs.read('k', { namespace: 'default' })).value;
  expect(after.JobModifyIndex).toBe(before.JobModifyIndex);
});
