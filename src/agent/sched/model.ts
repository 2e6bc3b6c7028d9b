/**
 * The records the dev agent keeps, shaped exactly as the API returns them. The API schemas in
 * src/api/sched are loose (everything optional, as a client must accept); these are the strict forms
 * the agent itself writes, so every field a client expects is always present.
 */
import type { Job } from '../../api/sched/schemas';

export type { Job };

export interface TaskEventRecord {
  Type: string;
  Time: number;
  DisplayMessage: string;
  Message: string;
  Details: Record<string, string>;
  FailsTask: boolean;
  RestartReason: string;
  SetupError: string;
  DriverError: string;
  DriverMessage: string;
  ExitCode: number;
  Signal: number;
  KillTimeout: number;
  KillError: string;
  KillReason: string;
  StartDelay: number;
  DownloadError: string;
  ValidationError: string;
  DiskLimit: number;
  FailedSibling: string;
  VaultError: string;
  TaskSignalReason: string;
  TaskSignal: string;
  GenericSource: string;
}

export interface TaskStateRecord {
  State: 'pending' | 'running' | 'dead';
  Failed: boolean;
  Restarts: number;
  LastRestart: string;
  StartedAt: string;
  FinishedAt: string;
  Events: TaskEventRecord[];
  TaskHandle: null;
}

export interface ResourcesRecord {
  CPU: number;
  MemoryMB: number;
  DiskMB: number;
  Networks: unknown[];
}

export interface AllocMetricRecord {
  NodesEvaluated: number;
  NodesFiltered: number;
  NodesInPool: number;
  NodesAvailable: Record<string, number>;
  ClassFiltered: Record<string, number> | null;
  ConstraintFiltered: Record<string, number> | null;
  NodesExhausted: number;
  ClassExhausted: Record<string, number> | null;
  DimensionExhausted: Record<string, number> | null;
  QuotaExhausted: string[] | null;
  ResourcesExhausted: Record<string, ResourcesRecord> | null;
  Scores: Record<string, number> | null;
  ScoreMetaData: { NodeID: string; Scores: Record<string, number>; NormScore: number }[] | null;
  AllocationTime: number;
  CoalescedFailures: number;
}

export interface RescheduleEventRecord {
  RescheduleTime: number;
  PrevAllocID: string;
  PrevNodeID: string;
  Delay: number;
}

export interface AllocRecord {
  ID: string;
  Namespace: string;
  EvalID: string;
  Name: string;
  NodeID: string;
  NodeName: string;
  JobID: string;
  Job: Job;
  TaskGroup: string;
  Resources: ResourcesRecord;
  SharedResources: ResourcesRecord;
  TaskResources: Record<string, ResourcesRecord>;
  AllocatedResources: {
    Tasks: Record<string, { Cpu: { CpuShares: number }; Memory: { MemoryMB: number }; Networks: unknown[] }>;
    Shared: { DiskMB: number; Networks: unknown[] };
  };
  Metrics: AllocMetricRecord;
  DesiredStatus: 'run' | 'stop' | 'evict';
  DesiredDescription: string;
  DesiredTransition: { Migrate: boolean | null; Reschedule: boolean | null; ForceReschedule: boolean | null };
  ClientStatus: 'pending' | 'running' | 'complete' | 'failed' | 'lost' | 'unknown';
  ClientDescription: string;
  TaskStates: Record<string, TaskStateRecord>;
  DeploymentID: string;
  DeploymentStatus: {
    Healthy: boolean | null;
    Timestamp: string;
    Canary: boolean;
    ModifyIndex: number;
  } | null;
  RescheduleTracker: { Events: RescheduleEventRecord[] } | null;
  PreviousAllocation: string;
  NextAllocation: string;
  FollowupEvalID: string;
  PreemptedAllocations: string[] | null;
  PreemptedByAllocation: string;
  JobVersion: number;
  CreateIndex: number;
  ModifyIndex: number;
  AllocModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}

