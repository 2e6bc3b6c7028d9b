/**
 * A JSON jobspec may be written in Nomad's own names (a `nomad job run -json` file, `Vault` blocks,
 * `Provider: "consul"`) or in the neutral ones of the specs. The two differ only in names Nomad alone
 * uses, so a job that holds any of them is read as Nomad's and translated; anything else is neutral.
 */
import { translateBody } from './translate';
import { NOMAD_TABLE } from './table';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const items = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRec) : []);

const NOMAD_JOB_FIELDS = ['VaultToken', 'ConsulToken', 'NomadTokenID', 'ConsulNamespace', 'VaultNamespace'];
const NOMAD_PROVIDERS = new Set(['consul', 'nomad']);

function nomadService(s: Rec): boolean {
  return typeof s['Provider'] === 'string' && NOMAD_PROVIDERS.has(s['Provider']);
}

function nomadTask(t: Rec): boolean {
  return (
    'Vault' in t || 'Consul' in t || Array.isArray(t['Secrets']) || items(t['Services']).some(nomadService)
  );
}

function nomadGroup(g: Rec): boolean {
  return 'Consul' in g || items(g['Services']).some(nomadService) || items(g['Tasks']).some(nomadTask);
}

export function usesNomadNames(job: Rec): boolean {
  return NOMAD_JOB_FIELDS.some((k) => k in job) || items(job['TaskGroups']).some(nomadGroup);
}

/** The job in neutral names, whichever names it was written in. */
export function neutralJob(job: Rec): Rec {
  return usesNomadNames(job) ? (translateBody(job, NOMAD_TABLE, 'fromWire') as Rec) : job;
}
