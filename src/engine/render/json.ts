/**
 * The machine-readable plan: Terraform's JSON plan representation (format_version 1.2, as
 * `terraform show -json <plan>` prints it) so policy tools and CI scripts written for Terraform
 * read it unchanged, plus our scheduler annotations under the extension key `cdktf_sched`.
 *
 * Difference from Terraform, on purpose: Terraform leaves sensitive values in the JSON and only
 * marks them (before_sensitive/after_sensitive). We never emit secrets: every value at a sensitive
 * path is replaced by null (the *_sensitive trees still say which), sensitive outputs have a null
 * value, and any secret that shows up elsewhere (a jobspec, a job diff, a message) is replaced by
 * the text "(sensitive value)".
 *
 * Extension (`cdktf_sched`):
 *   {
 *     "format_version": "1.0",
 *     "resource_annotations": {
 *       "<address>": {
 *         "construct_path": "app/web",
 *         "scheduler": {
 *           "summary": "Place 3, Destructive update 2 (canary 1), Stop 1",
 *           "desired_tg_updates": { "<group>": { "Place": 3, ... } },   // Nomad's DesiredTGUpdates
 *           "failed_tg_allocs": { "<group>": { AllocMetric } } | null,   // Nomad's FailedTGAllocs
 *           "placement_failures": ["Task group web: 2 not placed: ..."],
 *           "job_diff": { Nomad JobDiff } | null,
 *           "job_modify_index": 10,
 *           "next_periodic_launch"?: "...", "warnings"?: "..."
 *         },
 *         "diagnostics": [{ "severity", "summary", "detail"?, "path"? }]
 *       }
 *     },
 *     "diagnostics": [ plan-level diagnostics ]
 *   }
 */
import type { AttrPath, Diagnostic } from '../../provider/values';
import { containsUnknown, isUnknown } from '../../provider/values';
import { DEFAULT_TERRAFORM_VERSION, providerSource, sortKeysDeep } from '../state/format';
import type { StateFile } from '../state/state-file';
import { type OutputChange, type PlanModel, type ResourceChange, hasChanges, sortedChanges } from './model';
import { placementFailures, schedulerSummary } from './scheduler';
import { Redactor, covered, exactly, maskSensitive, secretsAt } from './sensitive';
import { checksJson } from './json/checks';
import { variablesJson } from './json/variables';
import type { Json } from './json/types';

export const PLAN_FORMAT_VERSION = '1.2';
export const STATE_JSON_FORMAT_VERSION = '1.0';
export const EXTENSION_KEY = 'cdktf_sched';

export interface JsonOptions {
  /** The state the plan was made against, rendered as prior_state (values masked). */
  priorState?: StateFile;
  /** terraform's configuration representation (plan/configuration), secrets left out; absent in old saved plans. */
  configuration?: unknown;
  /** The stack the plan is for, named in the extension (`cdktf_sched.stack`): several stacks print one document each. */
  stack?: string;
  /** Pretty-print with this indent; default compact, like Terraform. */
  indent?: number;
}

function actions(rc: Pick<ResourceChange, 'action' | 'createBeforeDestroy'>): string[] {
  switch (rc.action) {
    case 'noop':
      return ['no-op'];
    case 'replace':
      return rc.createBeforeDestroy ? ['create', 'delete'] : ['delete', 'create'];
    default:
      return [rc.action];
  }
}

/** Terraform's value-shaped marker trees: `true` at marked leaves, false leaves left out of objects. */
function markTree(
  value: unknown,
  marked: (path: AttrPath, v: unknown) => boolean,
  path: AttrPath = [],
): Json {
  if (marked(path, value)) return true;
  if (Array.isArray(value)) return value.map((v, i) => markTree(v, marked, [...path, i]));
  if (value && typeof value === 'object' && !isUnknown(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) {
      const t = markTree(v, marked, [...path, k]);
      if (t !== false) out[k] = t;
    }
    return out;
  }
  return false;
}

function sensitiveTree(value: unknown, paths: AttrPath[]): Json {
  return sortKeysDeep(markTree(value, (p) => covered(paths, p))) as Json;
}

/** Values with sensitive paths nulled and keys sorted (cty writes object keys in order). */
function masked(value: unknown, paths: AttrPath[]): Json {
  return sortKeysDeep(maskSensitive(value, paths)) as Json;
}

/**
 * after_unknown: also marks unknown attributes the after value does not carry at all. A wholly known
 * value is `{}`, as terraform writes it (its tree of known maps and lists only for partly unknown ones).
 */
