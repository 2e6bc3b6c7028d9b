/**
 * Meta-arguments and apply order through the command line: count and for_each (instance addresses,
 * scaling down deletes the right instance), removed blocks, prevent_destroy, depends_on, a failed
 * resource that stops its dependants while independent ones finish, replaces that fail half-way,
 * and values known only after apply.
 */
import path from 'node:path';
import { createProject, jobspec, stackJson, stateAddresses, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

async function jobIds(): Promise<string[]> {
  const { value } = await p.agent.sched.jobs.list({ namespace: 'default' });
  return value
    .filter((j) => !j.Stop)
    .map((j) => j.ID)
    .sort();
}

test('count and for_each: instance addresses, and scaling down deletes the right instance', async () => {
  const config = (count: number, envs: Record<string, string>): Record<string, unknown> =>
    stackJson({
      variable: { envs: { type: 'map(string)', default: envs } },
      resource: {
        sched_job: {
          worker: withPath('app', 'worker', {
            count,
            jobspec: jobspec('worker-${count.index}'),
          }),
          env: withPath('app', 'env', {
            for_each: '${var.envs}',
            jobspec: jobspec('env-${each.key}', { image: '${each.value}' }),
          }),
        },
      },
      output: { workers: { value: '${sched_job.worker[*].id}' } },
    });
  p.writeStack('app', config(3, { blue: 'v1', green: 'v2' }));
  const plan = await p.cli(['plan', '--no-synth']);
  expect(plan.code).toBe(0);
  for (const a of [
    'sched_job.worker[0]',
    'sched_job.worker[2]',
    'sched_job.env["blue"]',
    'sched_job.env["green"]',
  ])
    expect(plan.stdout).toContain(`# ${a} will be created`);
  const up = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.code).toBe(0);
  expect(stateAddresses(p.readState())).toEqual([
    'sched_job.env["blue"]',
    'sched_job.env["green"]',
    'sched_job.worker[0]',
    'sched_job.worker[1]',
    'sched_job.worker[2]',
  ]);
  expect(await jobIds()).toEqual(['env-blue', 'env-green', 'worker-0', 'worker-1', 'worker-2']);
  expect(p.readState().outputs['workers']!.value).toEqual(['worker-0', 'worker-1', 'worker-2']);
  const each = p.readState().resources.find((r) => r.name === 'env')!;
  expect(each.each).toBe('map');
  expect(each.instances.map((i) => i.index_key)).toEqual(['blue', 'green']);

  // count 3 -> 2 deletes worker[2] only; dropping a for_each key deletes that key only.
  p.writeStack('app', config(2, { blue: 'v1' }));
  const down = await p.cli(['plan', '--no-synth']);
  expect(down.stdout).toContain('# sched_job.worker[2] will be destroyed');
  expect(down.stdout).toContain('# sched_job.env["green"] will be destroyed');
  expect(down.stdout).toMatch(/0 to add, 0 to change, 2 to destroy/);
  const applied = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(applied.code).toBe(0);
  expect(await jobIds()).toEqual(['env-blue', 'worker-0', 'worker-1']);
  expect(stateAddresses(p.readState())).toEqual([
    'sched_job.env["blue"]',
    'sched_job.worker[0]',
    'sched_job.worker[1]',
  ]);
  expect(p.readState().outputs['workers']!.value).toEqual(['worker-0', 'worker-1']);

  // Removing both blocks from the configuration deletes every instance left.
  p.writeStack('app', stackJson({}));
  const gone = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(gone.stderr).not.toMatch(/Error/);
  expect(gone.stdout).toMatch(/0 added, 0 changed, 3 destroyed/);
  expect(await jobIds()).toEqual([]);
  expect(stateAddresses(p.readState())).toEqual([]);
});

test('blocks removed from the configuration are deleted in the order their state recorded', async () => {
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_namespace: { team: withPath('app', 'team', { name: 'team' }) },
        sched_job: {
          svc: withPath('app', 'svc', {
            jobspec: jobspec('svc', { namespace: '${sched_namespace.team.name}' }),
          }),
        },
      },
    }),
  );
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  p.writeStack('app', stackJson({}));
  // The namespace can only go once the job in it has gone.
  const gone = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(gone.stderr).not.toMatch(/Error/);
  expect(gone.stdout).toMatch(/0 added, 0 changed, 2 destroyed/);
  expect(gone.stderr.indexOf('sched_job.svc: Destruction complete')).toBeLessThan(
    gone.stderr.indexOf('sched_namespace.team: Destroying'),
  );
  await expect(p.agent.sched.namespaces.read('team')).rejects.toThrow();
});

