/**
 * The on-disk shape of Terraform's state format version 4 (internal/states/statefile/version4.go),
 * so that `terraform state pull/push` and our engine can hand the same file back and forth.
 * Reading is lenient (unknown fields are kept); writing follows Terraform's field names, order
 * and omissions.
 */
import { z } from 'zod';
import type { AttrPath } from '../../provider/values';

export const STATE_FORMAT_VERSION = 4;
/**
 * Written as terraform_version. Some Terraform releases refuse a state claiming a newer version
 * than themselves, so this stays at a release every supported Terraform is at least as new as.
 */
export const DEFAULT_TERRAFORM_VERSION = '1.5.0';
export const PROVIDER_REGISTRY = 'registry.terraform.io';
export const PROVIDER_NAMESPACE = 'cdktf-sched';

const PathStepSchema = z.union([
  z.looseObject({ type: z.literal('get_attr'), value: z.string() }),
  z.looseObject({
    type: z.literal('index'),
    value: z.looseObject({ value: z.unknown(), type: z.unknown() }),
  }),
]);
export type PathStepV4 = z.infer<typeof PathStepSchema>;

/**
 * A JSON object taken as it is: z.record would rebuild it key by key, which costs a large state's
 * load time and leaves V8 a hash table per instance (five times the memory of the parsed object).
 */
const JsonObjectSchema = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'must be a JSON object',
);

export const InstanceV4Schema = z.looseObject({
  index_key: z.union([z.number().int().nonnegative(), z.string()]).optional(),
  status: z.literal('tainted').optional(),
  deposed: z.string().optional(),
  schema_version: z.number().int().nonnegative(),
  attributes: JsonObjectSchema.optional(),
  attributes_flat: z.record(z.string(), z.string()).optional(),
  sensitive_attributes: z.array(z.array(PathStepSchema)).optional(),
  /** Go []byte: base64. */
  private: z.string().optional(),
  dependencies: z.array(z.string()).optional(),
  create_before_destroy: z.boolean().optional(),
});
export type InstanceV4 = z.infer<typeof InstanceV4Schema>;

export const ResourceV4Schema = z.looseObject({
  module: z.string().optional(),
  mode: z.enum(['managed', 'data']),
  type: z.string().min(1),
  name: z.string().min(1),
  each: z.string().optional(),
  provider: z.string().min(1),
  instances: z.array(InstanceV4Schema),
});
export type ResourceV4 = z.infer<typeof ResourceV4Schema>;

export const OutputV4Schema = z.looseObject({
  value: z.unknown(),
  type: z.unknown(),
  sensitive: z.boolean().optional(),
});
export type OutputV4 = z.infer<typeof OutputV4Schema>;

export const StateV4Schema = z.looseObject({
  version: z.literal(STATE_FORMAT_VERSION),
  terraform_version: z.string(),
  serial: z.number().int().nonnegative(),
  lineage: z.string(),
  outputs: z.record(z.string(), OutputV4Schema).nullish(),
  resources: z.array(ResourceV4Schema).nullish(),
  check_results: z.unknown().optional(),
});
export type StateV4 = z.infer<typeof StateV4Schema>;

/** `provider["registry.terraform.io/cdktf-sched/sched"]`, with `.alias` for an aliased configuration. */
export function providerConfigAddress(providerName: string, alias?: string): string {
  return `provider[${JSON.stringify(providerFqn(providerName))}]${alias ? `.${alias}` : ''}`;
}

/** Terraform's built-in provider, which terraform records under this source, not a registry's. */
export const BUILTIN_TERRAFORM_SOURCE = 'terraform.io/builtin/terraform';

/** A provider's fully qualified source: `registry.terraform.io/cdktf-sched/sched`, or the built-in's. */
export function providerFqn(providerName: string): string {
  if (providerName === 'terraform') return BUILTIN_TERRAFORM_SOURCE;
  const source = providerName.includes('/') ? providerName : `${PROVIDER_NAMESPACE}/${providerName}`;
  return source.split('/').length === 3 ? source : `${PROVIDER_REGISTRY}/${source}`;
}

/** The provider a resource type belongs to by Terraform's naming rule (prefix before the first `_`). */
export function defaultProviderFor(resourceType: string, alias?: string): string {
  const local = resourceType.split('_')[0] ?? resourceType;
  return providerConfigAddress(local, alias);
}

/** Full provider source (`registry.terraform.io/cdktf-sched/sched`) from a provider config address. */
export function providerSource(configAddress: string): string {
  const m = /^provider\["([^"]+)"\]/.exec(configAddress);
  return m ? m[1]! : configAddress;
}

/**
 * Our paths carry no type information, so strings become attribute steps and numbers index steps.
 * Sensitive attributes are top-level names in this provider, where that is exact.
 */
export function encodePath(path: AttrPath): PathStepV4[] {
  return path.map((p) =>
    typeof p === 'number'
      ? { type: 'index' as const, value: { value: p, type: 'number' } }
      : { type: 'get_attr' as const, value: p },
  );
}

export function decodePath(steps: PathStepV4[]): AttrPath {
  return steps.map((s) => {
    if (s.type === 'get_attr') return s.value;
    const v = s.value.value;
    return typeof v === 'number' ? v : String(v);
  });
}

/** Terraform's JSON type notation for a JSON value, as cty would infer it for an output. */
export function impliedType(value: unknown): unknown {
  if (value === null || value === undefined) return 'dynamic';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return ['tuple', value.map(impliedType)];
  if (typeof value === 'object') {
    const fields: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) fields[k] = impliedType((value as Record<string, unknown>)[k]);
    return ['object', fields];
  }
  return 'dynamic';
}

/** Copies a JSON value with object keys sorted at every level, as cty marshals objects. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeysDeep((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}
