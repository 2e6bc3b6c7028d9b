import { z } from 'zod';
import { OptBool, OptNumber, OptString, list } from './common';
import { JobSchema } from './job';
import { JobDiffSchema } from './plan';

/*
 * Write responses. Nomad embeds its QueryMeta/WriteMeta in the body (Index, LastContact, KnownLeader);
 * the headers carry the same values, so these stay optional here.
 */

const WriteMeta = {
  Index: OptNumber,
  LastContact: OptNumber,
  KnownLeader: OptBool,
};

export const JobRegisterResponseSchema = z.looseObject({
  EvalID: OptString,
  EvalCreateIndex: OptNumber,
  JobModifyIndex: OptNumber,
  Warnings: OptString,
  ...WriteMeta,
});
export type JobRegisterResponse = z.infer<typeof JobRegisterResponseSchema>;

export const JobDeregisterResponseSchema = z.looseObject({
  EvalID: OptString,
  EvalCreateIndex: OptNumber,
  JobModifyIndex: OptNumber,
  VolumeEvalID: OptString,
  VolumeEvalIndex: OptNumber,
  ...WriteMeta,
});
export type JobDeregisterResponse = z.infer<typeof JobDeregisterResponseSchema>;

export const JobDispatchResponseSchema = z.looseObject({
  DispatchedJobID: OptString,
  EvalID: OptString,
  EvalCreateIndex: OptNumber,
  JobCreateIndex: OptNumber,
  ...WriteMeta,
});
export type JobDispatchResponse = z.infer<typeof JobDispatchResponseSchema>;

export const JobStabilityResponseSchema = z.looseObject({
  JobModifyIndex: OptNumber,
  ...WriteMeta,
});
export type JobStabilityResponse = z.infer<typeof JobStabilityResponseSchema>;

export const PeriodicForceResponseSchema = z.looseObject({
  EvalID: OptString,
  EvalCreateIndex: OptNumber,
  ...WriteMeta,
});
export type PeriodicForceResponse = z.infer<typeof PeriodicForceResponseSchema>;

export const JobVersionsResponseSchema = z.looseObject({
  Versions: z.array(JobSchema).nullish(),
  Diffs: list(JobDiffSchema),
  ...WriteMeta,
});
export type JobVersionsResponse = z.infer<typeof JobVersionsResponseSchema>;

export const AllocStopResponseSchema = z.looseObject({
  EvalID: OptString,
  ...WriteMeta,
});
export type AllocStopResponse = z.infer<typeof AllocStopResponseSchema>;

/** Signal and restart answer `{}`. */
export const EmptyResponseSchema = z.looseObject({});
export type EmptyResponse = z.infer<typeof EmptyResponseSchema>;

export const DeploymentUpdateResponseSchema = z.looseObject({
  EvalID: OptString,
  EvalCreateIndex: OptNumber,
  DeploymentModifyIndex: OptNumber,
  RevertedJobVersion: z.number().nullish(),
  ...WriteMeta,
});
export type DeploymentUpdateResponse = z.infer<typeof DeploymentUpdateResponseSchema>;
