/**
 * What a real Nomad adds to a job on its own, removed from the comparable form so a job read back from
 * a cluster compares equal to the configuration that produced it. Each entry leaves a value the user
 * set in place: only the server's own default (or Go's zero value for an unset field) is dropped, so a
 * user's identity, registry block or update change still shows as a difference.
 */
import { isDeepStrictEqual } from 'node:util';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nomad's default workload identity, on every task since 1.9. */
export const DEFAULT_IDENTITY: Readonly<Rec> = {
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
export const DEFAULT_REGISTRY_BLOCK: Readonly<Rec> = { Namespace: '', Cluster: 'default', Partition: '' };

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function dropWhen(o: Rec, key: string, isDefault: (v: unknown) => boolean): void {
  if (key in o && isDefault(o[key])) delete o[key];
}

const equalTo =
  (value: Readonly<Rec>) =>
  (v: unknown): boolean =>
    isEmpty(v) || isDeepStrictEqual(v, value);

/** Go's zero value of a field the user left unset reads as unset. */
function zeroAsNull(o: Rec, keys: readonly string[], zero: unknown): void {
  for (const k of keys) if (o[k] === zero) o[k] = null;
}

const isZero = (v: unknown): boolean => isEmpty(v) || v === 0;

const recsOf = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRec) : []);

/** A port's host network is `default` unless the user names another (Nomad's api fills it). */
function networks(o: Rec): void {
  for (const n of recsOf(o['Networks'])) {
    zeroAsNull(n, ['MBits'], 0);
    for (const key of ['DynamicPorts', 'ReservedPorts']) {
      for (const port of recsOf(n[key])) dropWhen(port, 'HostNetwork', (v) => isEmpty(v) || v === 'default');
    }
  }
}

function resources(r: Rec): void {
  zeroAsNull(r, ['DiskMB', 'IOPS', 'MemoryMaxMB'], 0);
  // NUMA (1.7) and SecretsMB (1.11) come back unset or zero on every task that does not ask for them.
  dropWhen(r, 'NUMA', isEmpty);
  dropWhen(r, 'SecretsMB', isZero);
  networks(r);
}

function task(t: Rec): void {
  dropWhen(t, 'Identity', equalTo(DEFAULT_IDENTITY));
  dropWhen(t, 'Registry', equalTo(DEFAULT_REGISTRY_BLOCK));
  for (const k of ['Actions', 'SecretBlocks', 'Schedule']) dropWhen(t, k, isEmpty);
  if (isRec(t['Resources'])) resources(t['Resources']);
}

function group(g: Rec): void {
  dropWhen(g, 'Registry', equalTo(DEFAULT_REGISTRY_BLOCK));
  zeroAsNull(g, ['PreventRescheduleOnLost'], false);
  networks(g);
  for (const t of recsOf(g['Tasks'])) task(t);
}

/**
 * Nomad keeps only Stagger and MaxParallel at job level; the rest of the job's update block lives on in
 * the groups (the canonical form merged it there), so comparing those two loses nothing.
 */
function jobUpdate(j: Rec): void {
  const u = j['Update'];
  if (isRec(u)) j['Update'] = { Stagger: u['Stagger'] ?? null, MaxParallel: u['MaxParallel'] ?? null };
}

/** Removes, in place, what the server owns from a canonical job. */
export function dropServerOwned(j: Rec): void {
  for (const k of ['DispatchIdempotencyToken', 'RegistryNamespace', 'SecretsNamespace', 'UI'])
    dropWhen(j, k, isEmpty);
  jobUpdate(j);
  for (const g of recsOf(j['TaskGroups'])) group(g);
}
