/**
 * One source of truth for a resource's attributes: a zod object whose fields carry Terraform
 * metadata (required/optional/computed, sensitive, forces replacement, nested blocks). From it come
 * the TypeScript types, config validation, the Terraform provider schema JSON (for the construct
 * generator and GetProviderSchema), and the list of sensitive paths the renderers mask.
 */
import { z } from 'zod';

export interface AttrMeta {
  description?: string;
  /** Set by the user (optional unless required). */
  required?: boolean;
  optional?: boolean;
  /** Set by the provider; with optional, the user may set it too. */
  computed?: boolean;
  sensitive?: boolean;
  /** A change replaces the object (Terraform's RequiresReplace). */
  forceNew?: boolean;
  /** Rendered as a nested block (`namespace_rule { ... }`) instead of an attribute. */
  block?: 'list' | 'set' | 'single';
  maxItems?: number;
  deprecated?: string;
}

/** Registry of attribute metadata keyed by zod schema instance. */
export const attrMeta = z.registry<AttrMeta>();

/**
 * Tags a zod schema with its Terraform metadata and returns it. Metadata is keyed by schema
 * instance, so a schema already tagged (one shared by two attributes) is cloned first: each
 * attribute keeps its own description.
 */
export function attr<S extends z.ZodType>(schema: S, meta: AttrMeta): S {
  const target = attrMeta.has(schema) ? (schema.clone() as S) : schema;
  attrMeta.add(target, meta);
  return target;
}

export type TerraformType = string | [string, TerraformType] | ['object', Record<string, TerraformType>];

export interface TerraformAttribute {
  type: TerraformType;
  description?: string;
  description_kind?: 'plain';
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
}

export interface TerraformBlock {
  attributes?: Record<string, TerraformAttribute>;
  block_types?: Record<
    string,
    { nesting_mode: 'list' | 'set' | 'single'; block: TerraformBlock; max_items?: number; min_items?: number }
  >;
  description?: string;
  description_kind?: 'plain';
}

function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (;;) {
    const def = (cur as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType)
      cur = def.innerType;
    else return cur;
  }
}

function metaOf(s: z.ZodType): AttrMeta {
  let cur: z.ZodType | undefined = s;
  while (cur) {
    const m = attrMeta.get(cur);
    if (m) return m;
    const inner: z.ZodType | undefined = (cur as unknown as { def: { innerType?: z.ZodType } }).def.innerType;
    cur = inner;
  }
  return {};
}

export function terraformType(s: z.ZodType): TerraformType {
  const inner = unwrap(s);
  const def = (
    inner as unknown as {
      def: { type: string; element?: z.ZodType; valueType?: z.ZodType; shape?: Record<string, z.ZodType> };
    }
  ).def;
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'literal':
      return 'string';
    case 'number':
    case 'int':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'array':
      return ['list', terraformType(def.element!)];
    case 'record':
      return ['map', terraformType(def.valueType!)];
    case 'object': {
      const fields: Record<string, TerraformType> = {};
      for (const [k, v] of Object.entries(def.shape ?? {})) fields[k] = terraformType(v);
      return ['object', fields];
    }
    default:
      // Free-form JSON (unknown/any) travels as a JSON string attribute.
      return 'string';
  }
}

/** Builds the Terraform schema block of a resource from its zod object. */
export function terraformBlock(shape: Record<string, z.ZodType>, description?: string): TerraformBlock {
  const block: TerraformBlock = { attributes: {}, block_types: {} };
  if (description) {
    block.description = description;
    block.description_kind = 'plain';
  }
  for (const [name, schema] of Object.entries(shape)) {
    const m = metaOf(schema);
    if (m.block) {
      const inner = unwrap(schema);
      const def = (
        inner as unknown as { def: { type: string; element?: z.ZodType; shape?: Record<string, z.ZodType> } }
      ).def;
      const obj = def.type === 'array' ? unwrap(def.element!) : inner;
      const objShape = (obj as unknown as { def: { shape: Record<string, z.ZodType> } }).def.shape;
      block.block_types![name] = {
        nesting_mode: m.block,
        block: terraformBlock(objShape, m.description),
        ...(m.maxItems ? { max_items: m.maxItems } : {}),
      };
      continue;
    }
    const a: TerraformAttribute = { type: terraformType(schema), description_kind: 'plain' };
    if (m.description) a.description = m.description;
    if (m.required) a.required = true;
    else if (m.computed && !m.optional) a.computed = true;
    else {
      a.optional = true;
      if (m.computed) a.computed = true;
    }
    if (m.sensitive) a.sensitive = true;
    if (m.deprecated) a.deprecated = true;
    block.attributes![name] = a;
  }
  if (Object.keys(block.block_types!).length === 0) delete block.block_types;
  return block;
}

/** Attribute paths (top-level names) that must be masked. */
export function sensitiveAttributes(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, s]) => metaOf(s).sensitive)
    .map(([k]) => k);
}

/** Attributes whose change forces replacement. */
export function forceNewAttributes(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, s]) => metaOf(s).forceNew)
    .map(([k]) => k);
}

/** Attributes only the provider sets (not user-settable). */
export function computedOnlyAttributes(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, s]) => {
      const m = metaOf(s);
      return m.computed && !m.optional && !m.required;
    })
    .map(([k]) => k);
}

export { metaOf };
