import type { Block } from './ast';
import type { EvalContext } from './evaluate';

/** Scalar conversions applied to attribute values, following gohcl/cty rules. */
export type ValueType = 'string' | 'int' | 'number' | 'bool' | 'duration' | 'stringList' | 'any';

/** A decoded struct: API field name to value (only fields the jobspec set). */
export type Decoded = Record<string, unknown>;

export type FieldSpec =
  | { kind: 'attr'; name: string; field: string; type: ValueType; required?: boolean }
  /** A nested block: one (`single`), many (`list`) or keyed by its first label (`map`). */
  | { kind: 'block'; name: string; field: string; schema: StructSchema; mode: 'single' | 'list' | 'map' }
  /** `meta`, `env`, `options`: a map of strings, as a block or as an attribute. */
  | { kind: 'stringMap'; name: string; field: string }
  /** `header`: a map of string lists, as a block. */
  | { kind: 'listMap'; name: string; field: string }
  /** Driver `config` and similar: free-form, nested blocks become lists of maps. */
  | { kind: 'freeform'; name: string; field: string };

export interface StructSchema {
  fields: FieldSpec[];
  /** API fields receiving the block labels, in order; also the label count the block requires. */
  labels?: string[];
  /** Rewrites the decoded struct (shorthand attributes, defaults jobspec2 applies while parsing). */
  post?: (out: Decoded, info: { block: Block | undefined; ctx: EvalContext }) => void;
}

export const attr = (name: string, field: string, type: ValueType, required = false): FieldSpec => ({
  kind: 'attr',
  name,
  field,
  type,
  required,
});

export const single = (name: string, field: string, schema: StructSchema): FieldSpec => ({
  kind: 'block',
  name,
  field,
  schema,
  mode: 'single',
});

export const many = (name: string, field: string, schema: StructSchema): FieldSpec => ({
  kind: 'block',
  name,
  field,
  schema,
  mode: 'list',
});

export const keyed = (name: string, field: string, schema: StructSchema): FieldSpec => ({
  kind: 'block',
  name,
  field,
  schema,
  mode: 'map',
});

export const stringMap = (name: string, field: string): FieldSpec => ({ kind: 'stringMap', name, field });
export const listMap = (name: string, field: string): FieldSpec => ({ kind: 'listMap', name, field });
export const freeform = (name: string, field: string): FieldSpec => ({ kind: 'freeform', name, field });

/** Turns a `Temp` field into nothing and returns its value (for shorthand attributes). */
export function take(out: Decoded, field: string): unknown {
  const v = out[field];
  delete out[field];
  return v;
}
