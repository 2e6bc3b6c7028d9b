import { classifyGroupUpdate, destructiveUpdateReason, jobSpecChanged } from '../../../src/agent/sched/diff';
import { baseJob, editJob, group, task } from './fixtures';

type Edit = Parameters<typeof editJob>[0];

function classify(edit: Edit, groupName = 'frontend') {
  return classifyGroupUpdate(baseJob(), editJob(edit), groupName);
}

function reason(edit: Edit, groupName = 'frontend') {
  return destructiveUpdateReason(baseJob(), editJob(edit), groupName);
}

describe('classifyGroupUpdate', () => {
  it('is none when only bookkeeping fields differ', () => {
    expect(
      classify((j) => {
        j.Version = 9;
        j.JobModifyIndex = 77;
        j.ModifyIndex = 78;
        j.SubmitTime = 1;
        j.Stable = false;
        j.Status = 'pending';
      }),
    ).toBe('none');
    expect(jobSpecChanged(baseJob(), baseJob())).toBe(false);
  });

  it('treats omitted, null and zero values as the same spec', () => {
    expect(
      classify((j) => {
        delete task(j).User;
        task(j).Artifacts = [];
        group(j).Meta = {};
        delete j.AllAtOnce;
      }),
    ).toBe('none');
  });

  it('updates in place on a count change', () => {
    expect(classify((j) => (group(j).Count = 5))).toBe('in-place');
    expect(reason((j) => (group(j).Count = 5))).toBeNull();
  });

  it('updates in place on changes the running tasks do not see', () => {
    const inPlace: [string, Edit][] = [
      ['update strategy', (j) => ((group(j).Update as Record<string, unknown>).MaxParallel = 3)],
      ['service tags', (j) => ((group(j).Services as Record<string, unknown>[])[0]!.Tags = ['v2'])],
      ['constraints', (j) => (j.Constraints = [])],
      ['restart policy', (j) => ((group(j).RestartPolicy as Record<string, unknown>).Attempts = 9)],
      ['kill timeout', (j) => (task(j).KillTimeout = 30_000_000_000)],
      ['log rotation', (j) => ((task(j).LogConfig as Record<string, unknown>).MaxFiles = 3)],
      ['priority', (j) => (j.Priority = 80)],
      [
        'another group',
        (j) => j.TaskGroups.push({ Name: 'other', Count: 1, Tasks: [{ Name: 't', Driver: 'exec' }] }),
      ],
    ];
    for (const [label, edit] of inPlace) {
      expect([label, classify(edit)]).toEqual([label, 'in-place']);
    }
  });

  it('is destructive when job, group or task meta changes, since meta is interpolated into tasks', () => {
    expect(reason((j) => (j.Meta = { owner: 'team-b' }))).toBe('task meta');
    expect(reason((j) => (group(j).Meta = { zone: 'a' }))).toBe('task meta');
    expect(reason((j) => (task(j).Meta = { build: '7' }))).toBe('task meta');
    expect(classify((j) => (j.Meta = { owner: 'team-a', extra: '1' }))).toBe('destructive');
  });

  it('is in place when a job meta change is shadowed by the task meta', () => {
    const shadowed = editJob((j) => (task(j).Meta = { owner: 'task-owner' }));
    const changed = editJob((j) => (j.Meta = { owner: 'team-b' }), shadowed);
    expect(classifyGroupUpdate(shadowed, changed, 'frontend')).toBe('in-place');
  });

  it('is destructive when the task config, env, driver or user changes', () => {
    expect(reason((j) => ((task(j).Config as Record<string, unknown>).image = 'nginx:1.26'))).toBe(
      'task config',
    );
    expect(
      reason((j) => (task(j).Config = { image: 'nginx:1.25', ports: ['http'], args: ['daemon off;', '-g'] })),
    ).toBe('task config');
    expect(reason((j) => (task(j).Env = { MODE: 'dev' }))).toBe('task env');
    expect(reason((j) => (task(j).Driver = 'podman'))).toBe('task driver');
    expect(reason((j) => (task(j).User = 'nobody'))).toBe('task user');
    expect(classify((j) => (task(j).Driver = 'podman'))).toBe('destructive');
  });

  it('is destructive when resources change', () => {
    expect(reason((j) => ((task(j).Resources as Record<string, unknown>).CPU = 500))).toBe('task cpu');
    expect(reason((j) => ((task(j).Resources as Record<string, unknown>).MemoryMB = 256))).toBe(
      'task memory',
    );
    expect(reason((j) => ((task(j).Resources as Record<string, unknown>).DiskMB = 50))).toBe('task disk');
    expect(reason((j) => ((group(j).EphemeralDisk as Record<string, unknown>).SizeMB = 500))).toBe(
      'ephemeral disk',
    );
    expect(
      reason((j) => {
        const net = (group(j).Networks as Record<string, unknown>[])[0]!;
        net.DynamicPorts = [{ Label: 'http', Value: 0, To: 8080 }, { Label: 'metrics' }];
      }),
    ).toBe('network port map');
  });

  it('ignores the value the scheduler assigned to a dynamic port', () => {
    const n = editJob((j) => {
      (
        (group(j).Networks as Record<string, unknown>[])[0]!.DynamicPorts as Record<string, unknown>[]
      )[0]!.Value = 23456;
    });
    expect(destructiveUpdateReason(baseJob(), n, 'frontend')).toBeNull();
  });

  it('is destructive when a task is added, removed or renamed', () => {
    expect(reason((j) => group(j).Tasks.push({ Name: 'sidecar', Driver: 'docker' }))).toBe('number of tasks');
    expect(reason((j) => (task(j).Name = 'app'))).toBe('task deleted');
    expect(classify((j) => group(j).Tasks.push({ Name: 'sidecar', Driver: 'docker' }))).toBe('destructive');
  });

  it('is destructive for other changes Nomad cannot apply to a running allocation', () => {
    expect(
      reason(
        (j) => (j.Affinities = [{ LTarget: '${node.datacenter}', RTarget: 'dc1', Operand: '=', Weight: 50 }]),
      ),
    ).toBe('affinities');
    expect(reason((j) => (task(j).Templates = [{ DestPath: 'local/a', EmbeddedTmpl: 'x' }]))).toBe(
      'task templates',
    );
    expect(reason((j) => (task(j).Artifacts = [{ GetterSource: 'https://example.com/app.tgz' }]))).toBe(
      'task artifacts',
    );
    expect(reason((j) => (group(j).Volumes = { data: { Type: 'host', Source: 'data' } }))).toBe(
      'volume request',
    );
    expect(reason((j) => (task(j).VolumeMounts = [{ Volume: 'data', Destination: '/data' }]))).toBe(
      'task volume mount',
    );
    expect(reason((j) => (task(j).Lifecycle = { Hook: 'prestart', Sidecar: false }))).toBe('task lifecycle');
    expect(reason((j) => ((task(j).LogConfig as Record<string, unknown>).Disabled = true))).toBe(
      'task log disabled',
    );
    expect(reason((j) => (task(j).Secrets = { Policies: ['read'] }))).toBe('task secrets');
  });

  it('is destructive for a group present on one side only', () => {
    expect(classify((j) => (j.TaskGroups = []))).toBe('destructive');
    expect(classifyGroupUpdate(baseJob(), baseJob(), 'missing')).toBe('none');
    expect(reason((j) => j.TaskGroups.push({ Name: 'new', Tasks: [] }), 'new')).toBe('group added');
  });
});
