/**
 * The plan of a job the refresh found unchanged on the cluster (refresh-by-index.ts): the cluster still
 * holds the job the state recorded, registered from (or found equal to) the state's jobspec, so a
 * configuration with the same jobspec text, variables and settings plans nothing, and no copy of the
 * job needs to be read to compare with. Anything else takes the plan's usual path, which reads it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Job } from '../../../api/sched/schemas';
import type { Config, State } from '../../resource';
import { sameStringMap } from '../../common/shape';
import { PROVIDER_SETTINGS, type JobSettings } from './schema';

export function plansNothing(prior: State, config: Config, job: Job, settings: JobSettings): boolean {
  return (
    prior['jobspec'] === config['jobspec'] &&
    sameStringMap(prior['hcl2_vars'], config['hcl2_vars']) &&
    PROVIDER_SETTINGS.every((k) => isDeepStrictEqual(prior[k] ?? null, config[k] ?? null)) &&
    // The same text resolves to another region when the provider's default region changed.
    (job.Region || 'global') === prior['region'] &&
    // A failed rollout is registered again, and a dead job rerun: both need the cluster's copy.
    prior['deployment_status'] !== 'failed' &&
    !(settings.rerunIfDead && prior['status'] === 'dead')
  );
}
