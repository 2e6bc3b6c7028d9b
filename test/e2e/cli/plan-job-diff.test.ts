/**
 * The scheduler's JobDiff is shown only by the plan JSON, so a text plan does not ask for it
 * (PlanOptions.serviceDiff); the JSON plan, and a saved plan that `show --json` may print later, still do.
 */
import path from 'node:path';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
  p.writeStack(
    'app',
    stackJson({ resource: { sched_job: { web: withPath('app', 'web', { jobspec: jobspec('web') }) } } }),
  );
});
afterAll(async () => p.close());

interface PlanJson {
  cdktf_sched: { resource_annotations: Record<string, { scheduler: { job_diff: unknown } }> };
}

function jobDiffOf(stdout: string): unknown {
  return (JSON.parse(stdout) as PlanJson).cdktf_sched.resource_annotations['sched_job.web']!.scheduler
    .job_diff;
}

test('the plan JSON carries the JobDiff of a new job', async () => {
  const planned = await p.cli(['plan', '--no-synth', '--format', 'json']);
  expect(planned.code).toBe(0);
  expect(jobDiffOf(planned.stdout)).toMatchObject({ Type: 'Added', ID: 'web' });
});

test('a plan saved from a text plan keeps the JobDiff for show --json, and shows the same text', async () => {
  const file = path.join(p.dir, 'web.plan');
  const text = await p.cli(['plan', '--no-synth']);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain('# sched_job.web will be created');
  expect((await p.cli(['plan', '--no-synth', '--out', file])).code).toBe(0);
  const shown = await p.cli(['show', '--json', file]);
  expect(shown.code).toBe(0);
  expect(jobDiffOf(shown.stdout)).toMatchObject({ Type: 'Added', ID: 'web' });
  expect((await p.cli(['show', file])).stdout).toBe(text.stdout);
});
