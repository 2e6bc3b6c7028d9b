import { z } from 'zod';
import {
  Duration,
  FreeMap,
  NanoTime,
  OptBool,
  OptNumber,
  OptString,
  StringList,
  StringMap,
  list,
  map,
} from './common';
import { AffinitySchema, ConstraintSchema, SpreadSchema } from './constraints';
import { NetworkSchema, ResourcesSchema } from './resources';
import { ServiceSchema } from './services';

/** Mode: seen `delay` and `fail`. */
export const RestartPolicySchema = z.looseObject({
  Attempts: OptNumber,
  Interval: Duration,
  Delay: Duration,
  Mode: OptString,
  RenderTemplates: OptBool,
});
export type RestartPolicy = z.infer<typeof RestartPolicySchema>;

/** DelayFunction: seen `exponential`; Nomad also knows `constant` and `fibonacci`. */
export const ReschedulePolicySchema = z.looseObject({
  Attempts: OptNumber,
  Interval: Duration,
  Delay: Duration,
  DelayFunction: OptString,
  MaxDelay: Duration,
  Unlimited: OptBool,
});
export type ReschedulePolicy = z.infer<typeof ReschedulePolicySchema>;

/** HealthCheck: seen `checks`; Nomad also knows `task_states` and `manual`. */
export const MigrateStrategySchema = z.looseObject({
  MaxParallel: OptNumber,
  HealthCheck: OptString,
  MinHealthyTime: Duration,
  HealthyDeadline: Duration,
});
export type MigrateStrategy = z.infer<typeof MigrateStrategySchema>;

export const UpdateStrategySchema = z.looseObject({
  Stagger: Duration,
  MaxParallel: OptNumber,
  HealthCheck: OptString,
  MinHealthyTime: Duration,
  HealthyDeadline: Duration,
  ProgressDeadline: Duration,
  Canary: OptNumber,
  AutoRevert: OptBool,
  AutoPromote: OptBool,
});
export type UpdateStrategy = z.infer<typeof UpdateStrategySchema>;

/** SpecType: seen `cron`; Nomad also knows `_internal_test`. */
export const PeriodicConfigSchema = z.looseObject({
  Enabled: OptBool,
  Spec: OptString,
  Specs: StringList,
  SpecType: OptString,
  ProhibitOverlap: OptBool,
  TimeZone: OptString,
});
export type PeriodicConfig = z.infer<typeof PeriodicConfigSchema>;

/** Payload: seen `required`; Nomad also knows `optional` and `forbidden`. */
export const ParameterizedJobConfigSchema = z.looseObject({
  Payload: OptString,
  MetaRequired: StringList,
  MetaOptional: StringList,
});
export type ParameterizedJobConfig = z.infer<typeof ParameterizedJobConfigSchema>;

export const EphemeralDiskSchema = z.looseObject({
  Sticky: OptBool,
  Migrate: OptBool,
  SizeMB: OptNumber,
});
export type EphemeralDisk = z.infer<typeof EphemeralDiskSchema>;

export const LogConfigSchema = z.looseObject({
  Disabled: OptBool,
  Enabled: OptBool,
  MaxFiles: OptNumber,
  MaxFileSizeMB: OptNumber,
});
export type LogConfig = z.infer<typeof LogConfigSchema>;

/** Hook: seen `prestart`; Nomad also knows `poststart` and `poststop`. */
export const LifecycleSchema = z.looseObject({
  Hook: OptString,
  Sidecar: OptBool,
});
export type Lifecycle = z.infer<typeof LifecycleSchema>;

export const DispatchPayloadConfigSchema = z.looseObject({
  File: OptString,
});
export type DispatchPayloadConfig = z.infer<typeof DispatchPayloadConfigSchema>;