test('prevent_destroy stops the plan with an error naming the resource and its construct', async () => {
  const config = (name: string, protect: boolean): Record<string, unknown> =>
    stackJson({
      resource: {
        sched_namespace: {
          keep: withPath('app', 'keep', {
            name,
            ...(protect ? { lifecycle: { prevent_destroy: true } } : {}),
          }),
        },
      },
    });
  p.writeStack('app', config('kept', true));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);

  // A replacement (name forces one) and a destroy are both refused, before anything happens.
  p.writeStack('app', config('renamed', true));
  const replace = await p.cli(['plan', '--no-synth']);
  expect(replace.code).toBe(1);
  expect(replace.stdout + replace.stderr).toMatch(
    /Error: sched_namespace\.keep \(app\/keep\): Instance cannot be destroyed/,
  );
  expect(replace.stdout + replace.stderr).toMatch(
    /sched_namespace\.keep has lifecycle\.prevent_destroy set, but the plan calls for it to be replaced/,
  );
  p.writeStack('app', config('kept', true));
  const destroy = await p.cli(['destroy', '--no-synth', '--auto-approve']);
  expect(destroy.code).toBe(1);
  expect(destroy.stdout + destroy.stderr).toMatch(/calls for it to be destroyed/);
  expect((await p.agent.sched.namespaces.read('kept')).value.Name).toBe('kept');

  p.writeStack('app', config('kept', false));
  expect((await p.cli(['destroy', '--no-synth', '--auto-approve'])).code).toBe(0);
  await expect(p.agent.sched.namespaces.read('kept')).rejects.toThrow();
});

test('depends_on orders; a failed resource stops its dependants while independent ones finish', async () => {
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_job: {
          broken: withPath('app', 'broken', {
            jobspec: jobspec('broken', {
              driverConfig: { start_error: 'image not found' },
              update: {
                MaxParallel: 1,
                HealthCheck: 'task_states',
                MinHealthyTime: 1e9,
                HealthyDeadline: 3e9,
                ProgressDeadline: 5e9,
              },
            }),
          }),
          after: withPath('app', 'after', { jobspec: jobspec('after'), depends_on: ['sched_job.broken'] }),
          last: withPath('app', 'last', { jobspec: jobspec('last'), depends_on: ['sched_job.after'] }),
          free: withPath('app', 'free', { jobspec: jobspec('free') }),
        },
      },
    }),
  );
  const run = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/Apply failed\. Resources: 1 added, 0 changed, 0 destroyed, 1 failed\./);
  expect(run.stderr).toMatch(/Error: sched_job\.broken \(app\/broken\)/);
  expect(run.stderr).toMatch(
    /Not attempted:\n {2}sched_job\.after: depends on sched_job\.broken\n {2}sched_job\.last: depends on sched_job\.broken/,
  );
  expect(run.stderr).toMatch(/sched_job\.free: Creation complete/);
  const ids = await jobIds();
  expect(ids).toContain('free');
  expect(ids).not.toContain('after');
  expect(ids).not.toContain('last');
  const state = stateAddresses(p.readState());
  expect(state).toContain('sched_job.free');
  expect(state).not.toContain('sched_job.after');
});

test('values known only after apply (a job version, an allocation) resolve during apply, saved plan included', async () => {
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_job: {
          first: withPath('app', 'first', { jobspec: jobspec('first') }),
          second: withPath('app', 'second', {
            jobspec: jobspec('second', {
              meta: {
                first_version: '${sched_job.first.version}',
                first_alloc: '${sched_job.first.allocation_ids[0]}',
              },
            }),
          }),
        },
      },
      output: { second_meta: { value: '${jsondecode(sched_job.second.jobspec).Meta}' } },
    }),
  );
  const file = path.join(p.dir, 'unknowns.plan');
  const plan = await p.cli(['plan', '--no-synth', '--out', file]);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toMatch(
    /\+ resource "sched_job" "second" \{\n(.*\n)*? +\+ jobspec += \(known after apply\)/,
  );
  expect(plan.stdout).toMatch(/\+ second_meta = \(known after apply\)/);
  const served = p.agent.agent.requests.length;
  const applied = await p.cli(['deploy', file]);
  expect(applied.stderr).not.toMatch(/Error/);
  expect(applied.code).toBe(0);
  // Only the job whose configuration was unknown is planned again at apply; the other one's plan stands.
  const plansAtApply = (id: string): number =>
    p.agent.agent.requests.slice(served).filter((r) => r.method === 'POST' && r.path === `/v1/job/${id}/plan`)
      .length;
  expect([plansAtApply('first'), plansAtApply('second')]).toEqual([0, 1]);
  const { value: first } = await p.agent.sched.jobs.read('first', { namespace: 'default' });
  const { value: second } = await p.agent.sched.jobs.read('second', { namespace: 'default' });
  const { value: allocs } = await p.agent.sched.jobs.allocations('first', { namespace: 'default' });
  expect(second.Meta).toEqual({ first_version: String(first.Version), first_alloc: allocs[0]!.ID });
  expect(p.readState().outputs['second_meta']!.value).toEqual(second.Meta);
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
});

