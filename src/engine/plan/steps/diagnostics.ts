/** Small shared pieces of the plan steps: where a diagnostic points, and a block's provider address. */
import type { ConfigDiagnostic, InstanceKey, ResourceConfig } from '../../config';
import type { Diagnostic } from '../../../provider/values';
import { ctxOf } from '../context';

export function fromHandlerDiagnostics(
  diags: Diagnostic[],
  r: ResourceConfig,
  key?: InstanceKey,
): ConfigDiagnostic[] {
  return diags.map((d) => ({ ...d, ...ctxOf(r, key) }));
}

/** Provider configuration address: `sched` or `sched.west`. */
export function providerAddressOf(r: ResourceConfig): string {
  return `${r.provider.name}${r.provider.alias ? `.${r.provider.alias}` : ''}`;
}

/**
 * The provider name and alias of a state resource's `provider` (`provider["host/ns/sched"].west`);
 * `fallback` names the provider when the string does not parse.
 */
export function providerOfState(provider: string, fallback: string): { name: string; alias?: string } {
  const m = /provider\["[^"]*\/([^"/]+)"\](?:\.(\S+))?/.exec(provider);
  return { name: m?.[1] ?? fallback, ...(m?.[2] ? { alias: m[2] } : {}) };
}
