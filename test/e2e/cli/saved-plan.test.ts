/** Saved plans: `plan --out FILE` then `deploy FILE` applies exactly that plan, and a stale one is refused. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

function config(image: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return stackJson({
    resource: {
      sched_job: {
        web: withPath('app', 'web', { jobspec: jobspec('web', { image }) }),
        ...extra,
      },
    },
  });
}

async function image(id: string): Promise<unknown> {
  const { value } = await p.agent.sched.jobs.read(id, { namespace: 'default' });
  return value.TaskGroups?.[0]?.Tasks?.[0]?.Config?.['image'];
}

test('a saved plan is applied exactly; one made against an older state or configuration is refused', async () => {
  p.writeStack('app', config('v1'));
  const planFile = path.join(p.dir, 'web.plan');
  const saved = await p.cli(['plan', '--no-synth', '--out', planFile]);
  expect(saved.code).toBe(0);
  expect(saved.stderr).toContain(`cdktf-sched deploy ${planFile}`);
  // Plans hold the values they write (secrets too): readable by the owner only.
  expect(statSync(planFile).mode & 0o777).toBe(0o600);

  // Changed after the plan was saved: the saved plan still applies what was reviewed (no synth, no re-plan).
  const applied = await p.cli(['deploy', planFile, '--auto-approve']);
  expect(applied.stderr).not.toMatch(/Error/);
  expect(applied.code).toBe(0);
  expect(applied.stdout).toMatch(/Apply complete! Resources: 1 added/);
  expect(await image('web')).toBe('v1');

  // Applying it again: the state moved on (serial), so it is stale.
  const twice = await p.cli(['deploy', planFile]);
  expect(twice.code).toBe(1);
  expect(twice.stderr).toMatch(
    /Saved plan is stale: the state changed since it was made \(serial \d+ -> \d+\)/,
  );

  // A plan made, then the state changed by another deploy: refused, and nothing it planned happens.
  p.writeStack('app', config('v2'));
  const v2 = path.join(p.dir, 'v2.plan');
  expect((await p.cli(['plan', '--no-synth', '--out', v2])).code).toBe(0);
  p.writeStack('app', config('v3'));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  expect(await image('web')).toBe('v3');
  // The configuration is back to what v2.plan saw, but the state is not.
  p.writeStack('app', config('v2'));
  const stale = await p.cli(['deploy', v2]);
  expect(stale.code).toBe(1);
  expect(stale.stderr).toMatch(/state changed since it was made/);
  expect(await image('web')).toBe('v3');

  // Configuration changed since the plan (state unchanged): refused.
  const v4 = path.join(p.dir, 'v4.plan');
  p.writeStack('app', config('v4'));
  expect((await p.cli(['plan', '--no-synth', '--out', v4])).code).toBe(0);
  p.writeStack('app', config('v4', { other: withPath('app', 'other', { jobspec: jobspec('other') }) }));
  const changed = await p.cli(['deploy', v4]);
  expect(changed.code).toBe(1);
  expect(changed.stderr).toMatch(/Saved plan is stale: the configuration changed since it was made/);
  expect(await image('web')).toBe('v3');
  await expect(p.agent.sched.jobs.read('other', { namespace: 'default' })).rejects.toThrow();

  // Back to the configuration it was made for: it applies.
  p.writeStack('app', config('v4'));
  const ok = await p.cli(['deploy', v4]);
  expect(ok.stderr).not.toMatch(/Error/);
  expect(ok.code).toBe(0);
  expect(await image('web')).toBe('v4');

  // Not a plan file at all.
  const bogus = await p.cli(['deploy', path.join(p.dir, 'cdktf.json')]);
  expect(bogus.code).toBe(1);
  expect(bogus.stderr).toMatch(/is not a cdktf-sched saved plan/);
});

test('a saved destroy plan destroys', async () => {
  const file = path.join(p.dir, 'destroy.plan');
  const planned = await p.cli(['plan', '--no-synth', '--destroy', '--out', file]);
  expect(planned.code).toBe(0);
  expect(planned.stdout).toMatch(/1 to destroy/);
  const done = await p.cli(['deploy', file]);
  expect(done.stderr).not.toMatch(/Error/);
  expect(done.code).toBe(0);
  expect(done.stdout).toMatch(/Destroy complete! Resources: 1 destroyed\./);
  expect((await p.agent.sched.jobs.read('web', { namespace: 'default' })).value.Stop).toBe(true);
});
