/*
 * The plan diff structures of the scheduler API (spec section 2, "Plan diff structures"), shaped as
 * Nomad serialises them: empty lists are `null`, because Go encodes nil slices and maps that way.
 * Type aliases rather than interfaces, so that they are assignable to the looser zod-inferred diff
 * types of the API schemas (which carry an index signature).
 */

export type DiffType = 'Added' | 'Deleted' | 'Edited' | 'None';

export type FieldDiff = {
  Type: DiffType;
  Name: string;
  Old: string;
  New: string;
  Annotations: string[] | null;
};

export type ObjectDiff = {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
};

export type TaskDiff = {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Annotations: string[] | null;
};

export type TaskGroupDiff = {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Tasks: TaskDiff[] | null;
  Updates: Record<string, number> | null;
};

export type JobDiff = {
  Type: DiffType;
  ID: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  TaskGroups: TaskGroupDiff[] | null;
};

export type { Job } from '../../../api/sched/schemas';

export type DiffOptions = {
  /** Include unchanged fields (as `None`) inside objects that changed, as Nomad's contextual diff does. */
  contextual?: boolean;
};
