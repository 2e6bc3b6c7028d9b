/** create, no-op re-plan, update, replace and destroy through the command line, against a dev agent. */
import { existsSync } from 'node:fs';
import { createProject, jobspec, stackJson, stateAddresses, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

function config(o: { nsName: string; jobId: string; image: string }): Record<string, unknown> {
  return stackJson({
    resource: {
      sched_namespace: {
        apps: withPath('app', 'apps', { name: o.nsName, description: 'e2e' }),
      },
      sched_job: {
        web: withPath('app', 'web', {
          jobspec: jobspec(o.jobId, { namespace: '${sched_namespace.apps.name}', image: o.image, count: 2 }),
        }),
      },
    },
    output: {
      ns: { value: '${sched_namespace.apps.name}' },
      job_version: { value: '${sched_job.web.version}' },
    },
  });
}

async function jobOnCluster(
  id: string,
  namespace: string,
): Promise<{ version: number; image: unknown } | null> {
  try {
    const { value } = await p.agent.sched.jobs.read(id, { namespace });
    return {
      version: value.Version ?? -1,
      image: value.TaskGroups?.[0]?.Tasks?.[0]?.Config?.['image'],
    };
  } catch {
    return null;
  }
}

test('create, no-op re-plan, update, replace and destroy', async () => {
  p.writeStack('app', config({ nsName: 'apps', jobId: 'web', image: 'v1' }));

  // Plan of a new stack: exit 2 with --detailed-exitcode, nothing created yet.
  const plan0 = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(plan0.stderr).not.toMatch(/Error/);
  expect(plan0.code).toBe(2);
  expect(plan0.stdout).toMatch(/# sched_namespace\.apps will be created/);
  expect(plan0.stdout).toMatch(/2 to add, 0 to change, 0 to destroy/);
  // The handler's warning (the namespace comes in the same deploy) is shown once, beside the job.
  expect(plan0.stdout.match(/Namespace "apps" does not exist yet/g)).toHaveLength(1);
  expect(await jobOnCluster('web', 'apps')).toBeNull();

  // Create.
  const create = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(create.stderr).not.toMatch(/Error/);
  expect(create.code).toBe(0);
  expect(create.stdout).toMatch(/Apply complete! Resources: 2 added, 0 changed, 0 destroyed/);
  expect(create.stdout).toMatch(/ns = "apps"/);
  expect(await jobOnCluster('web', 'apps')).toEqual({ version: 0, image: 'v1' });
  const s1 = p.readState();
  expect(s1.version).toBe(4);
  expect(stateAddresses(s1)).toEqual(['sched_job.web', 'sched_namespace.apps']);
  const web = s1.resources.find((r) => r.type === 'sched_job')!;
  expect(web.instances[0]!.dependencies).toEqual(['sched_namespace.apps']);
  expect(s1.outputs['ns']!.value).toBe('apps');
  // Creates are journaled while they run; a run that ends leaves no journal.
  expect(existsSync(`${p.statePath()}.pending`)).toBe(false);

  // No-op re-plan: exit 0 and no state write.
  const plan1 = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(plan1.code).toBe(0);
  expect(plan1.stdout).toMatch(/No changes/);
  expect(p.readState().serial).toBe(s1.serial);
  const again = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(again.code).toBe(0);
  expect(p.readState().serial).toBe(s1.serial);

  // Update in place: exit 2 before, then applied (a new job version, same job).
  p.writeStack('app', config({ nsName: 'apps', jobId: 'web', image: 'v2' }));
  const plan2 = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(plan2.code).toBe(2);
  expect(plan2.stdout).toMatch(/# sched_job\.web will be updated in-place/);
  expect(plan2.stdout).toMatch(/0 to add, 1 to change, 0 to destroy/);
  const update = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(update.code).toBe(0);
  expect(update.stdout).toMatch(/0 added, 1 changed, 0 destroyed/);
  expect(await jobOnCluster('web', 'apps')).toEqual({ version: 1, image: 'v2' });
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);

  // Replace: a new job ID replaces the job (the old one is deregistered).
  p.writeStack('app', config({ nsName: 'apps', jobId: 'web2', image: 'v2' }));
  const plan3 = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
  expect(plan3.code).toBe(2);
  expect(plan3.stdout).toMatch(/-\/\+ resource "sched_job" "web"/);
  expect(plan3.stdout).toMatch(/1 to add, 0 to change, 1 to destroy/);
  const replace = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(replace.code).toBe(0);
  expect(replace.stdout).toMatch(/1 added, 0 changed, 1 destroyed/);
  expect(await jobOnCluster('web2', 'apps')).toMatchObject({ version: 0 });
  const old = await p.agent.sched.jobs.read('web', { namespace: 'apps' }).then((r) => r.value);
  expect(old.Stop).toBe(true);
  expect(p.readState().resources.find((r) => r.type === 'sched_job')!.instances[0]!.attributes['id']).toBe(
    'web2',
  );

  // Replace of a namespace (forceNew name) replaces the job inside it too, since its jobspec changes.
  p.writeStack('app', config({ nsName: 'apps2', jobId: 'web2', image: 'v2' }));
  const plan4 = await p.cli(['plan', '--no-synth']);
  expect(plan4.code).toBe(0);
  expect(plan4.stdout).toMatch(/-\/\+ resource "sched_namespace" "apps"/);
  const replaceNs = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(replaceNs.stderr).not.toMatch(/Error/);
  expect(replaceNs.code).toBe(0);
  expect(await jobOnCluster('web2', 'apps2')).toMatchObject({ image: 'v2' });
  expect(p.readState().outputs['ns']!.value).toBe('apps2');
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);

  // Destroy: dependants first; the state ends empty and the outputs go.
  const destroy = await p.cli(['destroy', '--no-synth', '--auto-approve']);
  expect(destroy.stderr).not.toMatch(/Error/);
  expect(destroy.code).toBe(0);
  expect(destroy.stdout).toMatch(/Destroy complete! Resources: 2 destroyed\./);
  expect(destroy.stdout).toContain('# sched_job.web will be destroyed');
  expect(destroy.stdout).not.toMatch(/not in configuration/);
  const s5 = p.readState();
  expect(stateAddresses(s5)).toEqual([]);
  expect(s5.outputs).toEqual({});
  expect((await p.agent.sched.jobs.read('web2', { namespace: 'apps2' })).value.Stop).toBe(true);
  expect((await p.cli(['plan', '--no-synth', '--destroy', '--detailed-exitcode'])).code).toBe(0);
});
