/**
 * The plan JSON's `configuration`: terraform's configuration representation (internal/command/jsonconfig)
 * of one stack, built from the parsed cdk.tf.json. For JSON syntax terraform writes every attribute as
 * its JSON value as written (`constant_value`, templates unevaluated) plus the references it makes;
 * nested blocks (by the provider's schema) become arrays, or an object for a single block.
 *
 * Difference from terraform, on purpose: terraform prints the default of a sensitive variable and a
 * literal written for a sensitive attribute or output. We leave those out (a template's source and
 * its references stay, as terraform prints them).
 */
import { jsonToExpr } from '../../config/json-expr';
import { PROVIDER_META, RESOURCE_META } from '../../config/parse';
import type { OutputConfig, ResourceConfig, StackConfig, VariableConfig } from '../../config/types';
import { providerAddress } from '../../config/types';
import { findReferences, formatReference, type Reference } from '../../expressions/references';
import type { TerraformBlock } from '../../../provider/schema';
import { providerFqn } from '../../state/format';
import type { Json } from './types';

/** What the configuration needs of the providers: a resource type's schema and version. */
export interface SchemaSource {
  block(provider: string, type: string): TerraformBlock | undefined;
  providerBlock(provider: string): TerraformBlock | undefined;
  schemaVersion(provider: string, type: string): number;
}

/** terraform's reference list: the full traversal, then each shorter one, then the containing resource. */
function referenceStrings(ref: Reference): string[] {
  if (ref.kind !== 'resource') return [formatReference(ref)];
  const out: string[] = [];
  for (let n = ref.path.length; n >= 0; n--)
    out.push(formatReference({ ...ref, path: ref.path.slice(0, n) }));
  if (ref.key !== undefined) out.push(formatReference({ ...ref, path: [], key: undefined } as Reference));
  return out;
}

/**
 * One expression: `{constant_value}` as written, `{references}` when it refers to anything. A sensitive
 * one keeps its written form only when it refers to something (then it is the template's source, not
 * the secret): a literal written there is the secret itself.
 */
export function expressionJson(raw: unknown, opts: { sensitive?: boolean } = {}): Json {
  const refs = findReferences(jsonToExpr(raw, { ctx: { address: '' }, diagnostics: [] })).flatMap(
    referenceStrings,
  );
  const hide = opts.sensitive === true && refs.length === 0;
  return {
    ...(hide ? {} : { constant_value: (raw ?? null) as Json }),
    ...(refs.length > 0 ? { references: refs } : {}),
  };
}

/** Inside a nested block every key is an argument (a task group's `count` is its own). */
const NO_META: ReadonlySet<string> = new Set();

function blockList(raw: unknown): Record<string, unknown>[] {
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((b): b is Record<string, unknown> => b !== null && typeof b === 'object');
}

/** A body's attributes and nested blocks, in key order as terraform's map is. */
export function expressionsJson(
  body: Record<string, unknown>,
  schema?: TerraformBlock,
  meta: ReadonlySet<string> = RESOURCE_META,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const key of Object.keys(body).sort()) {
    if (meta.has(key)) continue;
    const nested = schema?.block_types?.[key];
    if (nested) {
      const blocks = blockList(body[key]).map((b) => expressionsJson(b, nested.block, NO_META));
      out[key] = nested.nesting_mode === 'single' ? (blocks[0] ?? {}) : blocks;
      continue;
    }
    out[key] = expressionJson(body[key], { sensitive: schema?.attributes?.[key]?.sensitive === true });
  }
  return out;
}

function dependsOn(raw: unknown): { depends_on?: Json } {
  if (!Array.isArray(raw) || raw.length === 0) return {};
  return { depends_on: raw.map((d) => String(d).replace(/^\$\{(.*)\}$/, '$1')) };
}

function resourceJson(r: ResourceConfig, schemas: SchemaSource): Json {
  return {
    address: r.address,
    mode: r.mode,
    type: r.type,
    name: r.name,
    provider_config_key: providerAddress(r.provider),
    expressions: expressionsJson(r.raw, schemas.block(r.provider.name, r.type)),
    schema_version: schemas.schemaVersion(r.provider.name, r.type),
    ...(r.raw['count'] !== undefined ? { count_expression: expressionJson(r.raw['count']) } : {}),
    ...(r.raw['for_each'] !== undefined ? { for_each_expression: expressionJson(r.raw['for_each']) } : {}),
    ...dependsOn(r.raw['depends_on']),
  };
}

function outputJson(o: OutputConfig): Json {
  return {
    ...(o.sensitive ? { sensitive: true } : {}),
    expression: expressionJson(o.raw['value'], { sensitive: o.sensitive }),
    ...(o.description ? { description: o.description } : {}),
    ...dependsOn(o.raw['depends_on']),
  };
}

function variableJson(v: VariableConfig): Json {
  return {
    ...(v.hasDefault && !v.sensitive ? { default: (v.default ?? null) as Json } : {}),
    ...(v.description ? { description: v.description } : {}),
    ...(v.sensitive ? { sensitive: true } : {}),
  };
}

function providerConfigJson(config: StackConfig, schemas: SchemaSource): Record<string, Json> {
  const out: Record<string, Json> = {};
  const names = new Set(
    [...config.resources.values(), ...config.dataSources.values()].map((r) => r.provider),
  );
  for (const p of config.providers.values()) names.add(p);
  for (const p of names) {
    const key = providerAddress(p);
    if (out[key]) continue;
    const declared = config.providers.get(key);
    const exprs = declared ? expressionsJson(declared.raw, schemas.providerBlock(p.name), PROVIDER_META) : {};
    const version = config.requiredProviders[p.name]?.version;
    out[key] = {
      name: p.name,
      full_name: providerFqn(config.requiredProviders[p.name]?.source ?? p.name),
      ...(p.alias ? { alias: p.alias } : {}),
      ...(version ? { version_constraint: version } : {}),
      ...(Object.keys(exprs).length > 0 ? { expressions: exprs } : {}),
    };
  }
  return out;
}

/** The stack's configuration in terraform's form. */
export function configurationJson(config: StackConfig, schemas: SchemaSource): Json {
  const byAddress = <T>(m: Map<string, T>): [string, T][] =>
    [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const resources = [...byAddress(config.resources), ...byAddress(config.dataSources)].map(([, r]) =>
    resourceJson(r, schemas),
  );
  const outputs: Record<string, Json> = {};
  for (const [name, o] of byAddress(config.outputs)) outputs[name] = outputJson(o);
  const variables: Record<string, Json> = {};
  for (const [name, v] of byAddress(config.variables)) variables[name] = variableJson(v);
  return {
    provider_config: providerConfigJson(config, schemas),
    root_module: {
      ...(Object.keys(outputs).length > 0 ? { outputs } : {}),
      ...(resources.length > 0 ? { resources } : {}),
      ...(Object.keys(variables).length > 0 ? { variables } : {}),
    },
  };
}
