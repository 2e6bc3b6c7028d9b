/**
 * What a real Nomad (1.9 to 1.11) adds to every job it returns, applied to the agent's answers under
 * `--dialect hashicorp` so the client's comparison is tested against the same shape a cluster sends:
 * fields the server always fills (ConsulNamespace, DispatchIdempotencyToken, the group and task
 * `Consul` blocks, `Actions`, the default workload identity), the job-level update block reduced to
 * the two fields Nomad keeps there, and Go's zero values where the neutral agent answers null.
 */
import { isJsonRecord, jsonRecords, type JsonRecord } from '../../api/json-record';
import { DEFAULT_IDENTITY, DEFAULT_REGISTRY_BLOCK } from '../../api/sched/server-owned';

function setIfAbsent(o: JsonRecord, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = structuredClone(value);
}

function zeroIfNull(o: JsonRecord, keys: Record<string, unknown>): void {
  for (const [k, zero] of Object.entries(keys)) if (o[k] === undefined || o[k] === null) o[k] = zero;
}

function decorateTask(t: JsonRecord): void {
  setIfAbsent(t, 'Consul', DEFAULT_REGISTRY_BLOCK);
  setIfAbsent(t, 'Identity', DEFAULT_IDENTITY);
  if (t['Actions'] === undefined) t['Actions'] = null;
  const r = t['Resources'];
  if (isJsonRecord(r)) zeroIfNull(r, { DiskMB: 0, IOPS: 0, MemoryMaxMB: 0 });
}

function decorateGroup(g: JsonRecord): void {
  setIfAbsent(g, 'Consul', DEFAULT_REGISTRY_BLOCK);
  zeroIfNull(g, { PreventRescheduleOnLost: false });
  for (const t of jsonRecords(g['Tasks'])) decorateTask(t);
}

/** Nomad keeps only Stagger and MaxParallel at job level once the groups carry the rest. */
function reduceJobUpdate(u: unknown): JsonRecord | null {
  if (!isJsonRecord(u)) return null;
  return {
    Stagger: u['Stagger'] ?? 0,
    MaxParallel: u['MaxParallel'] ?? 0,
    HealthCheck: '',
    MinHealthyTime: 0,
    HealthyDeadline: 0,
    ProgressDeadline: 0,
    AutoRevert: false,
    AutoPromote: false,
    Canary: 0,
  };
}

function decorateJob(j: JsonRecord): void {
  zeroIfNull(j, { ConsulNamespace: '', DispatchIdempotencyToken: '', VaultNamespace: '', NomadTokenID: '' });
  if ('Update' in j) j['Update'] = reduceJobUpdate(j['Update']);
  for (const g of jsonRecords(j['TaskGroups'])) decorateGroup(g);
}

const isJob = (o: JsonRecord): boolean => typeof o['ID'] === 'string' && Array.isArray(o['TaskGroups']);

/** The body with every job in it (a read, a version list, an allocation's job) shaped as Nomad returns it. */
export function withNomadServerDefaults(body: unknown): unknown {
  if (Array.isArray(body)) {
    for (const item of body) withNomadServerDefaults(item);
    return body;
  }
  if (!isJsonRecord(body)) return body;
  if (isJob(body)) decorateJob(body);
  else
    for (const v of Object.values(body)) if (isJsonRecord(v) || Array.isArray(v)) withNomadServerDefaults(v);
  return body;
}
