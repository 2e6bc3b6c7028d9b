/** A provider node at plan time: its configuration is evaluated and the provider configured with it. */
import { ConfigError, diagnostic, evaluateProviderConfig, type ConfigDiagnostic } from '../../config';
import type { ConfigNode } from '../../graph';
import { containsUnknown } from '../../../provider/values';
import type { PlanContext } from '../context';

type ProviderNode = Extract<ConfigNode, { kind: 'provider' }>;

export function planProvider(ctx: PlanContext, node: ProviderNode): void {
  const cfg = node.provider ? evaluateProviderConfig(node.provider, ctx.scope()) : {};
  if (containsUnknown(cfg)) {
    throw new ConfigError([
      diagnostic(
        { address: node.id },
        'Provider configuration depends on values not known until apply',
        'Set the provider from variables or known values; deploy what it depends on first (--target).',
      ),
    ]);
  }
  const diags = ctx.providers.configure(node.address, node.name, cfg);
  for (const d of diags)
    (d.severity === 'error' ? ctx.fail : (x: ConfigDiagnostic) => ctx.diagnostics.push(x))({
      ...d,
      address: node.id,
    });
  if (diags.some((d) => d.severity === 'error')) throw new Error(`provider ${node.address} is not usable`);
}
