import { z } from 'zod';
import { Duration, NanoTime, OptBool, OptNumber, OptString, map } from './common';
import { AllocMetricSchema } from './alloc-metric';

/**
 * TriggeredBy: seen `job-register` (Nomad has many more: `job-deregister`, `periodic-job`,
 * `node-update`, `deployment-watcher`, `alloc-stop`, ...). Status: seen `complete`, `blocked` (Nomad
 * also has `pending`, `failed`, `canceled`). Open strings.
 */
export const EvaluationSchema = z.looseObject({
  ID: z.string(),
  Priority: OptNumber,
  Type: OptString,
  TriggeredBy: OptString,
  Namespace: OptString,
  JobID: OptString,
  JobModifyIndex: OptNumber,
  NodeID: OptString,
  NodeModifyIndex: OptNumber,
  DeploymentID: OptString,
  Status: OptString,
  StatusDescription: OptString,
  Wait: Duration,
  WaitUntil: z.string().nullish(),
  NextEval: OptString,
  PreviousEval: OptString,
  BlockedEval: OptString,
  RelatedEvals: z.array(z.looseObject({ ID: OptString })).nullish(),
  FailedTGAllocs: map(AllocMetricSchema.nullable()),
  ClassEligibility: map(z.boolean()),
  EscapedComputedClass: OptBool,
  QuotaLimitReached: OptString,
  AnnotatePlan: OptBool,
  QueuedAllocations: map(z.number()),
  LeaderACL: OptString,
  SnapshotIndex: OptNumber,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
  CreateTime: NanoTime,
  ModifyTime: NanoTime,
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

/**
 * An evaluation read to follow it (as a job's rollout is waited on): the fields that tell its outcome
 * and what comes next, checked as EvaluationSchema checks them, and the rest dropped unvisited (see
 * JobAttributesSchema: a quarter of the full decode's cost in a short-lived process).
 */
export const EvaluationOutcomeSchema = z.object(
  EvaluationSchema.pick({
    ID: true,
    Status: true,
    StatusDescription: true,
    DeploymentID: true,
    NextEval: true,
    BlockedEval: true,
    FailedTGAllocs: true,
    ModifyIndex: true,
  }).shape,
);
export type EvaluationOutcome = z.infer<typeof EvaluationOutcomeSchema>;
