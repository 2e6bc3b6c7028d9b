/** A stack plan as the renderers see it. */
import type { PlanModel, ResourceChange } from '../render/model';
import { resourceChangeFromPlanned } from '../render/model';
import { instanceSecretTexts } from './sensitivity';
import type { DriftedInstance, InstancePlan, StackPlan } from './types';
import { providerFqn } from '../state/format';

/** One instance's change as the renderers see it; built from its plan alone, so it may be built early. */
export function instanceChange(ip: InstancePlan): ResourceChange {
  return {
    ...resourceChangeFromPlanned({
      address: ip.address,
      planned: ip.change,
      providerName: providerFqn(ip.providerName),
      ...(ip.constructPath ? { constructPath: ip.constructPath } : {}),
      sensitive: ip.sensitive,
      priorSensitive: ip.marks?.before ?? [],
      ...(ip.marks ? { plannedSensitive: ip.marks.after } : {}),
      ...(ip.actionReason ? { actionReason: ip.actionReason } : {}),
      createBeforeDestroy: ip.createBeforeDestroy,
      schemaVersion: ip.schemaVersion,
    }),
    ...(ip.forget ? { action: 'forget' as const, after: null } : {}),
    ...(ip.previousAddress ? { previousAddress: ip.previousAddress } : {}),
    ...(ip.importing ? { importing: ip.importing } : {}),
  };
}

/**
 * Whether a plan's text says anything of an instance: a change, a forget, a move or an import (what
 * renderText lists), or a no-op with something to say (its handler's diagnostics, the scheduler's
 * annotations: renderText notes those). The text leaves out every other unchanged instance, so its
 * model need not hold them: building their changes was most of printing a plan of 10,000 unchanged
 * resources.
 */
export function mentionedInText(ip: InstancePlan): boolean {
  const { change } = ip;
  return (
    !!ip.forget ||
    change.action !== 'noop' ||
    !!ip.previousAddress ||
    !!ip.importing ||
    change.diagnostics.length > 0 ||
    change.annotations?.scheduler !== undefined
  );
}

/**
 * The secret values of the instances a model leaves out, at the sensitive paths their changes would
 * have: a redactor of the model still scrubs them wherever they appear.
 */
function secretsLeftOut(plan: StackPlan, include: (ip: InstancePlan) => boolean): string[] {
  return plan.instances.flatMap((ip) => (include(ip) ? [] : instanceSecretTexts(ip)));
}

/**
 * `changeOf`: where the instances' changes come from (a renderer that built them ahead passes its own);
 * `include`: which instances the model holds (all of them, but for a consumer that reads only some).
 */
export function planModel(
  plan: StackPlan,
  changeOf: (ip: InstancePlan) => ResourceChange = instanceChange,
  include?: (ip: InstancePlan) => boolean,
): PlanModel {
  const instances = include ? plan.instances.filter(include) : plan.instances;
  const resourceChanges: ResourceChange[] = instances.map(changeOf);
  const secrets = [...(plan.sensitiveTexts ?? []), ...(include ? secretsLeftOut(plan, include) : [])];
  for (const dp of plan.data) {
    if (!dp.deferred) continue;
    resourceChanges.push({
      address: dp.address,
      mode: 'data',
      type: dp.type,
      name: dp.name,
      ...(dp.key !== undefined ? { index: dp.key } : {}),
      providerName: providerFqn(dp.providerName),
      ...(dp.constructPath ? { constructPath: dp.constructPath } : {}),
      action: 'read',
      actionReason:
        dp.deferredBecause === 'dependency'
          ? 'read_because_dependency_pending'
          : 'read_because_config_unknown',
      before: null,
      after: null,
      afterUnknown: [[]],
      beforeSensitive: [],
      afterSensitive: dp.sensitive.map((k) => [k]),
      replacePaths: [],
      diagnostics: [],
    });
  }
  // A handler's diagnostics are shown beside its resource; the plan-level list repeats only the rest.
  const beside = new Set(
    plan.instances.flatMap((ip) =>
      ip.change.diagnostics.map((d) => `${ip.address}\n${d.severity}\n${d.summary}\n${d.detail ?? ''}`),
    ),
  );
  const diagnostics = plan.diagnostics.filter(
    (d) => !beside.has(`${d.address ?? ''}\n${d.severity}\n${d.summary}\n${d.detail ?? ''}`),
  );
  return {
    mode: plan.mode,
    resourceChanges,
    outputChanges: plan.outputChanges,
    diagnostics,
    errored: plan.errored,
    ...(plan.sensitiveTexts || secrets.length > 0 ? { secrets } : {}),
    ...(plan.drift ? { drift: plan.drift.map(driftChange) } : {}),
    ...(plan.relevantAttributes ? { relevantAttributes: plan.relevantAttributes } : {}),
    ...(plan.checks ? { checks: plan.checks } : {}),
    variables: { values: plan.variables, sensitive: plan.sensitiveVariables ?? [] },
  };
}

/** A drifted instance as a change from what the state had to what the cluster has. */
function driftChange(d: DriftedInstance): ResourceChange {
  return {
    address: d.address,
    mode: 'managed',
    type: d.type,
    name: d.name,
    ...(d.key !== undefined ? { index: d.key } : {}),
    providerName: providerFqn(d.providerName),
    action: d.action,
    before: d.before,
    after: d.after,
    afterUnknown: [],
    beforeSensitive: d.sensitive,
    afterSensitive: d.sensitive,
    replacePaths: [],
    diagnostics: [],
  };
}
