import type { JobDiff as ApiJobDiff } from '../../../src/api/sched/schemas';
import { diffJobs, JobDiffError, type ObjectDiff } from '../../../src/agent/sched/diff';
import { baseJob, editJob, group, task } from './fixtures';

function field(type: string, name: string, oldV: string, newV: string) {
  return { Type: type, Name: name, Old: oldV, New: newV, Annotations: null };
}

function groupDiff(d: ReturnType<typeof diffJobs>, name = 'frontend') {
  const g = d.TaskGroups?.find((x) => x.Name === name);
  if (!g) throw new Error(`no diff for group ${name}`);
  return g;
}

function taskDiff(d: ReturnType<typeof diffJobs>, name = 'server', groupName = 'frontend') {
  const t = groupDiff(d, groupName).Tasks?.find((x) => x.Name === name);
  if (!t) throw new Error(`no diff for task ${name}`);
  return t;
}

function objectNamed(list: ObjectDiff[] | null, name: string): ObjectDiff {
  const o = list?.find((x) => x.Name === name);
  if (!o) throw new Error(`no object diff ${name} in ${JSON.stringify(list)}`);
  return o;
}

describe('diffJobs', () => {
  it('reports no change between equal jobs, still listing unchanged groups and tasks as None', () => {
    const d = diffJobs(baseJob(), baseJob());
    expect(d).toEqual({
      Type: 'None',
      ID: 'web',
      Fields: null,
      Objects: null,
      TaskGroups: [
        {
          Type: 'None',
          Name: 'frontend',
          Fields: null,
          Objects: null,
          Tasks: [{ Type: 'None', Name: 'server', Fields: null, Objects: null, Annotations: null }],
          Updates: null,
        },
      ],
    });
  });

  it('ignores bookkeeping fields and tokens', () => {
    const n = editJob((j) => {
      j.Version = 4;
      j.Stable = false;
      j.Status = 'pending';
      j.StatusDescription = 'waiting';
      j.SubmitTime = 1_800_000_000_000_000_000;
      j.CreateIndex = 11;
      j.ModifyIndex = 99;
      j.JobModifyIndex = 98;
      j.SchedTokenID = 'b7d3c7a4-0000-0000-0000-000000000000';
      j.SecretsToken = 's.hunter2';
      j.RegistryToken = 'hunter3';
      j.Payload = 'aGVsbG8=';
    });
    const d = diffJobs(baseJob(), n);
    expect(d.Type).toBe('None');
    expect(d.Fields).toBeNull();
    expect(JSON.stringify(d)).not.toContain('hunter');
  });

  it('flattens an edited scalar to Old/New strings', () => {
    const d = diffJobs(
      baseJob(),
      editJob((j) => (j.Priority = 70)),
    );
    expect(d.Type).toBe('Edited');
    expect(d.Fields).toEqual([field('Edited', 'Priority', '50', '70')]);
  });

  it('treats an omitted scalar as its zero value, not as a deletion', () => {
    const n = editJob((j) => {
      delete j.AllAtOnce;
      delete group(j).Meta;
    });
    expect(diffJobs(baseJob(), n).Type).toBe('None');
    const d = diffJobs(
      baseJob(),
      editJob((j) => (j.AllAtOnce = true)),
    );
    expect(d.Fields).toEqual([field('Edited', 'AllAtOnce', 'false', 'true')]);
  });

  it('flattens map keys as Meta[key] and reports added and removed keys', () => {
    const n = editJob((j) => (j.Meta = { tier: 'gold' }));
    expect(diffJobs(baseJob(), n).Fields).toEqual([
      field('Deleted', 'Meta[owner]', 'team-a', ''),
      field('Added', 'Meta[tier]', '', 'gold'),
    ]);
    const env = diffJobs(
      baseJob(),
      editJob((j) => (task(j).Env = { MODE: 'dev', DEBUG: '1' })),
    );
    expect(taskDiff(env).Fields).toEqual([
      field('Added', 'Env[DEBUG]', '', '1'),
      field('Edited', 'Env[MODE]', 'prod', 'dev'),
    ]);
  });

  it('reports an added group with its tasks, sorted by name', () => {
    const n = editJob((j) => {
      j.TaskGroups.push({
        Name: 'backend',
        Count: 1,
        Tasks: [{ Name: 'api', Driver: 'exec', Resources: { CPU: 50 } }],
      });
    });
    const d = diffJobs(baseJob(), n);
    expect(d.TaskGroups?.map((g) => [g.Name, g.Type])).toEqual([
      ['backend', 'Added'],
      ['frontend', 'None'],
    ]);
    const backend = groupDiff(d, 'backend');
    expect(backend.Fields).toEqual([field('Added', 'Count', '', '1')]);
    const api = taskDiff(d, 'api', 'backend');
    expect(api.Type).toBe('Added');
    expect(api.Fields).toEqual([field('Added', 'Driver', '', 'exec')]);
    expect(api.Objects).toEqual([
      { Type: 'Added', Name: 'Resources', Fields: [field('Added', 'CPU', '', '50')], Objects: null },
    ]);
  });

  it('reports a removed group and a removed and an added task', () => {
    const withTwo = editJob((j) => {
      group(j).Tasks.push({ Name: 'sidecar', Driver: 'docker', Config: { image: 'envoy' } });
    });
    const removedGroup = diffJobs(
      withTwo,
      editJob((j) => (j.TaskGroups = [])),
    );
    const g = groupDiff(removedGroup);
    expect(g.Type).toBe('Deleted');
    expect(g.Tasks?.map((t) => [t.Name, t.Type])).toEqual([
      ['server', 'Deleted'],
      ['sidecar', 'Deleted'],
    ]);

    const d = diffJobs(baseJob(), withTwo);
    expect(groupDiff(d).Type).toBe('Edited');
    const sidecar = taskDiff(d, 'sidecar');
    expect(sidecar.Type).toBe('Added');
    expect(objectNamed(sidecar.Objects, 'Config')).toEqual({
      Type: 'Added',
      Name: 'Config',
      Fields: [field('Added', 'image', '', 'envoy')],
      Objects: null,
    });
    expect(diffJobs(withTwo, baseJob()).TaskGroups?.[0]?.Tasks?.map((t) => t.Type)).toEqual([
      'None',
      'Deleted',
    ]);
  });

  it('reports an edited nested object with only its changed fields', () => {
    const n = editJob((j) => ((group(j).RestartPolicy as Record<string, unknown>).Attempts = 3));
    const g = groupDiff(diffJobs(baseJob(), n));
    expect(g.Type).toBe('Edited');
    expect(g.Objects).toEqual([
      {
        Type: 'Edited',
        Name: 'RestartPolicy',
        Fields: [field('Edited', 'Attempts', '2', '3')],
        Objects: null,
      },
    ]);
  });

  it('in contextual mode lists the unchanged fields of changed objects as None', () => {
    const n = editJob((j) => {
      (group(j).RestartPolicy as Record<string, unknown>).Attempts = 3;
      j.Priority = 60;
    });
    const d = diffJobs(baseJob(), n, { contextual: true });
    // Top-level fields stay non-contextual, as in Nomad.
    expect(d.Fields).toEqual([field('Edited', 'Priority', '50', '60')]);
    expect(groupDiff(d).Objects).toEqual([
      {
        Type: 'Edited',
        Name: 'RestartPolicy',
        Fields: [
          field('Edited', 'Attempts', '2', '3'),
          field('None', 'Delay', '15000000000', '15000000000'),
          field('None', 'Interval', '1800000000000', '1800000000000'),
          field('None', 'Mode', 'fail', 'fail'),
        ],
        Objects: null,
      },
    ]);
    // Unchanged objects and unchanged datacenters are still left out.
    expect(d.Objects).toBeNull();
  });

  it('in contextual mode shows unchanged driver config keys', () => {
    const n = editJob((j) => ((task(j).Config as Record<string, unknown>).image = 'nginx:1.26'));
    const config = objectNamed(taskDiff(diffJobs(baseJob(), n, { contextual: true })).Objects, 'Config');
    expect(config.Fields).toEqual([
      field('None', 'args[0]', '-g', '-g'),
      field('None', 'args[1]', 'daemon off;', 'daemon off;'),
      field('Edited', 'image', 'nginx:1.25', 'nginx:1.26'),
      field('None', 'ports[0]', 'http', 'http'),
    ]);
    const plain = objectNamed(taskDiff(diffJobs(baseJob(), n)).Objects, 'Config');
    expect(plain.Fields).toEqual([field('Edited', 'image', 'nginx:1.25', 'nginx:1.26')]);
  });

  it('flattens nested driver config and prints numbers as Go does', () => {
    const n = editJob((j) => {
      task(j).Config = {
        image: 'nginx:1.25',
        port_map: [{ http: 8080 }],
        memory: 1_000_000,
        ratio: 0.5,
        opt: null,
      };
    });
    const config = objectNamed(taskDiff(diffJobs(baseJob(), n)).Objects, 'Config');
    expect(config.Type).toBe('Edited');
    expect(config.Fields).toEqual([
      field('Deleted', 'args[0]', '-g', ''),
      field('Deleted', 'args[1]', 'daemon off;', ''),
      field('Added', 'memory', '', '1e+06'),
      field('Added', 'opt', '', 'nil'),
      field('Added', 'port_map[0][http]', '', '8080'),
      field('Deleted', 'ports[0]', 'http', ''),
      field('Added', 'ratio', '', '0.5'),
    ]);
  });

  it('ignores the Stagger of a group update strategy but still marks the group edited', () => {
    const n = editJob((j) => ((group(j).Update as Record<string, unknown>).Stagger = 1));
    const g = groupDiff(diffJobs(baseJob(), n));
    expect(g.Objects).toBeNull();
    expect(g.Type).toBe('Edited');
    const m = editJob((j) => ((group(j).Update as Record<string, unknown>).MaxParallel = 2));
    expect(groupDiff(diffJobs(baseJob(), m)).Objects).toEqual([
      { Type: 'Edited', Name: 'Update', Fields: [field('Edited', 'MaxParallel', '1', '2')], Objects: null },
    ]);
  });

  it('keys constraints by content: an edit is a Deleted and an Added constraint', () => {
    const edited = editJob(
      (j) => (j.Constraints = [{ LTarget: '${attr.kernel.name}', RTarget: 'darwin', Operand: '=' }]),
    );
    const d = diffJobs(baseJob(), edited);
    expect(d.Objects?.map((o) => [o.Name, o.Type])).toEqual([
      ['Constraint', 'Added'],
      ['Constraint', 'Deleted'],
    ]);
    expect(d.Objects?.[0]?.Fields).toContainEqual(field('Added', 'RTarget', '', 'darwin'));
    expect(d.Objects?.[1]?.Fields).toContainEqual(field('Deleted', 'RTarget', 'linux', ''));

    const appended = editJob((j) => {
      (j.Constraints as unknown[]).push({ LTarget: '${node.class}', RTarget: 'large', Operand: '=' });
    });
    expect(diffJobs(baseJob(), appended).Objects).toEqual([
      {
        Type: 'Added',
        Name: 'Constraint',
        Fields: [
          field('Added', 'LTarget', '', '${node.class}'),
          field('Added', 'Operand', '', '='),
          field('Added', 'RTarget', '', 'large'),
        ],
        Objects: null,
      },
    ]);
    // Order does not matter in a set.
    const reordered = editJob((j) => (j.Constraints = [...(j.Constraints as unknown[])].reverse()), appended);
    expect(diffJobs(appended, reordered).Type).toBe('None');
  });

  it('diffs datacenters as a set', () => {
    const d = diffJobs(
      baseJob(),
      editJob((j) => (j.Datacenters = ['dc2', 'dc1'])),
    );
    expect(d.Objects).toEqual([
      {
        Type: 'Added',
        Name: 'Datacenters',
        Fields: [field('Added', 'Datacenters', '', 'dc2')],
        Objects: null,
      },
    ]);
  });

  it('diffs task resources and reports an edited network as a deleted and an added one', () => {
    const n = editJob((j) => {
      task(j).Resources = { CPU: 200, MemoryMB: 128, DiskMB: 0 };
      group(j).Networks = [{ Mode: 'host', MBits: 0, DynamicPorts: [{ Label: 'http', Value: 0, To: 9090 }] }];
    });
    const d = diffJobs(baseJob(), n);
    expect(objectNamed(taskDiff(d).Objects, 'Resources')).toEqual({
      Type: 'Edited',
      Name: 'Resources',
      Fields: [field('Edited', 'CPU', '100', '200')],
      Objects: null,
    });
    const networks = groupDiff(d).Objects?.filter((o) => o.Name === 'Network');
    expect(networks?.map((o) => o.Type)).toEqual(['Added', 'Deleted']);
    expect(networks?.[0]?.Fields).toEqual([
      field('Added', 'MBits', '', '0'),
      field('Added', 'Mode', '', 'host'),
    ]);
    expect(networks?.[0]?.Objects).toEqual([
      {
        Type: 'Added',
        Name: 'Dynamic Port',
        Fields: [field('Added', 'Label', '', 'http'), field('Added', 'To', '', '9090')],
        Objects: null,
      },
    ]);
  });

  it('diffs service tags as a set inside an edited service', () => {
    const n = editJob((j) => ((group(j).Services as Record<string, unknown>[])[0]!.Tags = ['v2']));
    expect(groupDiff(diffJobs(baseJob(), n)).Objects).toEqual([
      {
        Type: 'Edited',
        Name: 'Service',
        Fields: null,
        Objects: [
          {
            Type: 'Edited',
            Name: 'Tags',
            Fields: [field('Added', 'Tags', '', 'v2'), field('Deleted', 'Tags', 'v1', '')],
            Objects: null,
          },
        ],
      },
    ]);
  });

  it('matches templates by destination path', () => {
    const two = [
      { DestPath: 'local/a.conf', EmbeddedTmpl: 'a', ChangeMode: 'restart' },
      { DestPath: 'local/b.conf', EmbeddedTmpl: 'b', ChangeMode: 'restart' },
    ];
    const old = editJob((j) => (task(j).Templates = two));
    const n = editJob((j) => (task(j).Templates = [{ ...two[1]!, EmbeddedTmpl: 'b2' }, two[0]!]), old);
    expect(taskDiff(diffJobs(old, n)).Objects).toEqual([
      {
        Type: 'Edited',
        Name: 'Template',
        Fields: [field('Edited', 'EmbeddedTmpl', 'b', 'b2')],
        Objects: null,
      },
    ]);
  });

  it('reports a new job as Added and a purged job as Deleted', () => {
    const added = diffJobs(null, baseJob());
    expect(added.Type).toBe('Added');
    expect(added.ID).toBe('web');
    expect(added.Fields).toContainEqual(field('Added', 'Priority', '', '50'));
    expect(added.Fields?.map((f) => f.Name)).not.toContain('Version');
    expect(groupDiff(added).Type).toBe('Added');

    const deleted = diffJobs(baseJob(), null);
    expect(deleted.Type).toBe('Deleted');
    expect(deleted.Fields).toContainEqual(field('Deleted', 'Type', 'service', ''));
    expect(diffJobs(null, null)).toEqual({
      Type: 'None',
      ID: '',
      Fields: null,
      Objects: null,
      TaskGroups: null,
    });
  });

  it('produces a value of the API schema type for plan and versions responses', () => {
    const d: ApiJobDiff = diffJobs(
      baseJob(),
      editJob((j) => (j.Priority = 1)),
    );
    expect(d.Type).toBe('Edited');
  });

  it('refuses to diff jobs with different IDs', () => {
    expect(() =>
      diffJobs(
        baseJob(),
        editJob((j) => (j.ID = 'api')),
      ),
    ).toThrow(JobDiffError);
  });

  it('orders groups by Go byte order and fields by name', () => {
    const n = editJob((j) => {
      j.TaskGroups = ['b', 'a', 'C', 'é'].map((Name) => ({ Name, Tasks: [] }));
      j.Meta = { z: '1', A: '2', m: '3' };
    });
    const d = diffJobs(null, n);
    expect(d.TaskGroups?.map((g) => g.Name)).toEqual(['C', 'a', 'b', 'é']);
    expect(d.Fields?.filter((f) => f.Name.startsWith('Meta')).map((f) => f.Name)).toEqual([
      'Meta[A]',
      'Meta[m]',
      'Meta[z]',
    ]);
  });
});
