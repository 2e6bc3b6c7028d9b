import { z } from 'zod';
import { Duration, OptBool, OptNumber, OptString, Rfc3339, StringList, map } from './common';

export const DeploymentStateSchema = z.looseObject({
  PlacedCanaries: StringList,
  AutoRevert: OptBool,
  ProgressDeadline: Duration,
  RequireProgressBy: Rfc3339,
  Promoted: OptBool,
  AutoPromote: OptBool,
  DesiredCanaries: OptNumber,
  DesiredTotal: OptNumber,
  PlacedAllocs: OptNumber,
  HealthyAllocs: OptNumber,
  UnhealthyAllocs: OptNumber,
});
export type DeploymentState = z.infer<typeof DeploymentStateSchema>;

/**
 * Status: seen `running`, `successful`, `cancelled` (Nomad also has `paused`, `failed`, `pending`,
 * `blocked`, `unblocking`, `initializing`). Open string.
 */
export const DeploymentSchema = z.looseObject({
  ID: z.string(),
  Namespace: OptString,
  JobID: OptString,
  JobVersion: OptNumber,
  JobModifyIndex: OptNumber,
  JobSpecModifyIndex: OptNumber,
  JobCreateIndex: OptNumber,
  IsMultiregion: OptBool,
  TaskGroups: map(DeploymentStateSchema),
  Status: OptString,
  StatusDescription: OptString,
  EvalPriority: OptNumber,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
  CreateTime: OptNumber,
  ModifyTime: OptNumber,
});
export type Deployment = z.infer<typeof DeploymentSchema>;
