/**
 * The other commands and flags: exit codes, output (--json), state list/show/rm/mv, import, refresh
 * (drift made out of band is recorded), --target, --var and the JSON plan format.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Job } from '../../../src/api/sched/schemas';
import { createProject, jobspec, stackJson, stateAddresses, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

function twoJobs(a: string, b: string): Record<string, unknown> {
  return stackJson({
    variable: { image: { type: 'string', default: a } },
    resource: {
      sched_job: {
        a: withPath('app', 'a', { jobspec: jobspec('a', { image: '${var.image}' }) }),
        b: withPath('app', 'b', { jobspec: jobspec('b', { image: b }) }),
      },
      sched_namespace: { ns: withPath('app', 'ns', { name: 'cmd', description: 'first' }) },
    },
    output: {
      a_id: { value: '${sched_job.a.id}' },
      images: { value: { a: '${var.image}', b } },
      secret: { value: '${sched_namespace.ns.description}', sensitive: true },
    },
  });
}

async function image(id: string): Promise<unknown> {
  const { value } = await p.agent.sched.jobs.read(id, { namespace: 'default' });
  return value.TaskGroups?.[0]?.Tasks?.[0]?.Config?.['image'];
}

test('exit codes: 1 on errors, with the reason on stderr', async () => {
  const noProject = await p.cli(['plan', '--no-synth', '--app', 'nowhere']);
  expect(noProject.code).toBe(1);
  expect(noProject.stderr).toMatch(/cdktf\.json not found/);

  // The app named in cdktf.json fails: synth fails, with its exit code.
  const cdktfJson = path.join(p.dir, 'cdktf.json');
  const saved = readFileSync(cdktfJson, 'utf8');
  // The app runs with the command's environment (here an in-process caller's, not process.env).
  const app = `"${process.execPath}" -e "process.exit(Number(process.env.E2E_SYNTH_EXIT))"`;
  writeFileSync(cdktfJson, JSON.stringify({ app }));
  const synthFails = await p.cli(['plan'], { env: { E2E_SYNTH_EXIT: '3' } });
  writeFileSync(cdktfJson, saved);
  expect(synthFails.code).toBe(1);
  expect(synthFails.stderr).toMatch(/synth failed: .* exited with code 3/);

  const unknown = await p.cli(['frobnicate']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);

  p.writeStack(
    'app',
    stackJson({ resource: { sched_job: { x: withPath('app', 'x', { jobspec: '${nosuchfn(1)}' }) } } }),
  );
  const badFn = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(badFn.code).toBe(1);
  expect(badFn.stdout + badFn.stderr).toMatch(/nosuchfn/);
  expect(badFn.stdout + badFn.stderr).toMatch(/sched_job\.x/);

  p.writeStack('app', twoJobs('v1', 'v1'));
  const badVar = await p.cli(['plan', '--no-synth', '--var', 'image']);
  expect(badVar.code).toBe(1);
  expect(badVar.stderr).toMatch(/--var image: expected name=value/);
  const undeclared = await p.cli(['plan', '--no-synth', '--var', 'nope=1']);
  expect(undeclared.code).toBe(1);
  expect(undeclared.stderr + undeclared.stdout).toMatch(/nope/);
  const badTarget = await p.cli(['plan', '--no-synth', '--target', 'sched_job.zzz']);
  expect(badTarget.code).toBe(1);
  expect(badTarget.stderr + badTarget.stdout).toMatch(/--target sched_job\.zzz names nothing/);
  const noApproval = await p.cli(['deploy', '--no-synth']);
  expect(noApproval.code).toBe(1);
  expect(noApproval.stderr).toMatch(/needs approval: run it on a terminal, or pass --auto-approve/);
});

test('--format json is Terraform plan JSON', async () => {
  p.writeStack('app', twoJobs('v1', 'v1'));
  const r = await p.cli(['plan', '--no-synth', '--format', 'json']);
  expect(r.code).toBe(0);
  const plan = JSON.parse(r.stdout) as {
    format_version: string;
    resource_changes: {
      address: string;
      type: string;
      change: { actions: string[]; after_unknown: unknown };
    }[];
    output_changes: Record<string, { actions: string[] }>;
  };
  expect(plan.format_version).toMatch(/^1\.\d+$/);
  const byAddr = Object.fromEntries(plan.resource_changes.map((c) => [c.address, c]));
  expect(Object.keys(byAddr).sort()).toEqual(['sched_job.a', 'sched_job.b', 'sched_namespace.ns']);
  expect(byAddr['sched_job.a']!.change.actions).toEqual(['create']);
  expect(byAddr['sched_job.a']!.change.after_unknown).toMatchObject({ version: true });
  expect(plan.output_changes['a_id']!.actions).toEqual(['create']);
});

test('--var and --target; output and output --json', async () => {
  p.writeStack('app', twoJobs('v1', 'v1'));
  const first = await p.cli(['deploy', '--no-synth', '--auto-approve', '--target', 'sched_job.a']);
  expect(first.stderr).not.toMatch(/Error/);
  expect(first.code).toBe(0);
  expect(stateAddresses(p.readState())).toEqual(['sched_job.a']);
  await expect(p.agent.sched.jobs.read('b', { namespace: 'default' })).rejects.toThrow();
  // Terraform's two warnings: the plan is targeted, and so the apply may be partial.
  expect(first.stderr).toContain('Warning: Resource targeting is in effect');
  expect(first.stderr).toContain('Warning: Applied changes may be incomplete');
  expect(first.stderr).toContain('cdktf-sched plan --stack app');

  const all = await p.cli(['deploy', '--no-synth', '--auto-approve', '--var', 'image=v7']);
  expect(all.code).toBe(0);
  expect(await image('a')).toBe('v7');
  expect(await image('b')).toBe('v1');
  // Without the --var the default comes back: a change.
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(2);
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode', '--var', 'image=v7'])).code).toBe(0);
  // TF_VAR_ values count too (undeclared ones are ignored, as Terraform does); --var wins.
  const fromEnv = { env: { TF_VAR_image: 'v7', TF_VAR_unrelated: 'x' } };
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'], fromEnv)).code).toBe(0);
  expect(
    (await p.cli(['plan', '--no-synth', '--detailed-exitcode', '--var', 'image=v1'], fromEnv)).code,
  ).toBe(2);

  const out = await p.cli(['output']);
  expect(out.code).toBe(0);
  expect(out.stdout).toBe('a_id = "a"\nimages = {\n  "a": "v7",\n  "b": "v1"\n}\nsecret = <sensitive>\n');
  const json = JSON.parse((await p.cli(['output', '--json'])).stdout) as Record<
    string,
    { value: unknown; sensitive: boolean }
  >;
  expect(json['a_id']).toMatchObject({ value: 'a', sensitive: false });
  expect(json['images']!.value).toEqual({ a: 'v7', b: 'v1' });
  expect(json['secret']).toMatchObject({ value: 'first', sensitive: true });
  expect((await p.cli(['output', 'a_id'])).stdout).toBe('a\n');
  const missing = await p.cli(['output', 'nope']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/no output "nope"/);
});

test('refresh records drift made out of band; the next plan restores the configuration', async () => {
  p.writeStack('app', twoJobs('v7', 'v1'));
  // Someone edits the namespace and scales job b by hand.
  await p.agent.sched.namespaces.upsert({ Name: 'cmd', Description: 'edited by hand' });
  const { value: b } = await p.agent.sched.jobs.read('b', { namespace: 'default' });
  const scaled: Job = { ...b, TaskGroups: b.TaskGroups!.map((g) => ({ ...g, Count: 2 })) };
  await p.agent.sched.jobs.register(scaled, { namespace: 'default' });
  // ...and purges job a.
  await p.agent.sched.jobs.deregister('a', { namespace: 'default', purge: true });
  const serial = p.readState().serial;

  const r = await p.cli(['refresh', '--no-synth']);
  expect(r.stderr).not.toMatch(/Error/);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/1 no longer exist and were removed from state/);
  const s = p.readState();
  expect(s.serial).toBeGreaterThan(serial);
  expect(stateAddresses(s)).not.toContain('sched_job.a');
  const ns = s.resources.find((x) => x.type === 'sched_namespace')!.instances[0]!.attributes;
  expect(ns['description']).toBe('edited by hand');
  const job = s.resources.find((x) => x.name === 'b')!.instances[0]!.attributes;
  expect(job['version']).toBe(1);
  expect((job['task_groups'] as { count: number }[])[0]!.count).toBe(2);

  const plan = await p.cli(['plan', '--no-synth', '--detailed-exitcode', '--var', 'image=v7']);
  expect(plan.code).toBe(2);
  expect(plan.stdout).toContain('# sched_namespace.ns will be updated in-place');
  expect(plan.stdout).toContain('# sched_job.b will be updated in-place');
  expect(plan.stdout).toContain('# sched_job.a will be created');
  // Asked on a terminal: anything but yes cancels, and nothing is applied.
  const questions: string[] = [];
  const no = await p.cli(['deploy', '--no-synth', '--var', 'image=v7'], {
    confirm: async (q) => {
      questions.push(q);
      return false;
    },
  });
  expect(no.code).toBe(1);
  expect(questions[0]).toMatch(/Do you want to perform these actions on stack app\?/);
  expect(no.stderr).toMatch(/cancelled/);
  expect((await p.agent.sched.namespaces.read('cmd')).value.Description).toBe('edited by hand');
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve', '--var', 'image=v7'])).code).toBe(0);
  expect((await p.agent.sched.namespaces.read('cmd')).value.Description).toBe('first');
  expect((await p.agent.sched.jobs.read('b', { namespace: 'default' })).value.TaskGroups![0]!.Count).toBe(1);
});

test('state list, show, mv and rm; import adopts an existing job', async () => {
  const list = await p.cli(['state', 'list']);
  expect(list.stdout).toBe('sched_job.a\nsched_job.b\nsched_namespace.ns\n');
  expect((await p.cli(['state', 'list', 'sched_job.b'])).stdout).toBe('sched_job.b\n');

  const show = await p.cli(['state', 'show', 'sched_job.a']);
  expect(show.code).toBe(0);
  expect(show.stdout).toMatch(/^# sched_job\.a\n/);
  expect(JSON.parse(show.stdout.slice(show.stdout.indexOf('\n') + 1))).toMatchObject({
    id: 'a',
    namespace: 'default',
  });
  expect((await p.cli(['state', 'show', 'sched_job.zzz'])).code).toBe(1);

  // Renamed in code (b -> renamed), moved in state: no change to plan.
  const renamed = twoJobs('v7', 'v1') as { resource: { sched_job: Record<string, unknown> } };
  renamed.resource.sched_job['renamed'] = renamed.resource.sched_job['b'];
  delete renamed.resource.sched_job['b'];
  p.writeStack('app', renamed);
  const mv = await p.cli(['state', 'mv', 'sched_job.b', 'sched_job.renamed']);
  expect(mv.code).toBe(0);
  expect(mv.stdout).toContain('Successfully moved 1 object(s).');
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode', '--var', 'image=v7'])).code).toBe(0);

  // Forgotten by the state, still running: a plan would create it again, which the cluster refuses...
  const rm = await p.cli(['state', 'rm', 'sched_job.renamed']);
  expect(rm.stdout).toContain('Removed sched_job.renamed');
  expect((await p.agent.sched.jobs.read('b', { namespace: 'default' })).value.Stop).toBeFalsy();
  const clash = await p.cli(['plan', '--no-synth', '--var', 'image=v7']);
  expect(clash.code).toBe(1);
  expect(clash.stdout + clash.stderr).toMatch(/Job "b" already exists in namespace "default"/);
  expect((await p.cli(['state', 'rm', 'sched_job.renamed'])).code).toBe(1);

  // ...so it is imported instead, and then nothing needs registering.
  const imp = await p.cli(['import', '--no-synth', 'sched_job.renamed', 'b@default']);
  expect(imp.stderr).not.toMatch(/Error/);
  expect(imp.code).toBe(0);
  expect(imp.stdout).toContain('Imported b@default as sched_job.renamed.');
  expect(stateAddresses(p.readState())).toContain('sched_job.renamed');
  const again = await p.cli(['import', '--no-synth', 'sched_job.renamed', 'b@default']);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/already managed/);
  const undeclared = await p.cli(['import', '--no-synth', 'sched_job.nope', 'b@default']);
  expect(undeclared.code).toBe(1);
  expect(undeclared.stderr).toMatch(/no resource "sched_job\.nope" in the configuration/);

  const after = await p.cli(['plan', '--no-synth', '--var', 'image=v7']);
  expect(after.code).toBe(0);
  expect(after.stdout).not.toMatch(/will be created|must be replaced/);
  const version = (await p.agent.sched.jobs.read('b', { namespace: 'default' })).value.Version;
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve', '--var', 'image=v7'])).code).toBe(0);
  expect((await p.agent.sched.jobs.read('b', { namespace: 'default' })).value.Version).toBe(version);
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode', '--var', 'image=v7'])).code).toBe(0);
});
