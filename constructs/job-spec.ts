/**
 * The typed job spec of `new Job(stack, id, { spec })`: the API's Job shape (spec section 2, from
 * src/api/sched/schemas) with the fields a user submits, stricter where the scheduler has rules, and
 * friendlier for durations ("30s" as well as nanoseconds). `z.input` is what the user writes,
 * `z.output` is the API job that goes into the `jobspec` attribute.
 *
 * Objects are strict: an unknown field is a typo the scheduler would silently ignore, so it fails at
 * synth (and, for TypeScript users, at compile time).
 */
import { z } from 'zod';
import {
  AffinitySchema,
  CheckRestartSchema,
  CheckSchema,
  ConstraintSchema,
  DisconnectStrategySchema,
  DispatchPayloadConfigSchema,
  DNSConfigSchema,
  EphemeralDiskSchema,
  JobSchema,
  LifecycleSchema,
  LogConfigSchema,
  MigrateStrategySchema,
  MultiregionSchema,
  NetworkSchema,
  ParameterizedJobConfigSchema,
  PeriodicConfigSchema,
  PortSchema,
  RequestedDeviceSchema,
  ReschedulePolicySchema,
  ResourcesSchema,
  RestartPolicySchema,
  ScalingPolicySchema,
  SecretsSchema,
  ServiceSchema,
  SpreadSchema,
  SpreadTargetSchema,
  TaskArtifactSchema,
  TaskGroupSchema,
  TaskSchema,
  SecretBlockSchema,
  RegistryBlockSchema,
  TemplateSchema,
  UpdateStrategySchema,
  VolumeMountSchema,
  VolumeRequestSchema,
} from '../src/api/sched/schemas';
import { duration, int, isToken, nonEmpty, oneOf, opt } from './spec-rules';

const list = <T extends z.ZodType>(item: T) => z.array(item).nullish();
const map = <T extends z.ZodType>(item: T) => z.record(z.string(), item).nullish();
const d = opt(duration);
const count = opt(int({ min: 0 }));

export const JOB_TYPES = ['service', 'batch', 'system', 'sysbatch'] as const;

export const ConstraintSpecSchema = ConstraintSchema.strict();
export const AffinitySpecSchema = AffinitySchema.extend({
  Weight: opt(int({ min: -100, max: 100 })),
}).strict();
export const SpreadSpecSchema = SpreadSchema.extend({
  Weight: opt(int({ min: 0, max: 100 })),
  SpreadTarget: list(SpreadTargetSchema.extend({ Percent: opt(int({ min: 0, max: 100 })) }).strict()),
}).strict();

const PortSpec = PortSchema.extend({
  Value: opt(int({ min: 0, max: 65535 })),
  To: opt(int({ min: -1, max: 65535 })),
}).strict();
export const NetworkSpecSchema = NetworkSchema.extend({
  MBits: opt(int({ min: 0 })),
  DNS: opt(DNSConfigSchema.strict()),
  ReservedPorts: list(PortSpec),
  DynamicPorts: list(PortSpec),
}).strict();

export const ResourcesSpecSchema = ResourcesSchema.extend({
  CPU: opt(int({ min: 1 })),
  Cores: opt(int({ min: 0 })),
  MemoryMB: opt(int({ min: 10 })),
  MemoryMaxMB: opt(int({ min: 0 })),
  DiskMB: opt(int({ min: 0 })),
  IOPS: opt(int({ min: 0 })),
  Networks: list(NetworkSpecSchema),
  Devices: list(
    RequestedDeviceSchema.extend({
      Count: opt(int({ min: 0 })),
      Constraints: list(ConstraintSpecSchema),
      Affinities: list(AffinitySpecSchema),
    }).strict(),
  ),
}).strict();

export const RestartPolicySpecSchema = RestartPolicySchema.extend({
  Attempts: count,
  Interval: d,
  Delay: d,
  Mode: opt(oneOf(['delay', 'fail'])),
}).strict();

export const ReschedulePolicySpecSchema = ReschedulePolicySchema.extend({
  Attempts: count,
  Interval: d,
  Delay: d,
  DelayFunction: opt(oneOf(['constant', 'exponential', 'fibonacci'])),
  MaxDelay: d,
}).strict();

export const MigrateStrategySpecSchema = MigrateStrategySchema.extend({
  MaxParallel: count,
  HealthCheck: opt(oneOf(['checks', 'task_states'])),
  MinHealthyTime: d,
  HealthyDeadline: d,
}).strict();

export const UpdateStrategySpecSchema = UpdateStrategySchema.extend({
  Stagger: d,
  MaxParallel: count,
  HealthCheck: opt(oneOf(['checks', 'task_states', 'manual'])),
  MinHealthyTime: d,
  HealthyDeadline: d,
  ProgressDeadline: d,
  Canary: count,
}).strict();

export const CheckSpecSchema = CheckSchema.extend({
  Interval: d,
  Timeout: d,
  CheckRestart: opt(CheckRestartSchema.extend({ Limit: count, Grace: d }).strict()),
  SuccessBeforePassing: count,
  FailuresBeforeCritical: count,
  FailuresBeforeWarning: count,
}).strict();

export const ServiceSpecSchema = ServiceSchema.extend({ Checks: list(CheckSpecSchema) }).strict();

export const TemplateSpecSchema = TemplateSchema.extend({
  ChangeMode: opt(oneOf(['noop', 'restart', 'signal', 'script'])),
  Splay: d,
  VaultGrace: d,
  Wait: opt(z.object({ Min: d, Max: d }).strict()),
}).strict();

