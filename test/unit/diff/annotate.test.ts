import {
  annotateTaskDiffs,
  classifyGroupUpdate,
  diffJobs,
  type JobDiff,
  type Job,
} from '../../../src/agent/sched/diff';
import { baseJob, editJob, group, task } from './fixtures';

function annotated(
  oldJob: Job | null,
  newJob: Job | null,
  kinds: Parameters<typeof annotateTaskDiffs>[1] = {},
): JobDiff {
  const d = diffJobs(oldJob, newJob);
  annotateTaskDiffs(d, kinds);
  return d;
}

function taskAnnotations(d: JobDiff, name = 'server', groupName = 'frontend') {
  return d.TaskGroups?.find((g) => g.Name === groupName)?.Tasks?.find((t) => t.Name === name)?.Annotations;
}

function countField(d: JobDiff, groupName = 'frontend') {
  return d.TaskGroups?.find((g) => g.Name === groupName)?.Fields?.find((f) => f.Name === 'Count');
}

describe('annotateTaskDiffs', () => {
  it('marks count increases and decreases', () => {
    expect(
      countField(
        annotated(
          baseJob(),
          editJob((j) => (group(j).Count = 4)),
        ),
      )?.Annotations,
    ).toEqual(['forces create']);
    expect(
      countField(
        annotated(
          baseJob(),
          editJob((j) => (group(j).Count = 1)),
        ),
      )?.Annotations,
    ).toEqual(['forces destroy']);
  });

  it('marks the tasks of an added or removed group', () => {
    const added = annotated(
      baseJob(),
      editJob((j) => j.TaskGroups.push({ Name: 'b', Count: 1, Tasks: [{ Name: 't', Driver: 'exec' }] })),
    );
    expect(taskAnnotations(added, 't', 'b')).toEqual(['forces create']);
    expect(countField(added, 'b')?.Annotations).toEqual(['forces create']);
    const removed = annotated(
      baseJob(),
      editJob((j) => (j.TaskGroups = [])),
    );
    expect(taskAnnotations(removed)).toEqual(['forces destroy']);
  });

  it('marks a new task in an existing group as created when the group is being created', () => {
    const n = editJob((j) => group(j).Tasks.push({ Name: 'sidecar', Driver: 'docker' }));
    expect(taskAnnotations(annotated(baseJob(), n, { frontend: { kind: 'create' } }), 'sidecar')).toEqual([
      'forces create',
    ]);
    // Within a group that is being updated, a new task replaces the allocations.
    expect(
      taskAnnotations(annotated(baseJob(), n, { frontend: { kind: 'destructive' } }), 'sidecar'),
    ).toEqual(['forces create/destroy update']);
  });

  it('marks a config change as a destructive update', () => {
    const n = editJob((j) => ((task(j).Config as Record<string, unknown>).image = 'nginx:1.26'));
    const kind = classifyGroupUpdate(baseJob(), n, 'frontend');
    expect(kind).toBe('destructive');
    expect(taskAnnotations(annotated(baseJob(), n, { frontend: { kind } }))).toEqual([
      'forces create/destroy update',
    ]);
  });

  it('marks kill timeout, service and constraint changes as in-place updates', () => {
    const n = editJob((j) => {
      task(j).KillTimeout = 1;
      task(j).Services = [{ Name: 'api', PortLabel: 'http' }];
      task(j).Constraints = [{ LTarget: '${node.class}', RTarget: 'x', Operand: '=' }];
    });
    expect(taskAnnotations(annotated(baseJob(), n))).toEqual(['forces in-place update']);
  });

  it('treats turning log collection off as destructive but log rotation as in place', () => {
    const off = editJob((j) => ((task(j).LogConfig as Record<string, unknown>).Disabled = true));
    expect(taskAnnotations(annotated(baseJob(), off))).toEqual(['forces create/destroy update']);
    const rotation = editJob((j) => ((task(j).LogConfig as Record<string, unknown>).MaxFiles = 2));
    expect(taskAnnotations(annotated(baseJob(), rotation))).toEqual(['forces in-place update']);
  });

  it('follows the scheduler when it found the group can be updated in place', () => {
    const n = editJob((j) => (task(j).Leader = true));
    expect(taskAnnotations(annotated(baseJob(), n))).toEqual(['forces create/destroy update']);
    expect(taskAnnotations(annotated(baseJob(), n, { frontend: { kind: 'in-place' } }))).toEqual([
      'forces in-place update',
    ]);
  });

  it('leaves unchanged tasks alone and fills the update counts', () => {
    const n = editJob((j) => (group(j).Count = 3));
    const d = annotated(baseJob(), n, {
      frontend: { kind: 'in-place', updates: { Place: 1, InPlaceUpdate: 2, Ignore: 0, Stop: 0 } },
    });
    expect(taskAnnotations(d)).toBeNull();
    expect(d.TaskGroups?.[0]?.Updates).toEqual({ create: 1, 'in-place update': 2 });
  });
});