/** ChangeMode: seen `signal`; Nomad also knows `restart`, `noop` and `script`. */
export const TemplateSchema = z.looseObject({
  SourcePath: OptString,
  DestPath: OptString,
  EmbeddedTmpl: OptString,
  ChangeMode: OptString,
  ChangeSignal: OptString,
  ChangeScript: FreeMap,
  Splay: Duration,
  Perms: OptString,
  Uid: z.number().nullish(),
  Gid: z.number().nullish(),
  LeftDelim: OptString,
  RightDelim: OptString,
  Envvars: OptBool,
  VaultGrace: Duration,
  Wait: z.looseObject({ Min: Duration, Max: Duration }).nullish(),
  ErrMissingKey: OptBool,
  Once: OptBool,
});
export type Template = z.infer<typeof TemplateSchema>;

export const TaskArtifactSchema = z.looseObject({
  GetterSource: OptString,
  GetterOptions: StringMap,
  GetterHeaders: StringMap,
  GetterMode: OptString,
  GetterInsecure: OptBool,
  RelativeDest: OptString,
  Chown: OptBool,
});
export type TaskArtifact = z.infer<typeof TaskArtifactSchema>;

/** The secrets-integration block of a task (Nomad's `Vault`). */
export const SecretsSchema = z.looseObject({
  Policies: StringList,
  Role: OptString,
  Namespace: OptString,
  Cluster: OptString,
  Env: OptBool,
  DisableFile: OptBool,
  ChangeMode: OptString,
  ChangeSignal: OptString,
  AllowTokenExpiration: OptBool,
});
export type Secrets = z.infer<typeof SecretsSchema>;

/**
 * A task's secret block of Nomad 1.11 (its task `Secrets` list; `SecretBlocks` in the neutral names,
 * since the neutral `Secrets` is the secrets-integration block above).
 */
export const SecretBlockSchema = z.looseObject({
  Name: z.string(),
  Provider: OptString,
  Path: OptString,
  Config: FreeMap,
  Env: StringMap,
});
export type SecretBlock = z.infer<typeof SecretBlockSchema>;

/** The registry-integration block of a group or task (Nomad's `Consul`): which registry cluster and namespace. */
export const RegistryBlockSchema = z.looseObject({
  Namespace: OptString,
  Cluster: OptString,
  Partition: OptString,
});
export type RegistryBlock = z.infer<typeof RegistryBlockSchema>;

export const WorkloadIdentitySchema = z.looseObject({
  Name: OptString,
  Audience: StringList,
  ChangeMode: OptString,
  ChangeSignal: OptString,
  Env: OptBool,
  File: OptBool,
  ServiceName: OptString,
  TTL: z.number().nullish(),
});
export type WorkloadIdentity = z.infer<typeof WorkloadIdentitySchema>;

export const VolumeMountSchema = z.looseObject({
  Volume: OptString,
  Destination: OptString,
  ReadOnly: OptBool,
  PropagationMode: OptString,
  SELinuxLabel: OptString,
});
export type VolumeMount = z.infer<typeof VolumeMountSchema>;

export const VolumeRequestSchema = z.looseObject({
  Name: OptString,
  Type: OptString,
  Source: OptString,
  ReadOnly: OptBool,
  AccessMode: OptString,
  AttachmentMode: OptString,
  PerAlloc: OptBool,
  MountOptions: FreeMap,
  Sticky: OptBool,
});
export type VolumeRequest = z.infer<typeof VolumeRequestSchema>;

