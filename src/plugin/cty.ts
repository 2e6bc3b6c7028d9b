/**
 * Terraform's values (cty) on the wire: msgpack (what Terraform sends and expects) and JSON (stored
 * state, and what a provider may answer with), always read and written against the schema's type, as
 * cty does. An unknown value is a msgpack extension (type 0, or 12 with refinements, which we accept
 * and drop); it becomes our UNKNOWN marker and back. Objects always carry every attribute of their
 * type (null when absent), in sorted order, or Terraform rejects them.
 */
import type { TerraformBlock, TerraformType } from '../provider/schema';
import { UNKNOWN, isUnknown } from '../provider/values';
import { MsgpackExt, MsgpackWriter, decodeMsgpack } from './msgpack';

export type CtyPrimitive = 'string' | 'number' | 'bool' | 'dynamic';
export type CtyType =
  | CtyPrimitive
  | ['list' | 'set' | 'map', CtyType]
  | ['object', Record<string, CtyType>]
  | ['tuple', CtyType[]];

export class CtyError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(path.length > 0 ? `${formatCtyPath(path)}: ${message}` : message);
    this.name = 'CtyError';
  }
}

function formatCtyPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Checks a Terraform schema type and gives it as a cty type. */
export function ctyType(t: TerraformType | unknown): CtyType {
  if (t === 'string' || t === 'number' || t === 'bool' || t === 'dynamic') return t;
  if (Array.isArray(t) && t.length === 2) {
    const [kind, inner] = t as [unknown, unknown];
    if (kind === 'list' || kind === 'set' || kind === 'map') return [kind, ctyType(inner)];
    if (kind === 'object' && inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const attrs: Record<string, CtyType> = {};
      for (const [k, v] of Object.entries(inner)) attrs[k] = ctyType(v);
      return ['object', attrs];
    }
    if (kind === 'tuple' && Array.isArray(inner)) return ['tuple', inner.map((e) => ctyType(e))];
  }
  throw new CtyError([], `unsupported type ${JSON.stringify(t)}`);
}

/** The object type a schema block implies: its attributes, and its nested blocks as objects, lists or sets. */
export function blockType(block: TerraformBlock): ['object', Record<string, CtyType>] {
  const attrs: Record<string, CtyType> = {};
  for (const [name, a] of Object.entries(block.attributes ?? {})) attrs[name] = ctyType(a.type);
  for (const [name, b] of Object.entries(block.block_types ?? {})) {
    const inner = blockType(b.block);
    attrs[name] = b.nesting_mode === 'single' ? inner : [b.nesting_mode, inner];
  }
  return ['object', attrs];
}

/** cty writes an unknown value as a one-byte extension of type 0. */
const UNKNOWN_PAYLOAD = new Uint8Array([0]);

const sortedKeys = (o: object): string[] => Object.keys(o).sort();

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets own enumerable properties safely, whatever the key (map keys come from users). */
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Infers the type of a plain value, for attributes of dynamic type. */
function inferType(v: unknown): CtyType {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return ['tuple', v.map(inferType)];
  if (isRecord(v)) {
    const attrs: Record<string, CtyType> = {};
    for (const [k, x] of Object.entries(v)) attrs[k] = inferType(x);
    return ['object', attrs];
  }
  return 'dynamic';
}

function asString(v: unknown, path: (string | number)[]): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // Free-form JSON attributes (zod unknown) are strings in the schema: they travel as their JSON text.
  if (typeof v === 'object') return JSON.stringify(v);
  throw new CtyError(path, `cannot use ${typeof v} as a string`);
}

function asNumber(v: unknown, path: (string | number)[]): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new CtyError(path, `cannot use ${JSON.stringify(v)} as a number`);
}

function asBool(v: unknown, path: (string | number)[]): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new CtyError(path, `cannot use ${JSON.stringify(v)} as a bool`);
}