export interface EvalRecord {
  ID: string;
  Namespace: string;
  Priority: number;
  Type: string;
  TriggeredBy: string;
  JobID: string;
  JobModifyIndex: number;
  NodeID: string;
  NodeModifyIndex: number;
  DeploymentID: string;
  Status: 'pending' | 'blocked' | 'complete' | 'failed' | 'canceled';
  StatusDescription: string;
  Wait: number;
  WaitUntil: string;
  NextEval: string;
  PreviousEval: string;
  BlockedEval: string;
  RelatedEvals: null;
  FailedTGAllocs: Record<string, AllocMetricRecord> | null;
  ClassEligibility: Record<string, boolean> | null;
  EscapedComputedClass: boolean;
  QuotaLimitReached: string;
  AnnotatePlan: boolean;
  QueuedAllocations: Record<string, number> | null;
  LeaderACL: string;
  SnapshotIndex: number;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}

export interface DeploymentGroupState {
  AutoRevert: boolean;
  AutoPromote: boolean;
  ProgressDeadline: number;
  RequireProgressBy: string | null;
  Promoted: boolean;
  PlacedCanaries: string[] | null;
  DesiredCanaries: number;
  DesiredTotal: number;
  PlacedAllocs: number;
  HealthyAllocs: number;
  UnhealthyAllocs: number;
}

export interface DeploymentRecord {
  ID: string;
  Namespace: string;
  JobID: string;
  JobVersion: number;
  JobModifyIndex: number;
  JobSpecModifyIndex: number;
  JobCreateIndex: number;
  IsMultiregion: boolean;
  TaskGroups: Record<string, DeploymentGroupState>;
  Status: 'running' | 'paused' | 'failed' | 'successful' | 'cancelled' | 'pending' | 'blocked' | 'unblocking';
  StatusDescription: string;
  EvalPriority: number;
  CreateIndex: number;
  ModifyIndex: number;
  /** Agent-side timestamps (ns) for the benchmark of wait reaction. */
  CreateTime: number;
  ModifyTime: number;
}

export interface NodeRecord {
  ID: string;
  SecretID?: string;
  Datacenter: string;
  Name: string;
  HTTPAddr: string;
  TLSEnabled: boolean;
  Attributes: Record<string, string>;
  NodeResources: {
    Cpu: { CpuShares: number; TotalCpuCores: number };
    Memory: { MemoryMB: number };
    Disk: { DiskMB: number };
    Networks: unknown[];
    NodeNetworks: unknown[];
    Devices: unknown[];
    MinDynamicPort: number;
    MaxDynamicPort: number;
  };
  ReservedResources: { Cpu: { CpuShares: number }; Memory: { MemoryMB: number }; Disk: { DiskMB: number } };
  Resources: ResourcesRecord;
  Reserved: ResourcesRecord;
  Links: Record<string, string>;
  Meta: Record<string, string>;
  NodeClass: string;
  NodePool: string;
  ComputedClass: string;
  Drain: boolean;
  DrainStrategy: null;
  SchedulingEligibility: 'eligible' | 'ineligible';
  Status: 'initializing' | 'ready' | 'down' | 'disconnected';
  StatusDescription: string;
  StatusUpdatedAt: number;
  Events: {
    Message: string;
    Subsystem: string;
    Details: Record<string, string> | null;
    Timestamp: string;
    CreateIndex: number;
  }[];
  Drivers: Record<
    string,
    {
      Attributes: Record<string, string>;
      Detected: boolean;
      Healthy: boolean;
      HealthDescription: string;
      UpdateTime: string;
    }
  >;
  CSIControllerPlugins: null;
  CSINodePlugins: null;
  HostVolumes: null;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface SummaryCounts {
  Queued: number;
  Complete: number;
  Failed: number;
  Running: number;
  Starting: number;
  Lost: number;
  Unknown: number;
}

export interface JobSummaryRecord {
  JobID: string;
  Namespace: string;
  Summary: Record<string, SummaryCounts>;
  Children: { Pending: number; Running: number; Dead: number };
  CreateIndex: number;
  ModifyIndex: number;
}

export interface SubmissionRecord {
  Source: string;
  Format: string;
  VariableFlags: Record<string, string> | null;
  Variables: string;
  Namespace: string;
  JobID: string;
  Version: number;
  JobModifyIndex: number;
}

export interface NamespaceRecord {
  Name: string;
  Description: string;
  Quota: string;
  Capabilities: unknown;
  NodePoolConfiguration: unknown;
  Meta: Record<string, string> | null;
  CreateIndex: number;
  ModifyIndex: number;
}