function unknownTree(after: Record<string, unknown> | null, paths: AttrPath[]): Json {
  if (after === null || (paths.length === 0 && !containsUnknown(after))) return {};
  const withKeys: Record<string, unknown> = { ...after };
  for (const p of paths) if (p.length === 1 && !(String(p[0]) in withKeys)) withKeys[String(p[0])] = null;
  return sortKeysDeep(markTree(withKeys, (p, v) => isUnknown(v) || exactly(paths, p))) as Json;
}

/** Terraform omits unknown values from `after` (object keys dropped, list elements null). */
function omitUnknowns(value: unknown, paths: AttrPath[], path: AttrPath = []): unknown {
  if (isUnknown(value) || exactly(paths, path)) return undefined;
  if (Array.isArray(value)) return value.map((v, i) => omitUnknowns(v, paths, [...path, i]) ?? null);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = omitUnknowns(v, paths, [...path, k]);
      if (r !== undefined) out[k] = r;
    }
    return out;
  }
  return value;
}

function afterValues(rc: ResourceChange): Json {
  if (rc.after === null) return null;
  return masked(omitUnknowns(rc.after, rc.afterUnknown), rc.afterSensitive);
}

function indexOf(rc: ResourceChange): { index?: number | string } {
  return rc.index !== undefined ? { index: rc.index } : {};
}

function diagnosticJson(d: Diagnostic): Json {
  return {
    severity: d.severity,
    summary: d.summary,
    ...(d.detail ? { detail: d.detail } : {}),
    ...(d.path ? { path: d.path } : {}),
  };
}

function resourceChangeJson(rc: ResourceChange): Json {
  const change: Record<string, Json> = {
    actions: actions(rc),
    before: rc.before === null ? null : masked(rc.before, rc.beforeSensitive),
    after: afterValues(rc),
    after_unknown: unknownTree(rc.after, rc.afterUnknown),
    before_sensitive: rc.before === null ? false : sensitiveTree(rc.before, rc.beforeSensitive),
    after_sensitive: rc.after === null ? false : sensitiveTree(rc.after, rc.afterSensitive),
  };
  if (rc.action === 'replace' && rc.replacePaths.length > 0) change.replace_paths = rc.replacePaths;
  if (rc.importing) change.importing = { id: rc.importing.id };
  return {
    address: rc.address,
    ...(rc.previousAddress ? { previous_address: rc.previousAddress } : {}),
    mode: rc.mode,
    type: rc.type,
    name: rc.name,
    ...indexOf(rc),
    provider_name: rc.providerName,
    change,
    ...(rc.actionReason ? { action_reason: rc.actionReason } : {}),
  };
}

function plannedResourceJson(rc: ResourceChange): Json {
  return {
    address: rc.address,
    mode: rc.mode,
    type: rc.type,
    name: rc.name,
    ...indexOf(rc),
    provider_name: rc.providerName,
    schema_version: rc.schemaVersion ?? 0,
    values: afterValues(rc),
    sensitive_values: sensitiveTree(rc.after, rc.afterSensitive),
  };
}

function outputChangeJson(o: OutputChange): Json {
  const mask = (v: unknown): Json => (o.sensitive ? null : ((v ?? null) as Json));
  return {
    actions: o.action === 'noop' ? ['no-op'] : [o.action],
    before: o.action === 'create' ? null : mask(o.before),
    after: o.action === 'delete' || o.afterUnknown ? null : mask(o.after),
    after_unknown: o.afterUnknown,
    before_sensitive: o.sensitive,
    after_sensitive: o.sensitive,
  };
}

function priorStateJson(state: StateFile): Json {
  const outputs: Record<string, Json> = {};
  for (const [name, o] of Object.entries(state.outputs())) {
    outputs[name] = {
      sensitive: o.sensitive,
      value: o.sensitive ? null : (o.value as Json),
      type: o.type as Json,
    };
  }
  const resources = state.entries().map(({ address, addr, provider, object }) => {
    const sensitive = object.sensitiveAttributes ?? [];
    return {
      address,
      mode: addr.mode,
      type: addr.type,
      name: addr.name,
      ...(addr.key !== undefined ? { index: addr.key } : {}),
      provider_name: providerSource(provider),
      schema_version: object.schemaVersion,
      values: masked(object.attributes, sensitive),
      sensitive_values: sensitiveTree(object.attributes, sensitive),
    };
  });
  return {
    format_version: STATE_JSON_FORMAT_VERSION,
    terraform_version: state.terraformVersion,
    values: { outputs, root_module: { resources } },
  };
}

