/**
 * Orphaned resource blocks at plan time: a whole resource block the state has and the
 * configuration no longer has. It is not in the configuration graph, so it is planned after the
 * walk, with a stand-in configuration, and every instance plans a delete.
 */
import { defaultLifecycle, diagnosticFromError, type ResourceConfig } from '../../config';
import type { PlanContext } from '../context';
import { ctxOf } from '../context';
import { providerOfState } from './diagnostics';
import { planResource } from './resource';

/** The orphaned blocks (by resource address) a plan covers: under --target only the targeted ones. */
export function findOrphanBlocks(ctx: PlanContext): Map<string, ResourceConfig> {
  const out = new Map<string, ResourceConfig>();
  for (const e of ctx.state.instances()) {
    if (e.addr.mode !== 'managed') continue;
    const ra = `${e.addr.type}.${e.addr.name}`;
    if (ctx.config.resources.has(ra) || out.has(ra)) continue;
    if (ctx.targetSet && !ctx.targetSet.has(ra) && !ctx.targetSet.has(e.address)) continue;
    out.set(ra, orphanResource(e.addr.type, e.addr.name, e.provider));
  }
  return out;
}

export async function planOrphanBlocks(ctx: PlanContext, blocks: Map<string, ResourceConfig>): Promise<void> {
  for (const r of blocks.values()) {
    try {
      // Orphaned blocks still need their provider, which the configuration may no longer configure.
      if (!ctx.providers.isConfigured(r.provider.name))
        ctx.providers.configure(r.provider.name, r.provider.name, {});
      await planResource(ctx, r);
    } catch (err) {
      ctx.fail(diagnosticFromError(ctxOf(r), err));
    }
  }
}

/** A stand-in configuration for a resource block that exists only in state (its instances are deleted). */
function orphanResource(type: string, name: string, provider: string): ResourceConfig {
  return {
    mode: 'managed',
    type,
    name,
    address: `${type}.${name}`,
    construct: {},
    provider: providerOfState(provider, type.split('_')[0]!),
    providerExplicit: false,
    dependsOn: [],
    lifecycle: defaultLifecycle(),
    body: { type: 'object', items: [] } as unknown as ResourceConfig['body'],
    raw: {},
  };
}
