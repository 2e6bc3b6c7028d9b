/**
 * The plan as the renderers see it: one entry per resource instance (what changes, why, which
 * values are sensitive or not known yet, what the scheduler expects to do), the output changes and
 * plan-level diagnostics. Plan code builds it (usually with `resourceChangeFromPlanned`); the text,
 * JSON and Markdown renderers only read it.
 *
 * Values are JSON. Unknown values may appear as the provider's UNKNOWN marker or be listed in
 * `afterUnknown` (or both). Sensitive values are present in `before`/`after` (the renderers mask
 * them); `beforeSensitive`/`afterSensitive` list the paths to mask, a path covering everything
 * beneath it.
 */
import type { PlannedChange, SchedulerAnnotations } from '../../provider/resource';
import { type AttrPath, type Diagnostic, UNKNOWN_MARK, isUnknown } from '../../provider/values';
import { compareAddresses, parseAddress } from '../state/address';

/** `forget`: a removed block with destroy = false drops it from the state and leaves it on the cluster. */
export type ChangeAction = 'create' | 'update' | 'replace' | 'delete' | 'noop' | 'read' | 'forget';

/** Terraform's action_reason values (internal/command/jsonplan). */
export type ActionReason =
  | 'replace_because_cannot_update'
  | 'replace_because_tainted'
  | 'replace_by_request'
  | 'replace_by_triggers'
  | 'delete_because_no_resource_config'
  | 'delete_because_wrong_repetition'
  | 'delete_because_count_index'
  | 'delete_because_each_key'
  | 'delete_because_no_module'
  | 'delete_because_no_move_target'
  | 'read_because_config_unknown'
  | 'read_because_dependency_pending';

export interface ResourceChange {
  /** `sched_job.web`, `sched_job.web[0]`, `sched_job.web["k"]`, `data.sched_job.x`. */
  address: string;
  mode: 'managed' | 'data';
  type: string;
  name: string;
  /** count index or for_each key; absent without count/for_each. */
  index?: number | string;
  /** Provider source, e.g. `registry.terraform.io/cdktf-sched/sched`. */
  providerName: string;
  /** The construct that declared the resource (cdktf's `//` metadata path), e.g. `app/web`. */
  constructPath?: string;
  action: ChangeAction;
  actionReason?: ActionReason;
  /** For replace: the new object is created before the old one is destroyed. */
  createBeforeDestroy?: boolean;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  afterUnknown: AttrPath[];
  beforeSensitive: AttrPath[];
  afterSensitive: AttrPath[];
  /** Paths whose change forces the replacement. */
  replacePaths: AttrPath[];
  /** The scheduler's view of a job change (from the job plan endpoint). */
  scheduler?: SchedulerAnnotations;
  diagnostics: Diagnostic[];
  schemaVersion?: number;
  /** Where the state had it before a moved block (Terraform's previous_address). */
  previousAddress?: string;
  /** Adopted by an import block: the ID (Terraform's change.importing). */
  importing?: { id: string };
}

export interface OutputChange {
  name: string;
  action: 'create' | 'update' | 'delete' | 'noop';
  before: unknown;
  after: unknown;
  afterUnknown: boolean;
  sensitive: boolean;
}

/** Terraform's checkable objects: what the plan knows of a condition's outcome. */
export type CheckStatus = 'pass' | 'fail' | 'unknown' | 'error';

/** One instance of a checkable object (a variable has one; a resource one per count/for_each instance). */
export interface CheckInstance {
  /** `var.region`, `sched_job.web[0]`. */
  address: string;
  /** count index or for_each key. */
  key?: number | string;
  status: CheckStatus;
  /** Error messages of the conditions that failed (sensitive ones already withheld). */
  problems: string[];
}

/** One checkable object (a variable with validation rules, a resource with conditions) and its outcome. */
export interface CheckResult {
  kind: 'var' | 'resource' | 'output_value' | 'check';
  /** `var.region`, `sched_job.web`, `output.url`. */
  address: string;
  name: string;
  /** Resources only. */
  mode?: 'managed' | 'data';
  type?: string;
  status: CheckStatus;
  instances: CheckInstance[];
}

