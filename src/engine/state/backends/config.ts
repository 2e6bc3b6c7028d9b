/**
 * The stack's `terraform.backend` block, checked: which backend, with which settings, after the
 * environment variables Terraform reads for it. Backends this engine does not implement are refused
 * here, before a command locks, reads or changes anything.
 */
import { safeParseOnce } from '../../../common/parse-once';
import { z } from 'zod';
import { BackendError } from './types';

type Env = Readonly<Record<string, string | undefined>>;

/** Terraform's `strconv.ParseBool` spellings, for the `PG_SKIP_*` variables. */
function parseBool(name: string, raw: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
  throw new BackendError(`${name}: expected a boolean (true or false), got ${JSON.stringify(raw)}`);
}

export const LocalBackendSchema = z.strictObject({
  path: z.string().min(1, 'must not be empty').optional(),
  workspace_dir: z.string().min(1, 'must not be empty').optional(),
});
export type LocalBackendConfig = z.infer<typeof LocalBackendSchema>;

export const PgBackendSchema = z.strictObject({
  conn_str: z.string().optional(),
  schema_name: z.string().min(1, 'must not be empty').optional(),
  skip_schema_creation: z.boolean().optional(),
  skip_table_creation: z.boolean().optional(),
  skip_index_creation: z.boolean().optional(),
});
export type PgBackendInput = z.infer<typeof PgBackendSchema>;

export interface PgBackendConfig {
  connStr: string | undefined;
  schemaName: string;
  skipSchemaCreation: boolean;
  skipTableCreation: boolean;
  skipIndexCreation: boolean;
}

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
export const HttpBackendSchema = z.strictObject({
  address: httpUrl.optional(),
  update_method: z.string().min(1).optional(),
  lock_address: httpUrl.optional(),
  lock_method: z.string().min(1).optional(),
  unlock_address: httpUrl.optional(),
  unlock_method: z.string().min(1).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  skip_cert_verification: z.boolean().optional(),
  retry_max: z.number().int().nonnegative().optional(),
  retry_wait_min: z.number().nonnegative().optional(),
  retry_wait_max: z.number().nonnegative().optional(),
});

export interface HttpBackendConfig {
  address: string;
  updateMethod: string;
  lockAddress: string | undefined;
  lockMethod: string;
  unlockAddress: string | undefined;
  unlockMethod: string;
  username: string | undefined;
  password: string | undefined;
  skipCertVerification: boolean;
  retryMax: number;
  retryWaitMinS: number;
}

export type BackendSpec =
  | { type: 'local'; config: LocalBackendConfig }
  | { type: 'pg'; config: PgBackendConfig }
  | { type: 'http'; config: HttpBackendConfig };

/** What to say for backends that are not implemented: what they are and what to do instead. */
const REFUSED: Record<string, string> = {
  s3: 'Amazon S3',
  gcs: 'Google Cloud Storage',
  azurerm: 'Azure Blob Storage',
  remote: 'HCP Terraform / Terraform Enterprise (remote)',
  cloud: 'HCP Terraform (the "cloud" block)',
  consul: 'Consul KV',
  cos: 'Tencent Cloud COS',
  oss: 'Alibaba Cloud OSS',
  kubernetes: 'Kubernetes secrets',
  swift: 'OpenStack Swift',
  manta: 'Joyent Manta',
  artifactory: 'Artifactory',
  etcd: 'etcd',
  etcdv3: 'etcd v3',
};

export function refusal(type: string, stack: string | undefined): BackendError {
  const what = REFUSED[type] ? `${REFUSED[type]} ("${type}")` : `"${type}"`;
  return new BackendError(
    [
      `${stack ? `stack ${stack}: ` : ''}the ${type === 'cloud' ? 'terraform.cloud block' : `backend ${JSON.stringify(type)}`} is not supported by cdktf-sched: state in ${what} cannot be read, locked or written by this engine.`,
      `Nothing was run. Use a supported backend (local, pg or http; see README "State for a team"),`,
      `or run this stack with terraform (cdktf-sched synth, then terraform in cdktf.out/stacks/<stack>).`,
    ].join('\n'),
  );
}