function writeValue(w: MsgpackWriter, v: unknown, t: CtyType, path: (string | number)[]): void {
  if (v === null || v === undefined) return w.nil();
  if (isUnknown(v)) return w.ext(0, UNKNOWN_PAYLOAD);
  if (t === 'string') return w.str(asString(v, path));
  if (t === 'number') return w.number(asNumber(v, path));
  if (t === 'bool') return w.bool(asBool(v, path));
  if (t === 'dynamic') {
    const inferred = inferType(v);
    w.arrayHeader(2);
    w.bin(Buffer.from(JSON.stringify(inferred)));
    return writeValue(w, v, inferred, path);
  }
  const [kind, inner] = t;
  switch (kind) {
    case 'list':
    case 'set': {
      if (!Array.isArray(v)) throw new CtyError(path, `expected a ${kind}`);
      w.arrayHeader(v.length);
      v.forEach((e, i) => writeValue(w, e, inner, [...path, i]));
      return;
    }
    case 'tuple': {
      if (!Array.isArray(v) || v.length !== inner.length)
        throw new CtyError(path, `expected a tuple of ${inner.length}`);
      w.arrayHeader(v.length);
      v.forEach((e, i) => writeValue(w, e, inner[i]!, [...path, i]));
      return;
    }
    case 'map': {
      if (!isRecord(v)) throw new CtyError(path, 'expected a map');
      const keys = sortedKeys(v);
      w.mapHeader(keys.length);
      for (const k of keys) {
        w.str(k);
        writeValue(w, v[k], inner, [...path, k]);
      }
      return;
    }
    case 'object': {
      if (!isRecord(v)) throw new CtyError(path, 'expected an object');
      const keys = sortedKeys(inner);
      w.mapHeader(keys.length);
      for (const k of keys) {
        w.str(k);
        writeValue(w, v[k], inner[k]!, [...path, k]);
      }
      return;
    }
  }
}

/** Encodes a value of type `t` as cty msgpack; UNKNOWN anywhere becomes an unknown value. */
export function encodeMsgpackValue(v: unknown, t: CtyType): Buffer {
  const w = new MsgpackWriter();
  writeValue(w, v, t, []);
  return w.bytes();
}

function mapEntries(m: unknown, path: (string | number)[]): [string, unknown][] {
  if (!(m instanceof Map)) throw new CtyError(path, 'expected a msgpack map');
  const out: [string, unknown][] = [];
  for (const [k, v] of m) {
    if (typeof k !== 'string') throw new CtyError(path, 'map keys must be strings');
    out.push([k, v]);
  }
  return out;
}

function readValue(raw: unknown, t: CtyType, path: (string | number)[]): unknown {
  if (raw === null) return null;
  // Type 0 is a plain unknown; type 12 carries refinements (not null, prefix, ...) we have no use for.
  if (raw instanceof MsgpackExt) return UNKNOWN;
  if (t === 'string') {
    if (typeof raw === 'string') return raw;
    throw new CtyError(path, 'expected a string');
  }
  if (t === 'number') return asNumber(raw, path);
  if (t === 'bool') {
    if (typeof raw === 'boolean') return raw;
    throw new CtyError(path, 'expected a bool');
  }
  if (t === 'dynamic') {
    if (!Array.isArray(raw) || raw.length !== 2) throw new CtyError(path, 'expected [type, value]');
    const typeJson = raw[0] instanceof Uint8Array ? Buffer.from(raw[0]).toString('utf8') : raw[0];
    if (typeof typeJson !== 'string') throw new CtyError(path, 'expected the JSON of a type');
    const actual = ctyType(JSON.parse(typeJson));
    return readValue(raw[1], actual, path);
  }
  const [kind, inner] = t;
  switch (kind) {
    case 'list':
    case 'set':
      if (!Array.isArray(raw)) throw new CtyError(path, `expected a ${kind}`);
      return raw.map((e, i) => readValue(e, inner, [...path, i]));
    case 'tuple':
      if (!Array.isArray(raw) || raw.length !== inner.length)
        throw new CtyError(path, `expected a tuple of ${inner.length}`);
      return raw.map((e, i) => readValue(e, inner[i]!, [...path, i]));
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of mapEntries(raw, path)) setKey(out, k, readValue(v, inner, [...path, k]));
      return out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(inner)) out[k] = null;
      for (const [k, v] of mapEntries(raw, path)) {
        const at = inner[k];
        if (!at) throw new CtyError([...path, k], 'unsupported attribute');
        out[k] = readValue(v, at, [...path, k]);
      }
      return out;
    }
  }
}