/** An attribute of a resource that a planned change reads: terraform's `relevant_attributes`. */
export interface RelevantAttribute {
  resource: string;
  attribute: (string | number)[];
}

/** Where a planned resource or data instance sits: its addresses, its provider and its construct. */
export interface PlanModel {
  /** Written as terraform_version in the JSON plan. */
  terraformVersion?: string;
  /** `destroy` plans say so in their headline. */
  mode?: 'normal' | 'destroy' | 'refresh-only';
  resourceChanges: ResourceChange[];
  outputChanges: OutputChange[];
  /** Diagnostics not tied to one resource. */
  diagnostics: Diagnostic[];
  /** Planning failed part way; what is listed is incomplete. */
  errored?: boolean;
  /** Texts of the stack's secrets (sensitive variables), scrubbed from any rendering as a second net. */
  secrets?: string[];
  /** RFC 3339; omitted from renderings when absent (keeps golden files stable). */
  timestamp?: string;
  /** Instances changed or deleted outside the configuration, as changes from the state to the cluster. */
  drift?: ResourceChange[];
  relevantAttributes?: RelevantAttribute[];
  checks?: CheckResult[];
  /** Input variables as the plan used them, and which of them are sensitive. */
  variables?: { values: Record<string, unknown>; sensitive: string[] };
}

export interface PlanSummary {
  /** Adopted by import blocks (Terraform counts them apart from the actions). */
  import: number;
  add: number;
  change: number;
  destroy: number;
  read: number;
  noop: number;
  forget: number;
}

/** Counts as Terraform does: a replace is one add and one destroy; reads and no-ops are not changes. */
export function summarize(plan: PlanModel): PlanSummary {
  const s: PlanSummary = { import: 0, add: 0, change: 0, destroy: 0, read: 0, noop: 0, forget: 0 };
  for (const rc of plan.resourceChanges) {
    if (rc.importing) s.import++;
    if (rc.action === 'create') s.add++;
    else if (rc.action === 'update') s.change++;
    else if (rc.action === 'delete') s.destroy++;
    else if (rc.action === 'replace') {
      s.add++;
      s.destroy++;
    } else if (rc.action === 'read') s.read++;
    else if (rc.action === 'forget') s.forget++;
    else s.noop++;
  }
  return s;
}

/** Worth showing in a plan: a change, or a no-op that moves or imports (as Terraform lists them). */
export function isShown(rc: ResourceChange): boolean {
  return rc.action !== 'noop' || rc.previousAddress !== undefined || rc.importing !== undefined;
}

export function hasChanges(plan: PlanModel): boolean {
  return plan.resourceChanges.some(isShown) || plan.outputChanges.some((o) => o.action !== 'noop');
}

/** "1 to add, 2 to change, 0 to destroy" (no trailing period), led by "1 to import, " when importing. */
export function summaryCounts(s: PlanSummary): string {
  const imports = s.import > 0 ? `${s.import} to import, ` : '';
  return `${imports}${s.add} to add, ${s.change} to change, ${s.destroy} to destroy`;
}

/** Changes in Terraform's order (by address); addresses that do not parse go last, in their order. */
export function sortedChanges(changes: ResourceChange[]): ResourceChange[] {
  const parsed = changes.map((rc, i) => {
    try {
      return { rc, i, addr: parseAddress(rc.address) };
    } catch {
      return { rc, i, addr: undefined };
    }
  });
  parsed.sort((a, b) => {
    if (a.addr && b.addr) return compareAddresses(a.addr, b.addr) || a.i - b.i;
    if (a.addr || b.addr) return a.addr ? -1 : 1;
    return a.i - b.i;
  });
  return parsed.map((p) => p.rc);
}

