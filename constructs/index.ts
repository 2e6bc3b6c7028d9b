/**
 * The constructs of cdktf-sched: typed resources validated at synth, plus the generated bindings
 * (`sched`, `reg`) for everything else, data sources included.
 */
export * as sched from './generated/sched';
export * as reg from './generated/reg';
export { SchedProvider, type SchedProviderConfig } from './generated/sched/provider';
export { RegProvider, type RegProviderConfig } from './generated/reg/provider';
export { Job, type FromFileOptions, type JobProps, type JobSource, type JobText } from './job';
export {
  JOB_TYPES,
  JobSpecSchema,
  type JobSpec,
  type JobSpecOutput,
  type TaskGroupSpec,
  type TaskSpec,
} from './job-spec';
export { ValidJobSpecSchema } from './job-rules';
export {
  SchedNamespace,
  RegNamespace,
  type SchedNamespaceConfig,
  type RegNamespaceConfig,
} from './namespace';
export { AuthMethod, type AuthMethodProps, type AuthMethodType } from './auth-method';
export { PeeringToken, type PeeringTokenProps } from './peering-token';
export { Peering, type PeeringProps } from './peering';