/** Decodes cty msgpack of type `t`; unknown values become UNKNOWN, absent attributes null. */
export function decodeMsgpackValue(bytes: Uint8Array, t: CtyType): unknown {
  return readValue(decodeMsgpack(bytes), t, []);
}

function readJson(raw: unknown, t: CtyType, path: (string | number)[]): unknown {
  if (raw === null || raw === undefined) return null;
  if (t === 'string') {
    if (typeof raw === 'string') return raw;
    throw new CtyError(path, 'expected a string');
  }
  if (t === 'number') return asNumber(raw, path);
  if (t === 'bool') return asBool(raw, path);
  if (t === 'dynamic') {
    if (!isRecord(raw) || !('type' in raw)) throw new CtyError(path, 'expected {"value", "type"}');
    return readJson(raw['value'], ctyType(raw['type']), path);
  }
  const [kind, inner] = t;
  switch (kind) {
    case 'list':
    case 'set':
      if (!Array.isArray(raw)) throw new CtyError(path, `expected a ${kind}`);
      return raw.map((e, i) => readJson(e, inner, [...path, i]));
    case 'tuple':
      if (!Array.isArray(raw) || raw.length !== inner.length)
        throw new CtyError(path, `expected a tuple of ${inner.length}`);
      return raw.map((e, i) => readJson(e, inner[i]!, [...path, i]));
    case 'map': {
      if (!isRecord(raw)) throw new CtyError(path, 'expected a map');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(raw)) setKey(out, k, readJson(v, inner, [...path, k]));
      return out;
    }
    case 'object': {
      if (!isRecord(raw)) throw new CtyError(path, 'expected an object');
      const out: Record<string, unknown> = {};
      for (const [k, at] of Object.entries(inner)) out[k] = readJson(raw[k], at, [...path, k]);
      return out;
    }
  }
}

/**
 * Reads a JSON value (a DynamicValue's json, or stored state) as type `t`. Object attributes the type
 * does not have are dropped: stored state may hold attributes an older schema had.
 */
export function decodeJsonValue(json: unknown, t: CtyType): unknown {
  return readJson(json, t, []);
}

/** The JSON form of a known value of type `t` (strings for free-form attributes, like msgpack). */
export function encodeJsonValue(v: unknown, t: CtyType): unknown {
  return toJson(v, t, []);
}

function toJson(v: unknown, t: CtyType, path: (string | number)[]): unknown {
  if (v === null || v === undefined) return null;
  if (isUnknown(v)) throw new CtyError(path, 'unknown values cannot be written as JSON');
  if (t === 'string') return asString(v, path);
  if (t === 'number') return asNumber(v, path);
  if (t === 'bool') return asBool(v, path);
  if (t === 'dynamic') {
    const inferred = inferType(v);
    return { value: toJson(v, inferred, path), type: inferred };
  }
  const [kind, inner] = t;
  switch (kind) {
    case 'list':
    case 'set':
      if (!Array.isArray(v)) throw new CtyError(path, `expected a ${kind}`);
      return v.map((e, i) => toJson(e, inner, [...path, i]));
    case 'tuple':
      if (!Array.isArray(v)) throw new CtyError(path, 'expected a tuple');
      return v.map((e, i) => toJson(e, inner[i] ?? 'dynamic', [...path, i]));
    case 'map': {
      if (!isRecord(v)) throw new CtyError(path, 'expected a map');
      const out: Record<string, unknown> = {};
      for (const k of sortedKeys(v)) setKey(out, k, toJson(v[k], inner, [...path, k]));
      return out;
    }
    case 'object': {
      if (!isRecord(v)) throw new CtyError(path, 'expected an object');
      const out: Record<string, unknown> = {};
      for (const k of sortedKeys(inner)) out[k] = toJson(v[k], inner[k]!, [...path, k]);
      return out;
    }
  }
}
