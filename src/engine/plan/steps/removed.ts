/**
 * Removed blocks at plan time (Terraform 1.7's `removed { from = ...; lifecycle { destroy = false } }`):
 * an orphan a removed block with destroy = false covers is forgotten (dropped from the state, left on
 * the cluster) instead of destroyed. With destroy = true it is destroyed, as any orphan.
 */
import { diagnostic, type RemovedConfig } from '../../config';
import type { PlannedChange, State } from '../../../provider/resource';
import { parseAddress } from '../../state';
import type { PlanContext } from '../context';

/** The removed block covering an instance address, if any. */
export function removedBlockFor(ctx: PlanContext, address: string): RemovedConfig | undefined {
  const a = parseAddress(address);
  return ctx.config.removed.find((r) => r.from === address || r.from === `${a.type}.${a.name}`);
}

/** The change that forgets an object: nothing happens on the cluster, the state lets it go. */
export function forgetChange(prior: State): PlannedChange {
  return { action: 'noop', prior, planned: prior, diagnostics: [] };
}

/** Terraform refuses a removed block for a resource the configuration still declares. */
export function checkRemovedBlocks(ctx: PlanContext): void {
  for (const r of ctx.config.removed) {
    const a = parseAddress(r.from);
    if (!ctx.config.resources.has(`${a.type}.${a.name}`)) continue;
    ctx.fail(
      diagnostic(
        { address: r.from },
        'Removed resource still exists',
        `This statement declares a removal of ${r.from}, but this resource block still exists in the configuration. Remove the resource block.`,
      ),
    );
  }
}

/** Terraform's warning listing what the apply will forget. */
export function forgetWarning(ctx: PlanContext): void {
  const forgotten = ctx.plan.instances.filter((ip) => ip.forget).map((ip) => ip.address);
  if (forgotten.length === 0) return;
  ctx.diagnostics.push({
    severity: 'warning',
    summary: 'Some objects will no longer be managed by Terraform',
    detail: `If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:\n${forgotten.map((a) => ` - ${a}`).join('\n')}\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.`,
  });
}
