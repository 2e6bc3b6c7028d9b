/**
 * Data sources at apply time: a read deferred at plan time happens now (after what it depends on),
 * and the reads made at plan time are recorded in the state as they were.
 */
import { evaluateMarkedResourceConfig, expandResource, instancesOf } from '../../config';
import { dataPaths } from '../../plan/sensitivity';
import type { DataPlan } from '../../plan/types';
import type { StateFile } from '../../state';
import type { ApplyContext } from '../context';
import { blockOf, providerOf } from '../context';

export async function applyDeferredDataRead(ctx: ApplyContext, dp: DataPlan): Promise<void> {
  const block = blockOf(ctx.config, dp.resourceAddress, 'data');
  if (!block) return;
  const s = ctx.scope();
  const inst = instancesOf(expandResource(block, s)).find((i) => i.key === dp.key);
  const { config: cfg, sensitivePaths } = evaluateMarkedResourceConfig(block, s, inst);
  const value = await ctx.opts.providers.dataSource(dp.provider, dp.type).read(cfg);
  ctx.book.set(dp.resourceAddress, dp.key, value, dataPaths(dp.sensitive, sensitivePaths, value));
  await ctx.opts.writer.update((st) => setData(ctx, st, dp, value));
}

/** Data sources that are not deferred are recorded as read at plan time. */
export async function recordPlanTimeDataReads(ctx: ApplyContext): Promise<void> {
  const { plan, writer } = ctx.opts;
  if (plan.mode === 'destroy') return;
  await writer.update((st) => {
    for (const dp of plan.data) {
      if (dp.deferred || !dp.value) continue;
      setData(ctx, st, dp, dp.value);
    }
  });
}

/** A destroy leaves no data source behind either, as terraform's does. */
export async function forgetDataOnDestroy(ctx: ApplyContext): Promise<void> {
  const { plan, writer } = ctx.opts;
  if (plan.mode !== 'destroy' || ctx.result.failed.length > 0 || ctx.result.interrupted) return;
  await writer.update((st) => {
    for (const e of st.entries()) if (e.addr.mode === 'data') st.remove(e.address);
  });
}

function setData(ctx: ApplyContext, st: StateFile, dp: DataPlan, value: Record<string, unknown>): void {
  st.set(
    dp.address,
    {
      schemaVersion: 0,
      attributes: ctx.opts.providers.dataState(dp.providerName, dp.type, value),
      sensitiveAttributes: dp.sensitive.map((k) => [k]),
    },
    providerOf(dp),
  );
}
