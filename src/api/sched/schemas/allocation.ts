import { z } from 'zod';
import {
  Duration,
  NanoTime,
  OptBool,
  OptNumber,
  OptString,
  Rfc3339,
  StringList,
  StringMap,
  list,
  map,
} from './common';
import { AllocMetricSchema } from './alloc-metric';
import { JobSchema } from './job';
import { AllocatedResourcesSchema, ResourcesSchema } from './resources';

/**
 * Type values listed by the spec: `Setup Failure`, `Driver Failure`, `Started`, `Terminated`,
 * `Killing`, `Killed`, `Received`, `Failed Validation`, `Restarting`, `Not Restarting`,
 * `Downloading Artifacts`, `Failed Artifact Download`, `Restart Signaled`, `Signaling`,
 * `Sibling Task Failed`, `Leader Task Dead`, `Driver`, `Task Setup`, `Building Task Directory`.
 * Open string: clients add new types over time.
 */
export const TaskEventSchema = z.looseObject({
  Type: OptString,
  Time: NanoTime,
  DisplayMessage: OptString,
  Message: OptString,
  Details: StringMap,
  FailsTask: OptBool,
  RestartReason: OptString,
  SetupError: OptString,
  DriverError: OptString,
  DriverMessage: OptString,
  ExitCode: OptNumber,
  Signal: OptNumber,
  KillTimeout: Duration,
  KillError: OptString,
  KillReason: OptString,
  StartDelay: OptNumber,
  DownloadError: OptString,
  ValidationError: OptString,
  DiskLimit: OptNumber,
  DiskSize: OptNumber,
  FailedSibling: OptString,
  VaultError: OptString,
  TaskSignalReason: OptString,
  TaskSignal: OptString,
  GenericSource: OptString,
});
export type TaskEvent = z.infer<typeof TaskEventSchema>;

/** State: `pending`, `running` or `dead`. */
export const TaskStateSchema = z.looseObject({
  State: OptString,
  Failed: OptBool,
  Restarts: OptNumber,
  LastRestart: Rfc3339,
  StartedAt: Rfc3339,
  FinishedAt: Rfc3339,
  Events: list(TaskEventSchema),
  TaskHandle: z.unknown().nullish(),
});
export type TaskState = z.infer<typeof TaskStateSchema>;

export const RescheduleEventSchema = z.looseObject({
  RescheduleTime: NanoTime,
  PrevAllocID: OptString,
  PrevNodeID: OptString,
  Delay: Duration,
});
export type RescheduleEvent = z.infer<typeof RescheduleEventSchema>;

export const RescheduleTrackerSchema = z.looseObject({
  Events: list(RescheduleEventSchema),
  LastReschedule: OptString,
});
export type RescheduleTracker = z.infer<typeof RescheduleTrackerSchema>;

export const AllocDeploymentStatusSchema = z.looseObject({
  Healthy: z.boolean().nullish(),
  Timestamp: Rfc3339,
  Canary: OptBool,
  ModifyIndex: OptNumber,
});
export type AllocDeploymentStatus = z.infer<typeof AllocDeploymentStatusSchema>;

export const DesiredTransitionSchema = z.looseObject({
  Migrate: z.boolean().nullish(),
  Reschedule: z.boolean().nullish(),
  ForceReschedule: z.boolean().nullish(),
  NoShutdownDelay: z.boolean().nullish(),
});
export type DesiredTransition = z.infer<typeof DesiredTransitionSchema>;

/*
 * DesiredStatus: seen `run` (Nomad also has `stop`, `evict`). ClientStatus: seen `running` (Nomad also
 * has `pending`, `complete`, `failed`, `lost`, `unknown`). Open strings.
 */

export const AllocationSchema = z.looseObject({
  ID: z.string(),
  Namespace: OptString,
  EvalID: OptString,
  Name: OptString,
  NodeID: OptString,
  NodeName: OptString,
  JobID: OptString,
  Job: JobSchema.nullish(),
  TaskGroup: OptString,
  Resources: ResourcesSchema.nullish(),
  SharedResources: ResourcesSchema.nullish(),
  TaskResources: map(ResourcesSchema),
  AllocatedResources: AllocatedResourcesSchema.nullish(),
  Services: StringMap,
  Metrics: AllocMetricSchema.nullish(),
  DesiredStatus: OptString,
  DesiredDescription: OptString,
  DesiredTransition: DesiredTransitionSchema.nullish(),
  ClientStatus: OptString,
  ClientDescription: OptString,
  TaskStates: map(TaskStateSchema),
  DeploymentID: OptString,
  DeploymentStatus: AllocDeploymentStatusSchema.nullish(),
  FollowupEvalID: OptString,
  PreviousAllocation: OptString,
  NextAllocation: OptString,
  RescheduleTracker: RescheduleTrackerSchema.nullish(),
  NetworkStatus: z.looseObject({ InterfaceName: OptString, Address: OptString }).nullish(),
  PreemptedAllocations: StringList,
  PreemptedByAllocation: OptString,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
  AllocModifyIndex: OptNumber,
  CreateTime: NanoTime,
  ModifyTime: NanoTime,
});
export type Allocation = z.infer<typeof AllocationSchema>;

export const AllocationStubSchema = z.looseObject({
  ID: z.string(),
  EvalID: OptString,
  Name: OptString,
  Namespace: OptString,
  NodeID: OptString,
  NodeName: OptString,
  JobID: OptString,
  JobType: OptString,
  JobVersion: OptNumber,
  TaskGroup: OptString,
  AllocatedResources: AllocatedResourcesSchema.nullish(),
  DesiredStatus: OptString,
  DesiredDescription: OptString,
  DesiredTransition: DesiredTransitionSchema.nullish(),
  ClientStatus: OptString,
  ClientDescription: OptString,
  TaskStates: map(TaskStateSchema),
  DeploymentStatus: AllocDeploymentStatusSchema.nullish(),
  FollowupEvalID: OptString,
  NextAllocation: OptString,
  RescheduleTracker: RescheduleTrackerSchema.nullish(),
  PreemptedAllocations: StringList,
  PreemptedByAllocation: OptString,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
  CreateTime: NanoTime,
  ModifyTime: NanoTime,
});
export type AllocationStub = z.infer<typeof AllocationStubSchema>;

/** An allocation stub read for its group and status only, the rest dropped (see JobAttributesSchema). */
export const AllocationStatusSchema = z.object(
  AllocationStubSchema.pick({
    ID: true,
    TaskGroup: true,
    JobVersion: true,
    DesiredStatus: true,
    ClientStatus: true,
  }).shape,
);
export type AllocationStatus = z.infer<typeof AllocationStatusSchema>;
