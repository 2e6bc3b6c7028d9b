/**
 * The scheduler provider's handlers over one context. Apart from the provider (which builds the client)
 * so that the constructs can validate with these very handlers at synth without loading the client.
 */
import type { Provider } from '../resource';
import { SchedAllocationsDataSource } from '../data/sched-allocations';
import { SchedDeploymentDataSource } from '../data/sched-deployment';
import { SchedJobDataSource } from '../data/sched-job';
import type { SchedProviderContext } from './context';
import { SchedJobHandler } from './job';
import { SchedNamespaceHandler } from './namespace';

export function schedHandlers(ctx: SchedProviderContext): Pick<Provider, 'resources' | 'dataSources'> {
  return {
    resources: {
      sched_job: new SchedJobHandler(ctx),
      sched_namespace: new SchedNamespaceHandler(ctx),
    },
    dataSources: {
      sched_job: new SchedJobDataSource(ctx),
      sched_allocations: new SchedAllocationsDataSource(ctx),
      sched_deployment: new SchedDeploymentDataSource(ctx),
    },
  };
}
