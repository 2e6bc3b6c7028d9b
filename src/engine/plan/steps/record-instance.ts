/**
 * Recording one instance's planned change in the plan: its InstancePlan, why it is replaced or
 * deleted, the handler's diagnostics, and lifecycle.prevent_destroy.
 */
import { diagnostic, type ConfigDiagnostic, type InstanceKey } from '../../config';
import type { PlannedChange } from '../../../provider/resource';
import type { ActionReason } from '../../render/model';
import { ctxOf } from '../context';
import type { InstancePlan } from '../types';
import type { ResourceStep } from './resource-step';
import type { State } from '../../../provider/resource';
import type { AttrPath } from '../../../provider/values';
import { instanceMarks } from '../sensitivity';

export interface RecordHow {
  orphan: boolean;
  /** Replaced because replace_triggered_by fired. */
  byTrigger?: boolean;
  stateOnly?: InstancePlan['stateOnly'];
  configKnown?: boolean;
  /** Adopted by an import block: the ID. */
  importing?: string;
  /** Forgotten because of a removed block with destroy = false. */
  forget?: boolean;
  /** The evaluated configuration and the paths of its sensitive values. */
  evaluated?: { config: State; sensitivePaths: AttrPath[] };
  recordAs?: InstancePlan['recordAs'];
}

export function recordInstance(
  step: ResourceStep,
  key: InstanceKey,
  address: string,
  change: PlannedChange,
  how: RecordHow,
): InstancePlan {
  const { ctx, r } = step;
  const { orphan, byTrigger = false, stateOnly, configKnown, importing, forget } = how;
  const previousAddress = ctx.previous.get(address);
  // Without configuration, what it depended on is what the state recorded (destroy order).
  const deps = step.removed ? (ctx.state.get(address)?.dependencies ?? []) : step.dependencies;
  const ip: InstancePlan = {
    address,
    resourceAddress: r.address,
    mode: 'managed',
    type: r.type,
    name: r.name,
    ...(key !== undefined ? { key } : {}),
    provider: step.providerAddr,
    providerName: r.provider.name,
    ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
    change,
    dependencies: deps,
    createBeforeDestroy: r.lifecycle.createBeforeDestroy,
    orphan,
    sensitive: step.sensitive,
    schemaVersion: step.schemaVersion,
    ...(stateOnly && change.action === 'noop' ? { stateOnly } : {}),
    ...(configKnown !== undefined ? { configKnown } : {}),
    ...(previousAddress !== undefined ? { previousAddress } : {}),
    ...(importing !== undefined ? { importing: { id: importing } } : {}),
    ...(forget ? { forget } : {}),
    ...(how.recordAs ? { recordAs: how.recordAs } : {}),
    marks: instanceMarks({
      configPaths: how.evaluated?.sensitivePaths ?? [],
      config: how.evaluated?.config,
      prior: change.prior,
      planned: change.planned,
      recorded: ctx.state.peek(address)?.sensitiveAttributes ?? [],
      secrets: ctx.plan.sensitiveTexts ?? [],
    }),
  };
  // In a destroy plan everything goes because of the mode, not because its configuration went.
  const reason = actionReason(change, orphan && ctx.mode !== 'destroy', byTrigger);
  if (reason) ip.actionReason = reason;
  for (const d of change.diagnostics) {
    const cd: ConfigDiagnostic = { ...d, ...ctxOf(r, key) };
    if (d.severity === 'error') ctx.fail(cd);
    else ctx.diagnostics.push(cd);
  }
  checkPreventDestroy(step, key, address, change, orphan);
  ctx.plannedByAddress.set(address, ip);
  ctx.plan.instances.push(ip);
  ctx.opts.onInstance?.(ip);
  return ip;
}

function actionReason(change: PlannedChange, orphan: boolean, byTrigger: boolean): ActionReason | undefined {
  if (orphan && change.action === 'delete') return 'delete_because_no_resource_config';
  if (change.action === 'replace') return byTrigger ? 'replace_by_triggers' : 'replace_because_cannot_update';
  return undefined;
}

function checkPreventDestroy(
  step: ResourceStep,
  key: InstanceKey,
  address: string,
  change: PlannedChange,
  orphan: boolean,
): void {
  const { ctx, r } = step;
  const orphanWithoutConfig = orphan && !ctx.config.resources.has(r.address);
  if (change.action !== 'delete' && change.action !== 'replace') return;
  if (!r.lifecycle.preventDestroy || orphanWithoutConfig) return;
  ctx.fail({
    ...diagnostic(
      ctxOf(r, key),
      'Instance cannot be destroyed',
      `${address} has lifecycle.prevent_destroy set, but the plan calls for it to be ${change.action === 'delete' ? 'destroyed' : 'replaced'}. Remove prevent_destroy, or change the plan so it is not destroyed.`,
    ),
  });
}
