/** lifecycle.replace_triggered_by: a change to any referenced instance replaces this one. */
import type { ResourceConfig } from '../../config';
import { findReferences } from '../../expressions/references';
import type { PlannedChange, State } from '../../../provider/resource';
import { serviceDiffOf, type PlanContext } from '../context';
import type { ResourceStep } from './resource-step';

/** The change replace_triggered_by turns the planned one into (or the planned one when it does not fire). */
export async function replaceIfTriggered(
  step: ResourceStep,
  prior: State | null,
  cfg: State,
  change: PlannedChange,
): Promise<{ change: PlannedChange; byTrigger: boolean }> {
  const { r } = step;
  if (!prior || (change.action !== 'noop' && change.action !== 'update')) return { change, byTrigger: false };
  if (r.lifecycle.replaceTriggeredBy.length === 0 || !triggerFired(step.ctx, r))
    return { change, byTrigger: false };
  const fresh = await step.handler.plan({
    prior: null,
    config: cfg,
    replacing: { prior, destroyFirst: !r.lifecycle.createBeforeDestroy },
    ...serviceDiffOf(step.ctx),
  });
  return { change: { ...fresh, action: 'replace', prior, replacePaths: [] }, byTrigger: true };
}

/** replace_triggered_by fires when any instance of a referenced resource plans a change. */
function triggerFired(ctx: PlanContext, r: ResourceConfig): boolean {
  for (const expr of r.lifecycle.replaceTriggeredBy) {
    for (const ref of findReferences(expr)) {
      if (ref.kind !== 'resource') continue;
      for (const ip of ctx.plannedByAddress.values()) {
        if (ip.type === ref.type && ip.name === ref.name && ip.change.action !== 'noop') return true;
      }
    }
  }
  return false;
}
