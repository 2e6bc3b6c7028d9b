/**
 * Planning an instance again at apply time, when the plan could not be made for real: its
 * configuration had values known only after apply, or it is the create half of a replace (the
 * destroy half changed the object, and with it the index the create must check).
 */
import { evaluateResourceConfig, expandResource, instancesOf, type ResourceConfig } from '../../config';
import type { PlannedChange, ResourceHandler, State } from '../../../provider/resource';
import { recordedPlanned } from '../../terraform-form';
import { containsUnknown } from '../../../provider/values';
import type { ApplyContext } from '../context';
import type { Part } from '../graph';
import type { InstancePlan } from '../../plan/types';

export function needsReplan(ip: InstancePlan, part: Part, change: PlannedChange): boolean {
  const replan = ip.configKnown !== true || part === 'create';
  return replan && change.action !== 'delete' && change.planned !== null && containsUnknown(change.planned);
}

export async function replan(
  ctx: ApplyContext,
  ip: InstancePlan,
  part: Part,
  block: ResourceConfig,
  handler: ResourceHandler,
  change: PlannedChange,
): Promise<{ change: PlannedChange; recordAs?: State }> {
  // Now that what it depends on exists, its configuration is known: plan it for real.
  const s = ctx.scope();
  const inst = instancesOf(expandResource(block, s)).find((i) => i.key === ip.key);
  const cfg = evaluateResourceConfig(block, s, inst);
  if (containsUnknown(cfg))
    throw new Error(`${ip.address}: configuration still has unknown values at apply time`);
  const replacing =
    part === 'create' && ip.change.prior
      ? { prior: ip.change.prior, destroyFirst: !ip.createBeforeDestroy }
      : undefined;
  const replanned = await handler.plan({
    prior: change.prior,
    config: cfg,
    ...(replacing ? { replacing } : {}),
  });
  const err = replanned.diagnostics.find((d) => d.severity === 'error');
  if (err) throw new Error(`${err.summary}${err.detail ? `: ${err.detail}` : ''}`);
  const schema = ctx.opts.providers.block(ip.providerName, ip.type);
  return {
    change:
      replanned.action === 'noop' && change.action !== 'noop' ? { ...replanned, action: 'noop' } : replanned,
    // The recorded form follows the configuration it was planned from.
    ...(schema && replanned.planned ? { recordAs: recordedPlanned(schema, replanned.planned, cfg) } : {}),
  };
}