/** Splits an address into mode/type/name/index (root-module addresses only, as cdktf writes them). */
export function splitAddress(
  address: string,
): Pick<ResourceChange, 'mode' | 'type' | 'name'> & { index?: number | string } {
  const m =
    /^(data\.)?([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+|"(?:[^"\\]|\\.)*")\])?$/.exec(
      address,
    );
  if (!m) throw new Error(`cannot split resource address ${JSON.stringify(address)}`);
  const out: Pick<ResourceChange, 'mode' | 'type' | 'name'> & { index?: number | string } = {
    mode: m[1] ? 'data' : 'managed',
    type: m[2]!,
    name: m[3]!,
  };
  if (m[4] !== undefined) out.index = m[4].startsWith('"') ? (JSON.parse(m[4]) as string) : Number(m[4]);
  return out;
}

/** Paths of UNKNOWN markers inside a value. */
export function unknownPaths(value: unknown, path: AttrPath = []): AttrPath[] {
  if (isUnknown(value)) return [[...path]];
  const out: AttrPath[] = [];
  if (typeof value === 'object' && value !== null) collectUnknownPaths(value, [...path], out);
  return out;
}

/**
 * One walk that copies a path only where a marker is found: every planned value goes through here.
 * Each child is judged here, before any call (a call per value was most of the walk, in code still
 * cold): only objects and arrays are gone into, markers spotted by their mark.
 */
function collectUnknownPaths(value: object, path: AttrPath, out: AttrPath[]): void {
  const list = Array.isArray(value) ? (value as unknown[]) : undefined;
  const keys = list ? undefined : Object.keys(value);
  const n = list ? list.length : keys!.length;
  for (let i = 0; i < n; i++) {
    const key = list ? i : keys![i]!;
    const child = list ? list[i] : (value as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    path.push(key);
    if ((child as Record<string, unknown>)[UNKNOWN_MARK] === true) out.push(path.slice());
    else collectUnknownPaths(child, path, out);
    path.pop();
  }
}

export interface FromPlannedInput {
  address: string;
  planned: PlannedChange;
  /** Provider source; default derived from the type prefix (`registry.terraform.io/cdktf-sched/<prefix>`). */
  providerName?: string;
  constructPath?: string;
  /** Sensitive attribute names of the resource type (`sensitiveAttributes(shape)`). */
  sensitive?: string[];
  /** Sensitive paths recorded in the prior state (sensitive_attributes). */
  priorSensitive?: AttrPath[];
  /** Sensitive paths of the planned value (marks carried from the configuration). */
  plannedSensitive?: AttrPath[];
  actionReason?: ActionReason;
  createBeforeDestroy?: boolean;
  schemaVersion?: number;
}

/** Builds a ResourceChange from a handler's PlannedChange. */
export function resourceChangeFromPlanned(input: FromPlannedInput): ResourceChange {
  const { planned } = input;
  const parts = splitAddress(input.address);
  const sensitive = (input.sensitive ?? []).map((n): AttrPath => [n]);
  const afterUnknown = planned.planned ? unknownPaths(planned.planned) : [];
  const rc: ResourceChange = {
    address: input.address,
    ...parts,
    providerName: input.providerName ?? `registry.terraform.io/cdktf-sched/${parts.type.split('_')[0]}`,
    action: planned.action,
    before: planned.prior,
    after: planned.action === 'delete' ? null : planned.planned,
    afterUnknown: planned.action === 'delete' ? [] : afterUnknown,
    beforeSensitive: [...sensitive, ...(input.priorSensitive ?? [])],
    afterSensitive: [...sensitive, ...(input.plannedSensitive ?? [])],
    replacePaths: planned.replacePaths ?? [],
    diagnostics: planned.diagnostics,
  };
  if (input.constructPath) rc.constructPath = input.constructPath;
  if (input.actionReason) rc.actionReason = input.actionReason;
  else if (planned.action === 'replace' && (planned.replacePaths?.length ?? 0) > 0) {
    rc.actionReason = 'replace_because_cannot_update';
  }
  if (input.createBeforeDestroy) rc.createBeforeDestroy = true;
  if (input.schemaVersion !== undefined) rc.schemaVersion = input.schemaVersion;
  if (planned.annotations?.scheduler) rc.scheduler = planned.annotations.scheduler;
  return rc;
}
