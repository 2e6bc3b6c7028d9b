/**
 * A JSON jobspec may be written in Nomad's own names (a `nomad job run -json` file, `Vault` blocks,
 * `Provider: "consul"`) or in the neutral ones of the specs. The two differ only in names Nomad alone
 * uses, so a job that holds any of them is read as Nomad's and translated; anything else is neutral.
 */
import { jsonRecords, type JsonRecord } from '../json-record';
import { translateBody } from './translate';
import { NOMAD_TABLE } from './table';

const NOMAD_JOB_FIELDS = ['VaultToken', 'ConsulToken', 'NomadTokenID', 'ConsulNamespace', 'VaultNamespace'];
const NOMAD_PROVIDERS = new Set(['consul', 'nomad']);

function nomadService(s: JsonRecord): boolean {
  return typeof s['Provider'] === 'string' && NOMAD_PROVIDERS.has(s['Provider']);
}

function nomadTask(t: JsonRecord): boolean {
  return (
    'Vault' in t ||
    'Consul' in t ||
    Array.isArray(t['Secrets']) ||
    jsonRecords(t['Services']).some(nomadService)
  );
}

function nomadGroup(g: JsonRecord): boolean {
  return (
    'Consul' in g || jsonRecords(g['Services']).some(nomadService) || jsonRecords(g['Tasks']).some(nomadTask)
  );
}

export function usesNomadNames(job: JsonRecord): boolean {
  return NOMAD_JOB_FIELDS.some((k) => k in job) || jsonRecords(job['TaskGroups']).some(nomadGroup);
}

/** The job in neutral names, whichever names it was written in. */
export function neutralJob(job: JsonRecord): JsonRecord {
  return usesNomadNames(job) ? (translateBody(job, NOMAD_TABLE, 'fromWire') as JsonRecord) : job;
}
