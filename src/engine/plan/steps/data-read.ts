/**
 * A data source at plan time: each instance is read now, or deferred to apply when its arguments
 * are not known yet, in a destroy plan, or when something it depends on changes in this plan.
 */
import {
  ConfigError,
  evaluateMarkedResourceConfig,
  expandResource,
  instanceAddress,
  instancesOf,
  type ResourceConfig,
} from '../../config';
import { containsUnknown, UNKNOWN } from '../../../provider/values';
import type { PlanContext } from '../context';
import { fromHandlerDiagnostics, providerAddressOf } from './diagnostics';
import { dataPaths } from '../sensitivity';
import type { DataPlan } from '../types';

export async function planDataRead(ctx: PlanContext, r: ResourceConfig): Promise<void> {
  const expansion = expandResource(r, ctx.scope());
  ctx.book.declare(r.address, expansion.mode);
  const providerAddr = providerAddressOf(r);
  const handler = ctx.providers.dataSource(providerAddr, r.type);
  await Promise.all(
    instancesOf(expansion).map(async (inst) => {
      const { config: cfg, sensitivePaths } = evaluateMarkedResourceConfig(r, ctx.scope(), inst);
      const entry: DataPlan = {
        address: instanceAddress(r, inst.key),
        resourceAddress: r.address,
        type: r.type,
        name: r.name,
        ...(inst.key !== undefined ? { key: inst.key } : {}),
        provider: providerAddr,
        providerName: r.provider.name,
        ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
        deferred: false,
        sensitive: ctx.providers.sensitive(r.provider.name, r.type, 'data'),
        dependencies: ctx.graphDeps(r.address),
      };
      const diags = handler.validate(cfg);
      if (diags.some((d) => d.severity === 'error'))
        throw new ConfigError(fromHandlerDiagnostics(diags, r, inst.key));
      const pending = ctx.mode === 'normal' ? pendingDependency(ctx, entry.dependencies ?? []) : undefined;
      if (containsUnknown(cfg) || ctx.mode === 'destroy' || pending) {
        entry.deferred = true;
        if (pending && !containsUnknown(cfg)) entry.deferredBecause = 'dependency';
        ctx.book.set(r.address, inst.key, UNKNOWN);
      } else {
        const value = await handler.read(cfg);
        // A value another stack's pending plan will change (terraform_remote_state in a multi-stack
        // plan) is not known yet: read again at apply, as for a pending dependency.
        if (containsUnknown(value)) {
          entry.deferred = true;
          entry.deferredBecause = 'dependency';
          ctx.book.set(r.address, inst.key, UNKNOWN);
        } else {
          entry.value = value;
          ctx.book.set(r.address, inst.key, value, dataPaths(entry.sensitive, sensitivePaths, value));
        }
      }
      ctx.plan.data.push(entry);
    }),
  );
}

/**
 * What a data source depends on that changes in this plan: as in Terraform, it is then read
 * during apply, after that change, even when its own arguments are known now.
 */
function pendingDependency(ctx: PlanContext, deps: string[]): string | undefined {
  return deps.find(
    (d) =>
      ctx.plan.instances.some((ip) => ip.resourceAddress === d && ip.change.action !== 'noop') ||
      ctx.plan.data.some((dp) => dp.resourceAddress === d && dp.deferred),
  );
}