function extension(plan: PlanModel): Json {
  const annotations: Record<string, Json> = {};
  for (const rc of plan.resourceChanges) {
    const entry: Record<string, Json> = {};
    if (rc.constructPath) entry.construct_path = rc.constructPath;
    const s = rc.scheduler;
    if (s) {
      entry.scheduler = {
        summary: schedulerSummary(s),
        desired_tg_updates: s.desiredTGUpdates as Json,
        failed_tg_allocs: (s.failedTGAllocs ?? null) as Json,
        placement_failures: placementFailures(s),
        job_diff: (s.jobDiff ?? null) as Json,
        job_modify_index: s.jobModifyIndex,
        ...(s.nextPeriodicLaunch ? { next_periodic_launch: s.nextPeriodicLaunch } : {}),
        ...(s.warnings ? { warnings: s.warnings } : {}),
      };
    }
    if (rc.diagnostics.length > 0) entry.diagnostics = rc.diagnostics.map(diagnosticJson);
    if (Object.keys(entry).length > 0) annotations[rc.address] = entry;
  }
  return {
    format_version: '1.0',
    resource_annotations: annotations,
    diagnostics: plan.diagnostics.map(diagnosticJson),
  };
}

/** The plan as a JSON value (before scrubbing); see renderJson for the text. */
export function planJson(plan: PlanModel, opts: JsonOptions = {}): Record<string, Json> {
  const changes = sortedChanges(plan.resourceChanges);
  const outputs = [...plan.outputChanges].sort((a, b) => (a.name < b.name ? -1 : 1));
  const plannedOutputs: Record<string, Json> = {};
  for (const o of outputs) {
    if (o.action === 'delete') continue;
    plannedOutputs[o.name] = {
      sensitive: o.sensitive,
      ...(o.afterUnknown ? {} : { value: o.sensitive ? null : ((o.after ?? null) as Json) }),
    };
  }
  const outputChanges: Record<string, Json> = {};
  for (const o of outputs) outputChanges[o.name] = outputChangeJson(o);
  const doc: Record<string, Json> = {
    format_version: PLAN_FORMAT_VERSION,
    terraform_version: plan.terraformVersion ?? DEFAULT_TERRAFORM_VERSION,
    ...(plan.variables && Object.keys(plan.variables.values).length > 0
      ? { variables: variablesJson(plan.variables.values, plan.variables.sensitive) }
      : {}),
    planned_values: {
      outputs: plannedOutputs,
      root_module: {
        resources: changes
          .filter((rc) => rc.action !== 'delete' && rc.action !== 'forget')
          .map(plannedResourceJson),
      },
    },
    ...(plan.drift?.length ? { resource_drift: sortedChanges(plan.drift).map(resourceChangeJson) } : {}),
    resource_changes: changes.map(resourceChangeJson),
    output_changes: outputChanges,
  };
  if (opts.priorState) doc.prior_state = priorStateJson(opts.priorState);
  if (opts.configuration !== undefined) doc.configuration = opts.configuration as Json;
  if (plan.relevantAttributes?.length)
    doc.relevant_attributes = plan.relevantAttributes.map((a) => ({
      resource: a.resource,
      attribute: a.attribute,
    }));
  const checks = checksJson(plan.checks);
  if (checks) doc.checks = checks;
  if (plan.timestamp) doc.timestamp = plan.timestamp;
  doc.applyable = !plan.errored && hasChanges(plan);
  doc.complete = !plan.errored;
  doc.errored = plan.errored === true;
  doc[EXTENSION_KEY] = {
    ...(opts.stack ? { stack: opts.stack } : {}),
    ...(extension(plan) as Record<string, Json>),
  };
  return doc;
}

/** `terraform show -json`-compatible text of the plan, with every secret removed. */
export function renderJson(plan: PlanModel, opts: JsonOptions = {}): string {
  const secrets: string[] = [];
  if (opts.priorState) {
    for (const e of opts.priorState.entries())
      secrets.push(...secretsAt(e.object.attributes, e.object.sensitiveAttributes ?? []));
    for (const o of Object.values(opts.priorState.outputs()))
      if (o.sensitive) secrets.push(...secretsAt(o.value, [[]]));
  }
  const redact = Redactor.forPlan(plan, secrets);
  const doc = redact.value(planJson(plan, opts));
  return `${redact.text(JSON.stringify(doc, null, opts.indent))}\n`;
}