const ScalingSpec = ScalingPolicySchema.omit({ ID: true, CreateIndex: true, ModifyIndex: true })
  .extend({ Min: opt(int({ min: 0 })), Max: opt(int({ min: 0 })) })
  .strict();

export const TaskSpecSchema = TaskSchema.extend({
  Name: nonEmpty,
  Driver: nonEmpty,
  Lifecycle: opt(
    LifecycleSchema.extend({ Hook: opt(oneOf(['prestart', 'poststart', 'poststop'])) }).strict(),
  ),
  Constraints: list(ConstraintSpecSchema),
  Affinities: list(AffinitySpecSchema),
  Services: list(ServiceSpecSchema),
  Resources: opt(ResourcesSpecSchema),
  RestartPolicy: opt(RestartPolicySpecSchema),
  KillTimeout: d,
  LogConfig: opt(
    LogConfigSchema.extend({ MaxFiles: opt(int({ min: 1 })), MaxFileSizeMB: opt(int({ min: 1 })) }).strict(),
  ),
  Artifacts: list(TaskArtifactSchema.strict()),
  Secrets: opt(SecretsSchema.strict()),
  SecretBlocks: list(SecretBlockSchema.strict()),
  Registry: opt(RegistryBlockSchema.strict()),
  Templates: list(TemplateSpecSchema),
  DispatchPayload: opt(DispatchPayloadConfigSchema.strict()),
  VolumeMounts: list(VolumeMountSchema.strict()),
  ShutdownDelay: d,
  ScalingPolicies: list(ScalingSpec),
  Identities: list(
    z
      .object({
        Name: z.string().nullish(),
        Audience: z.array(z.string()).nullish(),
        Env: z.boolean().nullish(),
        File: z.boolean().nullish(),
      })
      .strict(),
  ),
}).strict();

export const TaskGroupSpecSchema = TaskGroupSchema.extend({
  Name: nonEmpty,
  Count: count,
  Constraints: list(ConstraintSpecSchema),
  Affinities: list(AffinitySpecSchema),
  Spreads: list(SpreadSpecSchema),
  Tasks: z.array(TaskSpecSchema).min(1),
  RestartPolicy: opt(RestartPolicySpecSchema),
  ReschedulePolicy: opt(ReschedulePolicySpecSchema),
  Migrate: opt(MigrateStrategySpecSchema),
  Update: opt(UpdateStrategySpecSchema),
  EphemeralDisk: opt(EphemeralDiskSchema.extend({ SizeMB: opt(int({ min: 0 })) }).strict()),
  Networks: list(NetworkSpecSchema),
  Services: list(ServiceSpecSchema),
  Volumes: map(VolumeRequestSchema.strict()),
  Scaling: opt(ScalingSpec),
  ShutdownDelay: d,
  StopAfterClientDisconnect: d,
  MaxClientDisconnect: d,
  Disconnect: opt(DisconnectStrategySchema.extend({ LostAfter: d, StopOnClientAfter: d }).strict()),
  Registry: opt(RegistryBlockSchema.strict()),
}).strict();

/**
 * Same rules as the scheduler's: no whitespace or NUL, at most 128 characters. Checked here so the
 * mistake surfaces at synth with the construct's path rather than at deploy.
 */
const jobId = z
  .string()
  .refine(
    (s) => isToken(s) || (s.length >= 1 && s.length <= 128 && !/\s/.test(s) && !s.includes('\0')),
    'must be 1-128 characters without whitespace or NUL',
  );

export const JobSpecSchema = JobSchema.omit({
  // Set by the scheduler, never submitted.
  ParentID: true,
  Dispatched: true,
  DispatchIdempotencyToken: true,
  Payload: true,
  Stable: true,
  Status: true,
  StatusDescription: true,
  Version: true,
  VersionTag: true,
  SubmitTime: true,
  SchedTokenID: true,
  CreateIndex: true,
  ModifyIndex: true,
  JobModifyIndex: true,
  // Secrets do not belong in a jobspec string that ends up in plans and state.
  SecretsToken: true,
  RegistryToken: true,
})
  .extend({
    ID: jobId,
    Type: opt(oneOf(JOB_TYPES)),
    Priority: opt(int({ min: 1, max: 100 })),
    Constraints: list(ConstraintSpecSchema),
    Affinities: list(AffinitySpecSchema),
    Spreads: list(SpreadSpecSchema),
    TaskGroups: z.array(TaskGroupSpecSchema).min(1),
    Update: opt(UpdateStrategySpecSchema),
    Multiregion: opt(MultiregionSchema.strict()),
    Periodic: opt(PeriodicConfigSchema.extend({ SpecType: opt(oneOf(['cron'])) }).strict()),
    ParameterizedJob: opt(
      ParameterizedJobConfigSchema.extend({
        Payload: opt(oneOf(['optional', 'required', 'forbidden'])),
      }).strict(),
    ),
    Reschedule: opt(ReschedulePolicySpecSchema),
    Migrate: opt(MigrateStrategySpecSchema),
  })
  .strict();

/** What a user writes: the API job, durations as "30s" or nanoseconds. */
export type JobSpec = z.input<typeof JobSpecSchema>;
export type TaskGroupSpec = z.input<typeof TaskGroupSpecSchema>;
export type TaskSpec = z.input<typeof TaskSpecSchema>;
/** The API job after validation: durations in nanoseconds. */
export type JobSpecOutput = z.output<typeof JobSpecSchema>;
