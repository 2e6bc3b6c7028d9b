export * from './client';
export * from './schemas';
export * from './validate';
export type * from './options';
export type {
  JobListOptions,
  JobVersionsOptions,
  JobAllOptions,
  RegisterOptions,
  DispatchInput,
  DispatchOptions,
  DispatchPayloadOptions,
  RevertInput,
  EvaluateOptions,
  PlanOptions,
  DeregisterOptions,
} from './jobs';
export { JobsApi } from './jobs';
export {
  AllocationsApi,
  type AllocationListOptions,
  type AllocStopOptions,
  type SignalInput,
  type RestartInput,
} from './allocations';
export { DeploymentsApi, type PromoteInput, type DeploymentWatchOptions } from './deployments';
export { EvaluationsApi, type EvaluationListOptions } from './evaluations';
export { NodesApi, type NodeListOptions } from './nodes';
export { NamespacesApi } from './namespaces';
export { EventsApi, type EventStreamOptions, type ReconnectOptions } from './events';
export type { ExecOptions, ExecSession, ExecResult } from './exec';
export { AclApi, type TokenInput } from './acl';
