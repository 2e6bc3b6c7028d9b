/**
 * What a real Nomad adds to a job on its own, removed from the comparable form so a job read back from
 * a cluster compares equal to the configuration that produced it. Each entry leaves a value the user
 * set in place: only the server's own default (or Go's zero value for an unset field) is dropped, so a
 * user's identity, registry block or update change still shows as a difference.
 */
import { isJsonRecord, jsonRecords, type JsonRecord } from '../json-record';
import { isDeepStrictEqual } from 'node:util';

/** Nomad's default workload identity, on every task since 1.9. */
export const DEFAULT_IDENTITY: Readonly<JsonRecord> = {
  Name: 'default',
  Audience: ['nomadproject.io'],
  ChangeMode: '',
  ChangeSignal: '',
  Env: false,
  File: false,
  ServiceName: '',
  TTL: 0,
};

/** The registry (Consul) block Nomad fills on groups and tasks: the default cluster, no namespace. */
export const DEFAULT_REGISTRY_BLOCK: Readonly<JsonRecord> = {
  Namespace: '',
  Cluster: 'default',
  Partition: '',
};

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function dropWhen(o: JsonRecord, key: string, isDefault: (v: unknown) => boolean): void {
  if (key in o && isDefault(o[key])) delete o[key];
}

const equalTo =
  (value: Readonly<JsonRecord>) =>
  (v: unknown): boolean =>
    isEmpty(v) || isDeepStrictEqual(v, value);

/** Go's zero value of a field the user left unset reads as unset. */
function zeroAsNull(o: JsonRecord, keys: readonly string[], zero: unknown): void {
  for (const k of keys) if (o[k] === zero) o[k] = null;
}

const isZero = (v: unknown): boolean => isEmpty(v) || v === 0;

/** A port's host network is `default` unless the user names another (Nomad's api fills it). */
function networks(o: JsonRecord): void {
  for (const n of jsonRecords(o['Networks'])) {
    zeroAsNull(n, ['MBits'], 0);
    for (const key of ['DynamicPorts', 'ReservedPorts']) {
      for (const port of jsonRecords(n[key]))
        dropWhen(port, 'HostNetwork', (v) => isEmpty(v) || v === 'default');
    }
  }
}

function resources(r: JsonRecord): void {
  zeroAsNull(r, ['DiskMB', 'IOPS', 'MemoryMaxMB'], 0);
  // NUMA (1.7) and SecretsMB (1.11) come back unset or zero on every task that does not ask for them.
  dropWhen(r, 'NUMA', isEmpty);
  dropWhen(r, 'SecretsMB', isZero);
  networks(r);
}

function task(t: JsonRecord): void {
  dropWhen(t, 'Identity', equalTo(DEFAULT_IDENTITY));
  dropWhen(t, 'Registry', equalTo(DEFAULT_REGISTRY_BLOCK));
  for (const k of ['Actions', 'SecretBlocks', 'Schedule']) dropWhen(t, k, isEmpty);
  if (isJsonRecord(t['Resources'])) resources(t['Resources']);
}

function group(g: JsonRecord): void {
  dropWhen(g, 'Registry', equalTo(DEFAULT_REGISTRY_BLOCK));
  zeroAsNull(g, ['PreventRescheduleOnLost'], false);
  networks(g);
  for (const t of jsonRecords(g['Tasks'])) task(t);
}

/**
 * Nomad keeps only Stagger and MaxParallel at job level; the rest of the job's update block lives on in
 * the groups (the canonical form merged it there), so comparing those two loses nothing.
 */
function jobUpdate(j: JsonRecord): void {
  const u = j['Update'];
  if (isJsonRecord(u)) j['Update'] = { Stagger: u['Stagger'] ?? null, MaxParallel: u['MaxParallel'] ?? null };
}

/** Removes, in place, what the server owns from a canonical job. */
export function dropServerOwned(j: JsonRecord): void {
  for (const k of ['DispatchIdempotencyToken', 'RegistryNamespace', 'SecretsNamespace', 'UI'])
    dropWhen(j, k, isEmpty);
  jobUpdate(j);
  for (const g of jsonRecords(j['TaskGroups'])) group(g);
}
