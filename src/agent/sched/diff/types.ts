/*
 * The plan diff structures of the scheduler API (spec section 2, "Plan diff structures"), shaped as
 * Nomad serialises them: empty lists are `null`, because Go encodes nil slices and maps that way.
 */

export type DiffType = 'Added' | 'Deleted' | 'Edited' | 'None';

export interface FieldDiff {
  Type: DiffType;
  Name: string;
  Old: string;
  New: string;
  Annotations: string[] | null;
}

export interface ObjectDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
}

export interface TaskDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Annotations: string[] | null;
}

export interface TaskGroupDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Tasks: TaskDiff[] | null;
  Updates: Record<string, number> | null;
}

export interface JobDiff {
  Type: DiffType;
  ID: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  TaskGroups: TaskGroupDiff[] | null;
}

/**
 * A job in the API shape. Kept structural so that both the zod-inferred `Job` and jobs read back from
 * the store (plain JSON) are accepted.
 */
export type JobLike = Record<string, unknown>;

export interface DiffOptions {
  /** Include unchanged fields (as `None`) inside objects that changed, as Nomad's contextual diff does. */
  contextual?: boolean;
}