function zodMessage(type: string, error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const field =
        i.path.length > 0 ? `terraform.backend.${type}.${i.path.join('.')}` : `terraform.backend.${type}`;
      return `${field}: ${i.code === 'unrecognized_keys' ? `unknown setting(s) ${i.keys.join(', ')}` : i.message}`;
    })
    .join('; ');
}

function parseWith<T>(schema: z.ZodType<T>, type: string, raw: unknown): T {
  const r = safeParseOnce(schema, raw ?? {});
  if (!r.success) throw new BackendError(zodMessage(type, r.error));
  return r.data;
}

function envBool(env: Env, name: string, given: boolean | undefined): boolean {
  if (given !== undefined) return given;
  const raw = env[name];
  return raw === undefined || raw === '' ? false : parseBool(name, raw);
}

function pgConfig(raw: unknown, env: Env): PgBackendConfig {
  const c = parseWith(PgBackendSchema, 'pg', raw);
  const connStr = c.conn_str ?? (env['PG_CONN_STR'] || undefined);
  return {
    connStr,
    schemaName: c.schema_name ?? (env['PG_SCHEMA_NAME'] || 'terraform_remote_state'),
    skipSchemaCreation: envBool(env, 'PG_SKIP_SCHEMA_CREATION', c.skip_schema_creation),
    skipTableCreation: envBool(env, 'PG_SKIP_TABLE_CREATION', c.skip_table_creation),
    skipIndexCreation: envBool(env, 'PG_SKIP_INDEX_CREATION', c.skip_index_creation),
  };
}

function httpConfig(raw: unknown, env: Env): HttpBackendConfig {
  const c = parseWith(HttpBackendSchema, 'http', raw);
  const fromEnv = (name: string): string | undefined => env[`TF_HTTP_${name}`] || undefined;
  const address = c.address ?? fromEnv('ADDRESS');
  if (!address) throw new BackendError('terraform.backend.http.address: required (or set TF_HTTP_ADDRESS)');
  const envUrl = (name: string): string | undefined => {
    const v = fromEnv(name);
    if (v !== undefined && !httpUrl.safeParse(v).success)
      throw new BackendError(`TF_HTTP_${name}: must be an http:// or https:// URL`);
    return v;
  };
  envUrl('ADDRESS');
  const num = (name: string, given: number | undefined, dflt: number): number => {
    if (given !== undefined) return given;
    const v = fromEnv(name);
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0)
      throw new BackendError(`TF_HTTP_${name}: expected a non-negative number`);
    return n;
  };
  return {
    address,
    updateMethod: c.update_method ?? fromEnv('UPDATE_METHOD') ?? 'POST',
    lockAddress: c.lock_address ?? envUrl('LOCK_ADDRESS'),
    lockMethod: c.lock_method ?? fromEnv('LOCK_METHOD') ?? 'LOCK',
    unlockAddress: c.unlock_address ?? envUrl('UNLOCK_ADDRESS'),
    unlockMethod: c.unlock_method ?? fromEnv('UNLOCK_METHOD') ?? 'UNLOCK',
    username: c.username ?? fromEnv('USERNAME'),
    password: c.password ?? fromEnv('PASSWORD'),
    skipCertVerification:
      c.skip_cert_verification ??
      (fromEnv('SKIP_CERT_VERIFICATION')
        ? parseBool('TF_HTTP_SKIP_CERT_VERIFICATION', fromEnv('SKIP_CERT_VERIFICATION')!)
        : false),
    retryMax: num('RETRY_MAX', c.retry_max, 2),
    retryWaitMinS: num('RETRY_WAIT_MIN', c.retry_wait_min, 1),
  };
}

/**
 * Checks a backend block (`type` and its settings as synthesized) and fills in what the environment
 * gives. `stack` only names the stack in errors.
 */
export function parseBackend(
  block: { type: string; config: Record<string, unknown> } | undefined,
  env: Env,
  stack?: string,
): BackendSpec {
  if (!block) return { type: 'local', config: {} };
  switch (block.type) {
    case 'local':
      return { type: 'local', config: parseWith(LocalBackendSchema, 'local', block.config) };
    case 'pg':
      return { type: 'pg', config: pgConfig(block.config, env) };
    case 'http':
      return { type: 'http', config: httpConfig(block.config, env) };
    default:
      throw refusal(block.type, stack);
  }
}
