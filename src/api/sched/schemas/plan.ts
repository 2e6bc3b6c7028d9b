import { z } from 'zod';
import { OptNumber, OptString, StringList, list, map } from './common';
import { AllocMetricSchema } from './alloc-metric';
import { EvaluationSchema } from './evaluation';

/** Type: seen `Added`, `Edited`; Nomad also sends `Deleted` and `None`. Open string. */
export const FieldDiffSchema = z.looseObject({
  Type: OptString,
  Name: OptString,
  Old: OptString,
  New: OptString,
  Annotations: StringList,
});
export type FieldDiff = z.infer<typeof FieldDiffSchema>;

export interface ObjectDiff {
  Type?: string | null;
  Name?: string | null;
  Fields?: FieldDiff[] | null;
  Objects?: ObjectDiff[] | null;
  [k: string]: unknown;
}

// Object diffs nest to any depth; the explicit interface keeps the recursive type readable.
export const ObjectDiffSchema: z.ZodType<ObjectDiff> = z.looseObject({
  Type: OptString,
  Name: OptString,
  Fields: list(FieldDiffSchema),
  get Objects() {
    return z.array(ObjectDiffSchema).nullish();
  },
});

export const TaskDiffSchema = z.looseObject({
  Type: OptString,
  Name: OptString,
  Fields: list(FieldDiffSchema),
  Objects: list(ObjectDiffSchema),
  Annotations: StringList,
});
export type TaskDiff = z.infer<typeof TaskDiffSchema>;

export const TaskGroupDiffSchema = z.looseObject({
  Type: OptString,
  Name: OptString,
  Fields: list(FieldDiffSchema),
  Objects: list(ObjectDiffSchema),
  Tasks: list(TaskDiffSchema),
  Updates: map(z.number()),
});
export type TaskGroupDiff = z.infer<typeof TaskGroupDiffSchema>;

export const JobDiffSchema = z.looseObject({
  Type: OptString,
  ID: OptString,
  Fields: list(FieldDiffSchema),
  Objects: list(ObjectDiffSchema),
  TaskGroups: list(TaskGroupDiffSchema),
});
export type JobDiff = z.infer<typeof JobDiffSchema>;

export const DesiredUpdatesSchema = z.looseObject({
  Ignore: OptNumber,
  Place: OptNumber,
  Migrate: OptNumber,
  Stop: OptNumber,
  InPlaceUpdate: OptNumber,
  DestructiveUpdate: OptNumber,
  Canary: OptNumber,
  Preemptions: OptNumber,
  Reconnect: OptNumber,
  RescheduleNow: OptNumber,
  RescheduleLater: OptNumber,
  Disconnect: OptNumber,
});
export type DesiredUpdates = z.infer<typeof DesiredUpdatesSchema>;

export const PlanAnnotationsSchema = z.looseObject({
  DesiredTGUpdates: map(DesiredUpdatesSchema),
  PreemptedAllocs: list(z.looseObject({ ID: OptString })),
});
export type PlanAnnotations = z.infer<typeof PlanAnnotationsSchema>;

export const JobPlanResponseSchema = z.looseObject({
  Index: OptNumber,
  JobModifyIndex: OptNumber,
  CreatedEvals: list(EvaluationSchema),
  Diff: JobDiffSchema.nullish(),
  Annotations: PlanAnnotationsSchema.nullish(),
  FailedTGAllocs: map(AllocMetricSchema.nullable()),
  NextPeriodicLaunch: z.string().nullish(),
  Warnings: OptString,
});
export type JobPlanResponse = z.infer<typeof JobPlanResponseSchema>;

/**
 * The same answer for a caller that passes the diff on without reading into it (the engine writes it
 * into the plan JSON as it came): the Diff must be an object, and below its top level it is kept as
 * the server sent it. Checking the recursive diff tree field by field was most of the cost of
 * decoding a plan answer, and a plan of many new jobs decodes one per job.
 */
export const JobPlanPassedDiffResponseSchema = JobPlanResponseSchema.extend({
  Diff: z.looseObject({ Type: OptString, ID: OptString }).nullish(),
});
export type JobPlanPassedDiffResponse = z.infer<typeof JobPlanPassedDiffResponseSchema>;
