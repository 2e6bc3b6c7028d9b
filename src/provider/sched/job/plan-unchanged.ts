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
import { isJsonRecord } from '../../../api/json-record';
import { detectFormat, resolveJob, type JobDefaults } from './jobspec';
import { refOf } from './plan';
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

type Identity = Pick<Job, 'ID' | 'Namespace' | 'Region'>;

const optString = (v: unknown): v is string | null | undefined =>
  v === undefined || v === null || typeof v === 'string';

/**
 * The ID, namespace and region a JSON jobspec names, read without the schema check: for a text the
 * cluster was found to hold, which passed that check when it was planned. Undefined when the text
 * does not read as a job (the full parse then says why).
 */
function heldIdentity(text: string): Identity | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (isJsonRecord(raw) && isJsonRecord(raw['Job']) && raw['ID'] === undefined) raw = raw['Job'];
  if (!isJsonRecord(raw)) return undefined;
  const { ID, Namespace, Region } = raw;
  if (typeof ID !== 'string' || !optString(Namespace) || !optString(Region)) return undefined;
  return { ID, Namespace, Region };
}

/**
 * Whether a job the refresh found unchanged plans nothing, decided from the texts alone: the same
 * JSON jobspec as the state's (same ID and namespace) and the same settings. False sends the plan down
 * its usual path, which parses and checks the spec and reads the job where it must.
 */
export function heldUnchanged(
  prior: State,
  config: Config,
  settings: JobSettings,
  defaults: JobDefaults,
): boolean {
  const text = config['jobspec'];
  if (typeof text !== 'string' || text !== prior['jobspec'] || detectFormat(text) !== 'json') return false;
  const spec = heldIdentity(text);
  const priorRef = refOf(prior);
  if (!spec || !priorRef) return false;
  const job = resolveJob(spec as Job, defaults);
  return (
    priorRef.id === job.ID &&
    priorRef.namespace === (job.Namespace ?? 'default') &&
    plansNothing(prior, config, job, settings)
  );
}
