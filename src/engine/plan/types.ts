/** What a plan holds: per resource instance, the handler's planned change and what the engine needs to apply it. */
import type { PlannedChange, State } from '../../provider/resource';
import type { ConfigDiagnostic } from '../config';
import type { InstanceKey } from '../config/address';
import type { ActionReason, CheckResult, OutputChange, RelevantAttribute } from '../render/model';

export type { CheckInstance, CheckResult, CheckStatus, RelevantAttribute } from '../render/model';
import type { InstanceMarks } from './sensitivity';
import type { AttrPath } from '../../provider/values';

/**
 * An instance whose object on the cluster differs from what the state recorded (changed outside the
 * configuration, or deleted outside it): terraform's `resource_drift`.
 */
export interface DriftedInstance {
  address: string;
  type: string;
  name: string;
  key?: InstanceKey;
  /** Provider name: `sched`. */
  providerName: string;
  action: 'update' | 'delete';
  /** As the state had it. */
  before: State;
  /** As the refresh found it; null when it is gone. */
  after: State | null;
  /** Where sensitive values sit (the state's marks and the schema's sensitive attributes). */
  sensitive: AttrPath[];
}

export interface PlannedInstanceAddress {
  /** `sched_job.web`, `sched_job.web[0]`, `sched_job.web["k"]`. */
  address: string;
  /** The block's address (graph node id), without the instance key. */
  resourceAddress: string;
  type: string;
  name: string;
  key?: InstanceKey;
  /** Provider configuration address: `sched` or `sched.west`. */
  provider: string;
  /** Provider name: `sched`. */
  providerName: string;
  constructPath?: string;
}

export interface InstancePlan extends PlannedInstanceAddress {
  mode: 'managed';
  change: PlannedChange;
  actionReason?: ActionReason;
  /** Resource addresses this instance depends on (recorded in state as `dependencies`). */
  dependencies: string[];
  createBeforeDestroy: boolean;
  /** Not in the configuration any more (or wrong key): deleted. */
  orphan: boolean;
  sensitive: string[];
  schemaVersion: number;
  /**
   * Nothing to change on the cluster, but the state must catch up with what the refresh found:
   * `record` an object an interrupted create left behind (its prior), or `forget` one that is gone.
   */
  stateOnly?: 'record' | 'forget';
  /**
   * Its configuration was fully known at plan time, so the plan stands at apply (the change's planned
   * state still has UNKNOWN computed attributes). Absent in plans saved before this was recorded: those
   * are planned again at apply, as before.
   */
  configKnown?: boolean;
  /** The address the state had it under before a moved block (Terraform's previous_address). */
  previousAddress?: string;
  /** Adopted by an import block in this plan: the ID it is imported by. */
  importing?: { id: string };
  /** A removed block with lifecycle.destroy = false: dropped from the state, left on the cluster. */
  forget?: boolean;
  /** Where its sensitive values sit, beyond the schema's sensitive attributes. */
  marks?: InstanceMarks;
  /**
   * The planned state in the form terraform records it (arguments as configured, unset ones null):
   * what the apply records, with the computed attributes the handler returns. Absent in older plans.
   */
  recordAs?: State;
}

/** A moved block that applies to the state: the apply renames `from` to `to` before anything else. */
export interface PlannedMove {
  from: string;
  to: string;
}

export interface DataPlan extends PlannedInstanceAddress {
  /** Read at plan time; undefined when the read waits for apply (its configuration has unknown values). */
  value?: Record<string, unknown>;
  deferred: boolean;
  /** Deferred although its arguments are known, because something it depends on changes. */
  deferredBecause?: 'dependency';
  sensitive: string[];
  /** Resource and data addresses it depends on (references and depends_on). */
  dependencies?: string[];
}

export interface PlannedOutput {
  name: string;
  /** Value after apply as far as known (UNKNOWN inside where not). */
  value: unknown;
  sensitive: boolean;
}

export interface StackPlan {
  stack: string;
  mode: 'normal' | 'destroy' | 'refresh-only';
  /** The state this plan was made against: a saved plan only applies to exactly this state. */
  stateLineage: string;
  stateSerial: number;
  /** sha256 of the stack's cdk.tf.json. */
  configHash: string;
  instances: InstancePlan[];
  data: DataPlan[];
  outputs: PlannedOutput[];
  outputChanges: OutputChange[];
  /** Resolved input variables (applied again with a saved plan). */
  variables: Record<string, unknown>;
  /** The names of the sensitive ones: the plan JSON's `variables` leaves their values out. */
  sensitiveVariables?: string[];
  /** Moved blocks that apply to the state, in order (absent in plans saved before moves were planned). */
  moves?: PlannedMove[];
  /** Texts of the sensitive variables' values, which any output scrubs (a saved plan may hold secrets). */
  sensitiveTexts?: string[];
  /** Targeted addresses, when the plan was limited. */
  targets?: string[];
  diagnostics: ConfigDiagnostic[];
  /** Instances the refresh found changed or deleted outside the configuration. */
  drift?: DriftedInstance[];
  /** Outcomes of the checkable objects (variable validation rules); absent when nothing is checkable. */
  checks?: CheckResult[];
  /** Resource attributes the planned changes read (transitively), for policy tools. */
  relevantAttributes?: RelevantAttribute[];
  /** The configuration in terraform's plan JSON form (secrets left out), kept so a saved plan shows it. */
  configuration?: unknown;
  /** Planning failed: the plan must not be applied. */
  errored: boolean;
  createdAt: string;
}

export function hasResourceChanges(plan: StackPlan): boolean {
  return plan.instances.some((i) => i.change.action !== 'noop');
}

/** The state needs writing even though nothing changes on the cluster. */
export function hasStateOnlyChanges(plan: StackPlan): boolean {
  return plan.instances.some((i) => i.stateOnly !== undefined) || (plan.moves?.length ?? 0) > 0;
}
