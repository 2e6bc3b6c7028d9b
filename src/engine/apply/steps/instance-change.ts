/**
 * A resource instance change at apply time (a create, update, replace or delete, or one half of a
 * replace): planned again if it must be, recorded as pending before a create, applied through its
 * handler, written to the state, and checked against its postconditions.
 */
import { ConfigError, checkPostconditions, expandResource, instancesOf } from '../../config';
import type {
  ApplyContext as HandlerApplyContext,
  PlannedChange,
  ResourceHandler,
  State,
} from '../../../provider/resource';
import { ResourceApplyError } from '../../../provider/common/errors';
import type { InstancePlan } from '../../plan/types';
import type { ApplyContext } from '../context';
import { blockOf, objectOf, persist, persistObjectSoon, persistSoon } from '../context';
import { changeOf, type Part } from '../graph';
import { recordCreate } from './pending';
import { needsReplan, replan } from './replan';

export async function applyInstanceChange(
  ctx: ApplyContext,
  ip: InstancePlan,
  part: Part,
  release?: () => void,
): Promise<void> {
  const { opts } = ctx;
  const handler = opts.providers.resource(ip.provider, ip.type);
  let change: PlannedChange = changeOf(ip, part);
  const block = blockOf(ctx.config, ip.resourceAddress, 'managed');
  let recordAs = ip.recordAs;
  if (block && needsReplan(ip, part, change)) {
    ({ change, recordAs } = await replan(ctx, ip, part, block, handler, change));
  }
  // A kill during the create would otherwise lose the object: record that it may exist first.
  if (change.action === 'create' && change.planned) await recordCreate(ctx, ip, change);
  opts.onStart?.(part === 'whole' ? ip : { ...ip, change });
  const next = await runHandler(ctx, ip, handler, change, release);
  const applied: InstancePlan = { ...ip, change, ...(recordAs ? { recordAs } : {}) };
  const obj = next && objectOf(ctx, applied, next);
  persistObjectSoon(ctx, applied, obj);
  if (next) {
    // The sensitive paths follow the planned value: the recorded object's, unless it was planned again.
    const sensitive =
      change.planned === ip.change.planned
        ? obj!.sensitiveAttributes
        : objectOf(ctx, ip, next).sensitiveAttributes;
    ctx.book.set(ip.resourceAddress, ip.key, next, sensitive ?? []);
  } else ctx.book.delete(ip.resourceAddress, ip.key);
  // Building the scope costs a walk of the configuration: only for a block that has conditions.
  if (block && next && block.lifecycle.postconditions.length > 0) {
    const inst = instancesOf(expandResource(block, ctx.scope())).find((i) => i.key === ip.key);
    const post = checkPostconditions(block, ctx.scope(), next, inst);
    if (post.failures.length > 0) throw new ConfigError(post.failures);
  }
  countOutcome(ctx, ip, part, change);
}

async function runHandler(
  ctx: ApplyContext,
  ip: InstancePlan,
  handler: ResourceHandler,
  change: PlannedChange,
  release: (() => void) | undefined,
): Promise<State | null> {
  const hard = ctx.opts.hardSignal ? ctx.hardSignals.child() : undefined;
  const hctx: HandlerApplyContext = {
    ...(hard ? { signal: hard.signal } : {}),
    onProgress: (e) => ctx.opts.onProgress?.(ip.address, e),
  };
  try {
    if (change.action === 'replace' && ip.createBeforeDestroy) {
      const next = await handler.apply({ ...change, action: 'create', prior: null }, hctx);
      await persist(ctx, ip, next);
      await handler.apply({ ...change, action: 'delete', planned: null }, hctx);
      return next;
    }
    // Only a change made by one call can give its slot up early (a create before destroy has two).
    return await handler.apply(change, release ? { ...hctx, onChanged: release } : hctx);
  } catch (err) {
    // What a failure leaves is not what was planned (a failed destroy half leaves the old object):
    // it is recorded as it is, not in the planned form.
    if (err instanceof ResourceApplyError) persistSoon(ctx, { ...ip, recordAs: undefined }, err.state);
    throw err;
  } finally {
    hard?.release();
  }
}

/** Files the finished change under created/updated/replaced/destroyed. */
function countOutcome(ctx: ApplyContext, ip: InstancePlan, part: Part, change: PlannedChange): void {
  if (part === 'destroy') {
    ctx.halfReplaced.add(ip.address);
    return;
  }
  ctx.halfReplaced.delete(ip.address);
  const { result } = ctx;
  if (ip.importing) result.imported.push(ip.address);
  const bucket =
    part === 'create'
      ? result.replaced
      : change.action === 'create'
        ? result.created
        : change.action === 'update'
          ? result.updated
          : change.action === 'replace'
            ? result.replaced
            : change.action === 'delete'
              ? result.destroyed
              : undefined;
  bucket?.push(ip.address);
}