test('a replace that fails half-way says which half, and counts what happened', async () => {
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
  const ns = (name: string): Record<string, unknown> => withPath('app', 'box', { name });
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_namespace: { box: ns('box1') },
        sched_job: { r: withPath('app', 'r', { jobspec: jobspec('r1') }) },
      },
    }),
  );
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);

  // The new job (another ID) cannot start: the old one is gone, the new one failed.
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_namespace: { box: ns('box1') },
        sched_job: { r: withPath('app', 'r', { jobspec: jobspec('r2', failing) }) },
      },
    }),
  );
  const create = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(create.code).toBe(1);
  expect(create.stdout).toMatch(/Apply failed\. Resources: 0 added, 0 changed, 1 destroyed, 1 failed\./);
  expect(create.stderr).toMatch(/Error: sched_job\.r \(app\/r\)/);
  expect((await p.agent.sched.jobs.read('r1', { namespace: 'default' })).value.Stop).toBe(true);

  // The old namespace cannot go (a job this stack does not manage runs in it): the destroy half fails.
  await p.agent.sched.jobs.register(
    JSON.parse(jobspec('stranger', { namespace: 'box1' })) as Parameters<
      typeof p.agent.sched.jobs.register
    >[0],
    { namespace: 'box1' },
  );
  p.writeStack('app', stackJson({ resource: { sched_namespace: { box: ns('box2') } } }));
  const destroyHalf = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(destroyHalf.code).toBe(1);
  expect(destroyHalf.stderr).toMatch(
    /Error: sched_namespace\.box \(app\/box\)\n.*non-terminal jobs: stranger/,
  );
  expect(destroyHalf.stderr).not.toMatch(/sched_namespace\.box: depends on/);
  expect(stateAddresses(p.readState())).toContain('sched_namespace.box');
  expect((await p.agent.sched.namespaces.read('box1')).value.Name).toBe('box1');

  // Once the stranger is gone, the same deploy goes through.
  await p.agent.sched.jobs.deregister('stranger', { namespace: 'box1', purge: true });
  const retried = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(retried.stderr).not.toMatch(/Error/);
  expect(retried.stdout).toMatch(/1 added, 0 changed, 1 destroyed/);
  expect((await p.agent.sched.namespaces.read('box2')).value.Name).toBe('box2');
});

test('a data source that depends on a resource with a pending change is read during apply', async () => {
  p.writeStack(
    'app',
    stackJson({
      resource: { sched_job: { made: withPath('app', 'made', { jobspec: jobspec('made', { count: 2 }) }) } },
      data: { sched_job: { read: withPath('app', 'read', { job_id: '${sched_job.made.id}' }) } },
      output: { read_type: { value: '${data.sched_job.read.type}' } },
    }),
  );
  // The job's ID is known now, but the job does not exist yet: reading it at plan time would fail.
  const plan = await p.cli(['plan', '--no-synth']);
  expect(plan.stderr).not.toMatch(/Error/);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain('# data.sched_job.read will be read during apply');
  expect(plan.stdout).toContain('(depends on a resource or a module with changes pending)');
  expect(plan.stdout).toMatch(/\+ read_type = \(known after apply\)/);
  const applied = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(applied.stderr).not.toMatch(/Error/);
  expect(applied.code).toBe(0);
  expect(applied.stdout).toContain('read_type = "service"');
  expect(stateAddresses(p.readState())).toContain('data.sched_job.read');
  // Nothing pending any more: read at plan time, no changes.
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
});