/** Type: `horizontal` (task group count) or a vertical policy type; open string. */
export const ScalingPolicySchema = z.looseObject({
  ID: OptString,
  Namespace: OptString,
  Type: OptString,
  Target: StringMap,
  Min: z.number().nullish(),
  Max: z.number().nullish(),
  Policy: FreeMap,
  Enabled: z.boolean().nullish(),
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type ScalingPolicy = z.infer<typeof ScalingPolicySchema>;

export const DisconnectStrategySchema = z.looseObject({
  LostAfter: Duration,
  StopOnClientAfter: z.number().nullish(),
  Replace: z.boolean().nullish(),
  Reconcile: z.string().nullish(),
});
export type DisconnectStrategy = z.infer<typeof DisconnectStrategySchema>;

export const TaskSchema = z.looseObject({
  Name: z.string(),
  Driver: OptString,
  User: OptString,
  Lifecycle: LifecycleSchema.nullish(),
  // Driver specific, so free-form.
  Config: FreeMap,
  Constraints: list(ConstraintSchema),
  Affinities: list(AffinitySchema),
  Env: StringMap,
  Services: list(ServiceSchema),
  Resources: ResourcesSchema.nullish(),
  RestartPolicy: RestartPolicySchema.nullish(),
  Meta: StringMap,
  KillTimeout: Duration,
  KillSignal: OptString,
  LogConfig: LogConfigSchema.nullish(),
  Artifacts: list(TaskArtifactSchema),
  Secrets: SecretsSchema.nullish(),
  SecretBlocks: list(SecretBlockSchema),
  Registry: RegistryBlockSchema.nullish(),
  Templates: list(TemplateSchema),
  DispatchPayload: DispatchPayloadConfigSchema.nullish(),
  VolumeMounts: list(VolumeMountSchema),
  CSIPluginConfig: FreeMap,
  Leader: OptBool,
  ShutdownDelay: Duration,
  Kind: OptString,
  ScalingPolicies: list(ScalingPolicySchema),
  Identity: WorkloadIdentitySchema.nullish(),
  Identities: list(z.looseObject({ Name: OptString, Audience: StringList, Env: OptBool, File: OptBool })),
});
export type Task = z.infer<typeof TaskSchema>;

export const TaskGroupSchema = z.looseObject({
  Name: z.string(),
  Count: z.number().nullish(),
  Constraints: list(ConstraintSchema),
  Affinities: list(AffinitySchema),
  Spreads: list(SpreadSchema),
  Tasks: list(TaskSchema),
  RestartPolicy: RestartPolicySchema.nullish(),
  ReschedulePolicy: ReschedulePolicySchema.nullish(),
  Migrate: MigrateStrategySchema.nullish(),
  Update: UpdateStrategySchema.nullish(),
  EphemeralDisk: EphemeralDiskSchema.nullish(),
  Networks: list(NetworkSchema),
  Services: list(ServiceSchema),
  Volumes: map(VolumeRequestSchema),
  Meta: StringMap,
  Scaling: ScalingPolicySchema.nullish(),
  ShutdownDelay: z.number().nullish(),
  StopAfterClientDisconnect: z.number().nullish(),
  MaxClientDisconnect: z.number().nullish(),
  PreventRescheduleOnLost: OptBool,
  Disconnect: DisconnectStrategySchema.nullish(),
  Registry: RegistryBlockSchema.nullish(),
});
export type TaskGroup = z.infer<typeof TaskGroupSchema>;

export const MultiregionSchema = z.looseObject({
  Strategy: z.looseObject({ MaxParallel: OptNumber, OnFailure: OptString }).nullish(),
  Regions: list(
    z.looseObject({
      Name: OptString,
      Count: z.number().nullish(),
      Datacenters: StringList,
      NodePool: OptString,
      Meta: StringMap,
    }),
  ),
});
export type Multiregion = z.infer<typeof MultiregionSchema>;

/**
 * A job as submitted and as returned. Type: seen `service`, `batch`, `sysbatch` (Nomad also has
 * `system`). Status: seen `pending`, `running` (Nomad also has `dead`). Both open strings.
 * Payload is base64 (Go []byte).
 */
export const JobSchema = z.looseObject({
  Region: OptString,
  Namespace: OptString,
  ID: z.string(),
  ParentID: OptString,
  Name: OptString,
  Type: OptString,
  Priority: OptNumber,
  AllAtOnce: OptBool,
  Datacenters: StringList,
  NodePool: OptString,
  Constraints: list(ConstraintSchema),
  Affinities: list(AffinitySchema),
  Spreads: list(SpreadSchema),
  TaskGroups: list(TaskGroupSchema),
  Update: UpdateStrategySchema.nullish(),
  Multiregion: MultiregionSchema.nullish(),
  Periodic: PeriodicConfigSchema.nullish(),
  ParameterizedJob: ParameterizedJobConfigSchema.nullish(),
  Dispatched: OptBool,
  DispatchIdempotencyToken: OptString,
  Payload: z.string().nullish(),
  Reschedule: ReschedulePolicySchema.nullish(),
  Migrate: MigrateStrategySchema.nullish(),
  Meta: StringMap,
  UI: FreeMap,
  Stop: OptBool,
  Stable: OptBool,
  Status: OptString,
  StatusDescription: OptString,
  Version: OptNumber,
  VersionTag: z.looseObject({ Name: OptString, Description: OptString, TaggedTime: OptNumber }).nullish(),
  SubmitTime: NanoTime,
  SchedTokenID: OptString,
  SecretsNamespace: OptString,
  RegistryNamespace: OptString,
  SecretsToken: OptString,
  RegistryToken: OptString,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
  JobModifyIndex: OptNumber,
});
export type Job = z.infer<typeof JobSchema>;

/**
 * A job read for what a job resource records of it (its computed attributes), at the end of an apply:
 * those fields, checked as JobSchema checks them, and nothing else. Unlike the loose schemas above it
 * drops the rest of the answer, which it then never visits: in a process too short-lived for zod's
 * parsers to warm up, that decodes a job in about a seventh of the time of JobSchema, where a loose
 * pick of the same fields, copying every other key, still took half.
 */
export const JobAttributesSchema = z.object({
  ...JobSchema.pick({
    ID: true,
    Name: true,
    Namespace: true,
    Region: true,
    Type: true,
    Datacenters: true,
    Status: true,
    Version: true,
    JobModifyIndex: true,
    SubmitTime: true,
  }).shape,
  TaskGroups: list(
    z.object({
      ...TaskGroupSchema.pick({ Name: true, Count: true, Meta: true }).shape,
      Tasks: list(z.object(TaskSchema.pick({ Name: true }).shape)),
    }),
  ),
});
export type JobAttributes = z.infer<typeof JobAttributesSchema>;

/** Group name to counts. */
export const TaskGroupSummarySchema = z.looseObject({
  Queued: OptNumber,
  Complete: OptNumber,
  Failed: OptNumber,
  Running: OptNumber,
  Starting: OptNumber,
  Lost: OptNumber,
  Unknown: OptNumber,
});
export type TaskGroupSummary = z.infer<typeof TaskGroupSummarySchema>;

export const JobChildrenSummarySchema = z.looseObject({
  Pending: OptNumber,
  Running: OptNumber,
  Dead: OptNumber,
});
export type JobChildrenSummary = z.infer<typeof JobChildrenSummarySchema>;

export const JobSummarySchema = z.looseObject({
  JobID: z.string(),
  Namespace: OptString,
  Summary: map(TaskGroupSummarySchema),
  Children: JobChildrenSummarySchema.nullish(),
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type JobSummary = z.infer<typeof JobSummarySchema>;

export const JobStubSchema = z.looseObject({
  ID: z.string(),
  ParentID: OptString,
  Name: OptString,
  Namespace: OptString,
  Datacenters: StringList,
  Multiregion: MultiregionSchema.nullish(),
  Type: OptString,
  Priority: OptNumber,
  Periodic: OptBool,
  ParameterizedJob: OptBool,
  Stop: OptBool,
  Status: OptString,
  StatusDescription: OptString,
  JobSummary: JobSummarySchema.nullish(),
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
  JobModifyIndex: OptNumber,
  SubmitTime: NanoTime,
  Meta: StringMap,
});
export type JobStub = z.infer<typeof JobStubSchema>;

/** Format: `hcl2` or `json` (Nomad also records `hcl1`). */
export const JobSubmissionSchema = z.looseObject({
  Source: OptString,
  Format: OptString,
  VariableFlags: StringMap,
  Variables: OptString,
  Namespace: OptString,
  JobID: OptString,
  Version: OptNumber,
  JobIndex: OptNumber,
});
export type JobSubmission = z.infer<typeof JobSubmissionSchema>;
