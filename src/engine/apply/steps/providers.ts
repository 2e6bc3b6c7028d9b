/** Providers at apply time: every provider the plan used is configured again from the configuration. */
import { evaluateProviderConfig } from '../../config';
import type { ApplyContext } from '../context';

export function configureProviders(ctx: ApplyContext): void {
  const { plan, providers } = ctx.opts;
  for (const p of new Set([...plan.instances.map((i) => i.provider), ...plan.data.map((d) => d.provider)])) {
    if (providers.isConfigured(p)) continue;
    const block = ctx.config.providers.get(p);
    const name = p.split('.')[0]!;
    const cfg = block ? evaluateProviderConfig(block, ctx.scope()) : {};
    const diags = providers.configure(p, name, cfg);
    const err = diags.find((d) => d.severity === 'error');
    if (err) throw new Error(`provider ${p}: ${err.summary}${err.detail ? `: ${err.detail}` : ''}`);
  }
}
