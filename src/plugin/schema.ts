/**
 * GetProviderSchema's answer, converted from the very schema JSON the construct generator uses
 * (`providerSchemaJson`, built from the zod shapes), so Terraform and the generated constructs cannot
 * disagree. Also keeps, per type, the cty type its values are read and written with.
 */
import type { TerraformBlock } from '../provider/schema';
import { providerSchemaJson, type ProviderShapes, type TerraformSchema } from '../provider/terraform-schema';
import { blockType, type CtyType } from './cty';

export interface ProtoAttribute {
  name: string;
  type: Buffer;
  description: string;
  description_kind: 'PLAIN';
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  deprecated: boolean;
}

export interface ProtoBlock {
  version: number;
  attributes: ProtoAttribute[];
  block_types: ProtoNestedBlock[];
  description: string;
  description_kind: 'PLAIN';
  deprecated: boolean;
}

export interface ProtoNestedBlock {
  type_name: string;
  block: ProtoBlock;
  nesting: 'SINGLE' | 'LIST' | 'SET';
  min_items: number;
  max_items: number;
}

export interface ProtoSchema {
  version: number;
  block: ProtoBlock;
}

const byName = <T>(record: Record<string, T> | undefined): [string, T][] =>
  Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function protoBlock(block: TerraformBlock, version = 0): ProtoBlock {
  return {
    version,
    attributes: byName(block.attributes).map(([name, a]) => ({
      name,
      type: Buffer.from(JSON.stringify(a.type)),
      description: a.description ?? '',
      description_kind: 'PLAIN',
      required: a.required === true,
      optional: a.optional === true,
      computed: a.computed === true,
      sensitive: a.sensitive === true,
      deprecated: a.deprecated === true,
    })),
    block_types: byName(block.block_types).map(([name, b]) => ({
      type_name: name,
      block: protoBlock(b.block),
      nesting: b.nesting_mode === 'single' ? 'SINGLE' : b.nesting_mode === 'list' ? 'LIST' : 'SET',
      min_items: b.min_items ?? 0,
      max_items: b.max_items ?? 0,
    })),
    description: block.description ?? '',
    description_kind: 'PLAIN',
    deprecated: false,
  };
}

export function protoSchema(schema: TerraformSchema): ProtoSchema {
  return { version: schema.version, block: protoBlock(schema.block, schema.version) };
}

/** One schema with what the codecs need: the block (flags per attribute) and its cty type. */
export interface TypedSchema {
  version: number;
  block: TerraformBlock;
  type: CtyType;
}

export interface ProviderSchemas {
  provider: TypedSchema;
  resources: Record<string, TypedSchema>;
  dataSources: Record<string, TypedSchema>;
}

function typed(s: TerraformSchema): TypedSchema {
  return { version: s.version, block: s.block, type: blockType(s.block) };
}

export function providerSchemas(shapes: ProviderShapes): ProviderSchemas {
  const json = providerSchemaJson(shapes);
  const map = (r: Record<string, TerraformSchema>): Record<string, TypedSchema> =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typed(v)]));
  return {
    provider: typed(json.provider),
    resources: map(json.resource_schemas),
    dataSources: map(json.data_source_schemas),
  };
}

/** The GetProviderSchema response body (without diagnostics and capabilities). */
export function protoProviderSchema(shapes: ProviderShapes): {
  provider: ProtoSchema;
  resource_schemas: Record<string, ProtoSchema>;
  data_source_schemas: Record<string, ProtoSchema>;
} {
  const json = providerSchemaJson(shapes);
  const map = (r: Record<string, TerraformSchema>): Record<string, ProtoSchema> =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, protoSchema(v)]));
  return {
    provider: protoSchema(json.provider),
    resource_schemas: map(json.resource_schemas),
    data_source_schemas: map(json.data_source_schemas),
  };
}
