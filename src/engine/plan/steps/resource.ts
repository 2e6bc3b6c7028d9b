/**
 * A resource block at plan time: it is expanded (count/for_each), each wanted instance is planned
 * (resource-instance.ts), then each instance only the state has (orphan-instance.ts).
 */
import { expandResource, instanceAddress, instancesOf, type ResourceConfig } from '../../config';
import type { PlanContext } from '../context';
import { planOrphanInstance } from './orphan-instance';
import { planResourceInstance } from './resource-instance';
import { createResourceStep } from './resource-step';

export async function planResource(ctx: PlanContext, r: ResourceConfig): Promise<void> {
  const step = createResourceStep(ctx, r);
  const base = ctx.scope();
  const goes = ctx.mode === 'destroy' || step.removed;
  const expansion = goes ? { mode: 'single' as const } : expandResource(r, base);
  ctx.book.declare(r.address, expansion.mode);
  const wanted = goes ? [] : instancesOf(expansion);
  const wantedAddrs = new Set(wanted.map((i) => instanceAddress(r, i.key)));

  await Promise.all(wanted.map((inst) => planResourceInstance(step, base, inst)));

  const orphans = (ctx.managedInState.get(r.address) ?? []).filter((e) => !wantedAddrs.has(e.address));
  await Promise.all(orphans.map((e) => planOrphanInstance(step, e.address, e.addr.key)));
}
