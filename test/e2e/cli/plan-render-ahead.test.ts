/**
 * `plan` renders each resource's text while the rest of the stack is still planned (cli/render-ahead);
 * `show` of the saved plan renders all of it at the end. The two must print the same bytes for a plan
 * with every kind of block (create, update, delete, a count, a value only known after apply, a
 * scheduler warning, a secret inside a jobspec), and the secret is scrubbed from both.
 */
import path from 'node:path';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

const SECRET = 'ahead-secret-6c1f0e93';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

function job(name: string, body: Record<string, unknown>): Record<string, unknown> {
  return withPath('app', name, body);
}

function withEnv(id: string, env: Record<string, string>): string {
  const spec = JSON.parse(jobspec(id)) as { TaskGroups: { Tasks: Record<string, unknown>[] }[] };
  spec.TaskGroups[0]!.Tasks[0]!['Env'] = env;
  return JSON.stringify(spec);
}

test('the text rendered ahead during the plan is the text rendered at the end', async () => {
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_job: {
          kept: job('kept', { jobspec: jobspec('kept') }),
          changed: job('changed', { jobspec: jobspec('changed', { image: 'v1' }) }),
          gone: job('gone', { jobspec: jobspec('gone') }),
        },
      },
    }),
  );
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);

  p.writeStack(
    'app',
    stackJson({
      variable: { api_key: { type: 'string', sensitive: true, default: SECRET } },
      resource: {
        sched_job: {
          kept: job('kept', { jobspec: jobspec('kept') }),
          changed: job('changed', { jobspec: jobspec('changed', { image: 'v2' }) }),
          many: job('many', { count: 3, jobspec: jobspec('many-${count.index}') }),
          secret: job('secret', { jobspec: withEnv('secret', { API_KEY: '${var.api_key}' }) }),
          // Reads an attribute known only after the apply of another new job.
          after: job('after', {
            jobspec: withEnv('after', { VERSION: '${sched_job.secret.version}' }),
          }),
          // More than any node holds: the scheduler's failure is shown beside the job.
          huge: job('huge', { jobspec: jobspec('huge', { count: 500 }), fail_on_placement_failure: false }),
        },
      },
    }),
  );
  const planFile = path.join(p.dir, 'ahead.plan');
  const planned = await p.cli(['plan', '--no-synth', '--out', planFile]);
  expect(planned.code).toBe(0);
  const shown = await p.cli(['show', planFile]);
  expect(shown.code).toBe(0);

  expect(planned.stdout).toBe(shown.stdout);
  expect(planned.stdout).toContain('Plan: 6 to add, 1 to change, 1 to destroy.');
  expect(planned.stdout).toContain('# sched_job.many[2] will be created');
  expect(planned.stdout).toContain('# sched_job.gone will be destroyed');
  expect(planned.stdout).toContain('(known after apply)');
  expect(planned.stdout).toMatch(/Task group g: \d+ not placed/);
  expect(planned.stdout).toContain('(sensitive value)');
  expect(`${planned.stdout}${planned.stderr}`).not.toContain(SECRET);
});
