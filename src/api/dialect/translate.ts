/**
 * Applies a dialect table to a JSON body, key by key into a new value (the input is never changed).
 * `toWire` renames neutral names to the wire's; `fromWire` the reverse.
 */
import { isJsonRecord, type JsonRecord } from '../json-record';
import {
  ARRAY_KINDS,
  FREE_FORM_KEYS,
  NAME_KEYED_MAPS,
  type DialectTable,
  type FieldRenames,
  type ObjectKind,
  type ValueRename,
} from './table';

export type Direction = 'toWire' | 'fromWire';

function invert(map: FieldRenames): FieldRenames {
  return Object.fromEntries(Object.entries(map).map(([a, b]) => [b, a]));
}

/** The table turned for one direction, computed once per table and direction. */
interface Oriented {
  readonly fields: Partial<Record<ObjectKind, FieldRenames>>;
  readonly values: Partial<Record<ObjectKind, readonly ValueRename[]>>;
}

const oriented = new WeakMap<DialectTable, Record<Direction, Oriented>>();

function orient(table: DialectTable, direction: Direction): Oriented {
  let both = oriented.get(table);
  if (!both) {
    const fields = (f: (m: FieldRenames) => FieldRenames): Oriented['fields'] =>
      Object.fromEntries(Object.entries(table.fields).map(([k, m]) => [k, f(m)]));
    const values = (f: (m: FieldRenames) => FieldRenames): Oriented['values'] =>
      Object.fromEntries(
        Object.entries(table.values).map(([k, list]) => [
          k,
          list.map((r) => ({ field: r.field, values: f(r.values) })),
        ]),
      );
    const same = (m: FieldRenames): FieldRenames => m;
    both = {
      toWire: { fields: fields(same), values: values(same) },
      fromWire: { fields: fields(invert), values: values(invert) },
    };
    oriented.set(table, both);
  }
  return both[direction];
}

export function translateBody(value: unknown, table: DialectTable, direction: Direction): unknown {
  return walk(value, 'any', orient(table, direction));
}

function walk(value: unknown, kind: ObjectKind, o: Oriented): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, kind, o));
  if (!isJsonRecord(value)) return value;
  const out: JsonRecord = {};
  for (const [key, v] of Object.entries(value)) {
    const name = o.fields[kind]?.[key] ?? o.fields.any?.[key] ?? key;
    out[name] = child(key, v, o);
  }
  for (const rename of o.values[kind] ?? []) {
    const v = out[rename.field];
    if (typeof v === 'string' && v in rename.values) out[rename.field] = rename.values[v];
  }
  return out;
}

function child(key: string, v: unknown, o: Oriented): unknown {
  if (FREE_FORM_KEYS.has(key)) return v;
  if (Array.isArray(v)) return walk(v, ARRAY_KINDS[key] ?? 'any', o);
  if (isJsonRecord(v) && NAME_KEYED_MAPS.has(key)) {
    return Object.fromEntries(Object.entries(v).map(([name, item]) => [name, walk(item, 'any', o)]));
  }
  return walk(v, 'any', o);
}
