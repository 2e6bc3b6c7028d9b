import type { JobDiff, TaskDiff, TaskGroupDiff } from './types';
import type { DesiredUpdates } from '../../../api/sched/schemas';
import type { GroupUpdateKind } from './classify';

/*
 * Plan annotations that help a human read a diff, after Nomad's scheduler/annotate.go: update counts
 * per group, create/destroy marks on count changes, and per task whether it forces an in-place or a
 * destructive update.
 */

export const ANNOTATION_FORCES_CREATE = 'forces create';
export const ANNOTATION_FORCES_DESTROY = 'forces destroy';
export const ANNOTATION_FORCES_INPLACE_UPDATE = 'forces in-place update';
export const ANNOTATION_FORCES_DESTRUCTIVE_UPDATE = 'forces create/destroy update';

export interface GroupAnnotation {
  kind: GroupUpdateKind | 'create' | 'destroy';
  /**
   * The plan's DesiredTGUpdates entry for the group; when given, it fills the group diff's Updates
   * under Nomad's names ("create", "in-place update", ...).
   */
  updates?: DesiredUpdates;
}

type CountedUpdate =
  'Ignore' | 'Place' | 'Migrate' | 'Stop' | 'Canary' | 'InPlaceUpdate' | 'DestructiveUpdate';

const UPDATE_NAMES: [CountedUpdate, string][] = [
  ['Ignore', 'ignore'],
  ['Place', 'create'],
  ['Migrate', 'migrate'],
  ['Stop', 'destroy'],
  ['Canary', 'canary'],
  ['InPlaceUpdate', 'in-place update'],
  ['DestructiveUpdate', 'create/destroy update'],
];

/** Annotates `diff` in place. Groups without an entry in `kinds` are annotated from the diff alone. */
export function annotateTaskDiffs(diff: JobDiff, kinds: Record<string, GroupAnnotation>): void {
  for (const group of diff.TaskGroups ?? []) {
    const annotation = Object.hasOwn(kinds, group.Name) ? kinds[group.Name] : undefined;
    if (annotation?.updates) addUpdates(group, annotation.updates);
    annotateCountChange(group);
    for (const task of group.Tasks ?? []) annotateTask(task, group, annotation?.kind);
  }
}

function addUpdates(group: TaskGroupDiff, updates: DesiredUpdates): void {
  for (const [key, name] of UPDATE_NAMES) {
    const n = updates[key];
    if (typeof n !== 'number' || n === 0) continue;
    group.Updates ??= {};
    group.Updates[name] = n;
  }
}

function parseCount(v: string): number {
  if (v === '') return 0;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`task group Count must be an integer, got ${JSON.stringify(v)}`);
  return n;
}

function annotateCountChange(group: TaskGroupDiff): void {
  const count = group.Fields?.find((f) => f.Name === 'Count');
  if (!count) return;
  const oldV = parseCount(count.Old);
  const newV = parseCount(count.New);
  let mark: string | null = null;
  if (oldV < newV) mark = ANNOTATION_FORCES_CREATE;
  else if (newV < oldV) mark = ANNOTATION_FORCES_DESTROY;
  if (mark) count.Annotations = [...(count.Annotations ?? []), mark];
}

function addAnnotation(task: TaskDiff, mark: string): void {
  task.Annotations = [...(task.Annotations ?? []), mark];
}

function annotateTask(task: TaskDiff, group: TaskGroupDiff, kind: GroupAnnotation['kind'] | undefined): void {
  if (task.Type === 'None') return;

  const wholeGroup =
    group.Type === 'Added' || group.Type === 'Deleted' || kind === 'create' || kind === 'destroy';
  if (wholeGroup) {
    if (task.Type === 'Added') return addAnnotation(task, ANNOTATION_FORCES_CREATE);
    if (task.Type === 'Deleted') return addAnnotation(task, ANNOTATION_FORCES_DESTROY);
  }

  // The scheduler found nothing that forces replacement, so no task change can claim otherwise.
  if (kind === 'in-place') return addAnnotation(task, ANNOTATION_FORCES_INPLACE_UPDATE);

  addAnnotation(
    task,
    taskDiffIsDestructive(task) ? ANNOTATION_FORCES_DESTRUCTIVE_UPDATE : ANNOTATION_FORCES_INPLACE_UPDATE,
  );
}

/**
 * Nomad's reading of a task diff: every scalar field change but KillTimeout is destructive; among
 * nested objects only services, constraints, affinities, spreads and log settings (other than turning
 * logging on or off) can be changed in place.
 */
function taskDiffIsDestructive(task: TaskDiff): boolean {
  if ((task.Fields ?? []).some((f) => f.Name !== 'KillTimeout')) return true;
  for (const o of task.Objects ?? []) {
    switch (o.Name) {
      case 'Service':
      case 'Constraint':
      case 'Affinity':
      case 'Spread':
        continue;
      case 'LogConfig':
        if ((o.Fields ?? []).some((f) => f.Name === 'Disabled')) return true;
        continue;
      default:
        return true;
    }
  }
  return false;
}
