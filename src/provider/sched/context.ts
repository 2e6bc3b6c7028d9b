/** What every handler of the scheduler provider shares: one client and the provider's defaults. */
import type { SchedClient } from '../../api/sched/client';
import type { Redact } from '../common/errors';

export interface SchedProviderContext {
  client: SchedClient;
  /** Namespace and region for objects that do not name their own. */
  defaults: { namespace?: string; region?: string };
  /** Removes the provider's secrets from any text before it leaves a handler. */
  redact: Redact;
}

/** The namespace a data source reads in: its own `namespace`, else the provider's, else `default`. */
export function namespaceFor(ctx: SchedProviderContext, config: Record<string, unknown>): string {
  const own = config['namespace'];
  return (typeof own === 'string' && own) || ctx.defaults.namespace || 'default';
}
