import { z } from 'zod';
import { OptBool, OptNumber, OptString, StringMap } from './common';
import { JobSchema, JobSubmissionSchema } from './job';

/*
 * Request bodies. These are what the client sends and what the dev agent accepts; they are loose like
 * the response schemas so a newer client field does not break an older agent.
 */

export const JobRegisterRequestSchema = z.looseObject({
  Job: JobSchema,
  Submission: JobSubmissionSchema.nullish(),
  EnforceIndex: OptBool,
  JobModifyIndex: OptNumber,
  EvalPriority: OptNumber,
  PolicyOverride: OptBool,
  PreserveCounts: OptBool,
});
export type JobRegisterRequest = z.infer<typeof JobRegisterRequestSchema>;

export const JobParseRequestSchema = z.looseObject({
  JobHCL: z.string(),
  Canonicalize: OptBool,
  Variables: OptString,
  HCLv1: OptBool,
});
export type JobParseRequest = z.infer<typeof JobParseRequestSchema>;

/** Payload is base64 of at most 16384 decoded bytes. */
export const JobDispatchRequestSchema = z.looseObject({
  JobID: OptString,
  Payload: OptString,
  Meta: StringMap,
  IdPrefixTemplate: OptString,
});
export type JobDispatchRequest = z.infer<typeof JobDispatchRequestSchema>;

/** Use JobVersion or TaggedVersion, not both. */
export const JobRevertRequestSchema = z.looseObject({
  JobID: z.string(),
  JobVersion: OptNumber,
  TaggedVersion: OptString,
  EnforcePriorVersion: z.number().nullish(),
  RegistryToken: OptString,
  SecretsToken: OptString,
});
export type JobRevertRequest = z.infer<typeof JobRevertRequestSchema>;

export const JobStabilityRequestSchema = z.looseObject({
  JobID: z.string(),
  JobVersion: OptNumber,
  Stable: OptBool,
});
export type JobStabilityRequest = z.infer<typeof JobStabilityRequestSchema>;

export const EvalOptionsSchema = z.looseObject({
  ForceReschedule: OptBool,
});
export type EvalOptions = z.infer<typeof EvalOptionsSchema>;

export const JobEvaluateRequestSchema = z.looseObject({
  JobID: z.string(),
  EvalOptions: EvalOptionsSchema.nullish(),
});
export type JobEvaluateRequest = z.infer<typeof JobEvaluateRequestSchema>;

export const JobPlanRequestSchema = z.looseObject({
  Job: JobSchema,
  Diff: OptBool,
  PolicyOverride: OptBool,
});
export type JobPlanRequest = z.infer<typeof JobPlanRequestSchema>;

export const AllocSignalRequestSchema = z.looseObject({
  Signal: OptString,
  Task: OptString,
});
export type AllocSignalRequest = z.infer<typeof AllocSignalRequestSchema>;

export const AllocRestartRequestSchema = z.looseObject({
  TaskName: OptString,
  AllTasks: OptBool,
});
export type AllocRestartRequest = z.infer<typeof AllocRestartRequestSchema>;

export const DeploymentPromoteRequestSchema = z.looseObject({
  DeploymentID: z.string(),
  All: OptBool,
  Groups: z.array(z.string()).nullish(),
});
export type DeploymentPromoteRequest = z.infer<typeof DeploymentPromoteRequestSchema>;

export const DeploymentFailRequestSchema = z.looseObject({
  DeploymentID: z.string(),
});
export type DeploymentFailRequest = z.infer<typeof DeploymentFailRequestSchema>;
