/**
 * The one table of names that differ between the neutral dialect of our specs and the wire of a
 * real Nomad or Consul. Everything above the transport speaks neutral names; the transport (client
 * side) and the dev agent's `--dialect` (server side) translate with this table, in opposite
 * directions, so both ends are tested against each other.
 *
 * Where a rename applies depends on the kind of object it is found in (a task's `Vault` block is
 * not a job's), so the table is keyed by object kind; `any` applies at every structural level.
 * Free-form maps (Meta, Env, Config, ...) are never translated: a user's key stays the user's.
 */

/** The kinds of object the walker recognises by the key or array that holds them. */
export type ObjectKind = 'any' | 'group' | 'task' | 'service';

/** A field rename: neutral name -> wire name. */
export type FieldRenames = Readonly<Record<string, string>>;

/** An enumerated value rename of one field: neutral value -> wire value. */
export interface ValueRename {
  readonly field: string;
  readonly values: Readonly<Record<string, string>>;
}

export interface DialectTable {
  readonly fields: Readonly<Partial<Record<ObjectKind, FieldRenames>>>;
  readonly values: Readonly<Partial<Record<ObjectKind, readonly ValueRename[]>>>;
}

/** Neutral <-> Nomad, after Nomad's `api` package (Job, TaskGroup, Task, Service). */
export const NOMAD_TABLE: DialectTable = {
  fields: {
    any: {
      SecretsToken: 'VaultToken',
      SecretsNamespace: 'VaultNamespace',
      RegistryToken: 'ConsulToken',
      RegistryNamespace: 'ConsulNamespace',
      SchedTokenID: 'NomadTokenID',
    },
    group: { Registry: 'Consul' },
    // Nomad 1.11's task `Secrets` is a list of secret blocks, not the neutral `Secrets` (Nomad's
    // `Vault`); renaming key by key into a new object keeps the two apart in both directions.
    task: { Secrets: 'Vault', Registry: 'Consul', SecretBlocks: 'Secrets' },
  },
  values: {
    service: [{ field: 'Provider', values: { registry: 'consul', sched: 'nomad' } }],
  },
};

/** Neutral <-> Consul: the registry spec keeps Consul's field names; only headers and env differ. */
export const CONSUL_TABLE: DialectTable = { fields: {}, values: {} };

/**
 * Keys that hold a user's free-form map or an opaque payload: never walked into. Structural keys
 * not listed here are walked with kind `any`.
 */
export const FREE_FORM_KEYS: ReadonlySet<string> = new Set([
  'Meta',
  'CanaryMeta',
  'Env',
  'Config',
  'Payload',
  'Details',
  'Attributes',
  'Links',
  'Labels',
  'GetterOptions',
  'GetterHeaders',
  'TaggedAddresses',
  'Header',
  'Target',
  'Policy',
  'UI',
  'Connect',
  'VariableFlags',
  'ClaimMappings',
  'ListClaimMappings',
]);

/** Maps keyed by a user's names (task, group, volume names): their values are walked, their keys kept. */
export const NAME_KEYED_MAPS: ReadonlySet<string> = new Set([
  'TaskGroups',
  'TaskStates',
  'TaskResources',
  'Tasks',
  'Summary',
  'Volumes',
  'Versions',
]);

/** Which arrays hold which kind of object. */
export const ARRAY_KINDS: Readonly<Record<string, ObjectKind>> = {
  TaskGroups: 'group',
  Tasks: 'task',
  Services: 'service',
};
