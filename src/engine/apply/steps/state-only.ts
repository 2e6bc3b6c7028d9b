/**
 * A state-only change at apply time: nothing happens on the cluster; the state records the object
 * an interrupted create left behind or an import block adopts, or forgets one the refresh found gone
 * or a removed block lets go.
 */
import type { ApplyContext } from '../context';
import { persist } from '../context';
import type { InstancePlan } from '../../plan/types';

export async function applyStateOnly(ctx: ApplyContext, ip: InstancePlan): Promise<void> {
  const kept = ip.stateOnly === 'record' ? ip.change.prior : null;
  await persist(ctx, ip, kept);
  if (kept) ctx.book.set(ip.resourceAddress, ip.key, kept);
  else ctx.book.delete(ip.resourceAddress, ip.key);
  if (ip.importing) ctx.result.imported.push(ip.address);
  if (ip.forget) ctx.result.forgotten.push(ip.address);
}
