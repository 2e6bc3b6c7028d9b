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
