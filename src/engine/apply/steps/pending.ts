/**
 * The pending record of a create (see state/pending.ts): the object it may leave is on disk before
 * it starts. A create next in line for a slot is journaled while the running ones still run, so
 * when a slot frees, its registration need not wait for the disk.
 */
import type { PlannedChange, State } from '../../../provider/resource';
import { isUnknown } from '../../../provider/values';
import type { InstancePlan } from '../../plan/types';
import type { InstanceObject } from '../../state';
import { blockOf, objectOf, providerOf, type ApplyContext } from '../context';
import type { ApplyNode } from '../graph';
import { needsReplan } from './replan';

/** Records that `change` (a create of `ip`) may leave an object; resolves once that is on disk. */
export function recordCreate(ctx: ApplyContext, ip: InstancePlan, change: PlannedChange): Promise<void> {
  const ahead = ctx.journaled.get(ip.address);
  // Marks the create as started: a journalAhead still queued for it then does nothing.
  ctx.journaled.set(ip.address, null);
  // Only the plan's own change was journaled ahead; one planned again records what it now is.
  if (ahead && ahead.change === change)
    return ctx.opts.writer.recordPending(ip.address, ahead.obj, { ...providerOf(ip), ahead: ahead.line });
  return ctx.opts.writer.recordPending(ip.address, pendingObject(ctx, ip, change), providerOf(ip));
}

/**
 * For the walk's `upcoming`: journals a create that will run as planned (nothing to plan again). In
 * the next turn of the event loop, so that the creates starting now have their own lines written
 * first instead of waiting for these objects to be built.
 */
export function journalAhead(ctx: ApplyContext, node: ApplyNode): void {
  setImmediate(() => journalNow(ctx, node));
}

function journalNow(ctx: ApplyContext, node: ApplyNode): void {
  if (node.kind !== 'instance' || node.part !== 'whole') return;
  const { ip } = node;
  // Started already, or never will (the walk stops starting nodes once aborted). Otherwise the walk
  // cannot have ended: a node waits for a slot only while visits run, and those end after this turn.
  if (ctx.journaled.has(ip.address) || ctx.opts.signal?.aborted) return;
  const change = ip.change;
  if (change.action !== 'create' || !change.planned) return;
  if (blockOf(ctx.config, ip.resourceAddress, 'managed') && needsReplan(ip, node.part, change)) return;
  const obj = pendingObject(ctx, ip, change);
  const line = ctx.opts.writer.journalAhead(ip.address, obj, providerOf(ip));
  if (!line) return;
  // Awaited by the create when it starts; a create that never starts leaves a line never marked.
  line.done.catch(() => undefined);
  ctx.journaled.set(ip.address, { change, obj, line });
}

function pendingObject(ctx: ApplyContext, ip: InstancePlan, change: PlannedChange): InstanceObject {
  return objectOf(ctx, { ...ip, change }, knownOnly(change.planned) as State);
}

/**
 * A planned value with what is not known yet as null (as Terraform records unknowns it never learns).
 * One walk; only what holds an unknown is copied (a planned job's unknowns are a few top-level
 * computed attributes: its spec and groups are kept as they are), and an unchanged value is returned
 * itself.
 */
function knownOnly(v: unknown): unknown {
  if (isUnknown(v)) return null;
  if (Array.isArray(v)) {
    let changed = false;
    const out = v.map((x) => {
      const y = knownOnly(x);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  if (v === null || typeof v !== 'object') return v;
  const fields = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(fields)) {
    const x = knownOnly(fields[k]);
    if (x === fields[k]) continue;
    // A spread keeps the object's compact shape (a planned job has more keys than V8 adds one by one
    // before it turns the object into a hash table); only the members that change are set again.
    out ??= { ...fields };
    // "__proto__" can be an own key (parsed JSON); assigning it would set the prototype instead.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out ?? v;
}
