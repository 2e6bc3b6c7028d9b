import { formatNumber, isObject, typeName, type HclObject, type HclValue } from './values';

/** A value could not be converted; the message reads like cty's ("a number is required"). */
export class ConvertError extends Error {}

/** cty's string conversion: numbers and bools become their text, collections are refused. */
export function toStr(v: HclValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  throw new ConvertError(
    v === null ? 'string required, but have null' : `string required, but have ${typeName(v)}`,
  );
}

const NUMERIC = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

export function toNum(v: HclValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMERIC.test(v.trim())) return Number(v.trim());
  if (typeof v === 'string') throw new ConvertError(`a number is required, but "${v}" is not a valid number`);
  throw new ConvertError(`a number is required, but have ${typeName(v)}`);
}

export function toBool(v: HclValue): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ConvertError(`a bool is required, but have ${typeName(v)}`);
}

export function toList(v: HclValue): HclValue[] {
  if (Array.isArray(v)) return v;
  throw new ConvertError(`a list is required, but have ${typeName(v)}`);
}

export function toMap(v: HclValue): HclObject {
  if (isObject(v)) return v;
  throw new ConvertError(`a map is required, but have ${typeName(v)}`);
}

/** A variable type constraint, as written in `type = ...` (HCL's typeexpr). */
export type TypeConstraint =
  | { kind: 'string' | 'number' | 'bool' | 'any' }
  | { kind: 'list' | 'set' | 'map'; elem: TypeConstraint }
  | { kind: 'object'; attrs: Record<string, TypeConstraint> }
  | { kind: 'tuple'; elems: TypeConstraint[] };

export function describeType(t: TypeConstraint): string {
  switch (t.kind) {
    case 'list':
    case 'set':
    case 'map':
      return `${t.kind} of ${describeType(t.elem)}`;
    case 'object':
      return 'object';
    case 'tuple':
      return 'tuple';
    default:
      return t.kind;
  }
}

/** Converts a value to a type constraint the way cty's convert package does for JSON-shaped data. */
export function convertTo(v: HclValue, t: TypeConstraint): HclValue {
  if (v === null || t.kind === 'any') return v;
  switch (t.kind) {
    case 'string':
      return toStr(v);
    case 'number':
      return toNum(v);
    case 'bool':
      return toBool(v);
    case 'list':
    case 'set': {
      if (!Array.isArray(v)) throw new ConvertError(`${describeType(t)} required`);
      const out = v.map((x) => convertTo(x, t.elem));
      if (t.kind === 'set')
        return out.filter((x, i) => out.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i);
      return out;
    }
    case 'map': {
      if (!isObject(v)) throw new ConvertError(`${describeType(t)} required`);
      const out: HclObject = {};
      for (const [k, x] of Object.entries(v)) out[k] = convertTo(x, t.elem);
      return out;
    }
    case 'object': {
      if (!isObject(v)) throw new ConvertError('object required');
      const out: HclObject = {};
      for (const [k, at] of Object.entries(t.attrs)) {
        if (!(k in v)) throw new ConvertError(`attribute "${k}" is required`);
        out[k] = convertTo(v[k] as HclValue, at);
      }
      return out;
    }
    case 'tuple': {
      if (!Array.isArray(v) || v.length !== t.elems.length)
        throw new ConvertError(`tuple of ${t.elems.length} elements required`);
      return v.map((x, i) => convertTo(x, t.elems[i] as TypeConstraint));
    }
  }
}

/** Go's time.ParseDuration, returning nanoseconds. */
export function parseGoDuration(text: string): number {
  const bad = (): ConvertError => new ConvertError(`time: invalid duration "${text}"`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw bad();
  const units: Record<string, number> = {
    ns: 1,
    us: 1e3,
    µs: 1e3,
    μs: 1e3,
    ms: 1e6,
    s: 1e9,
    m: 60e9,
    h: 3600e9,
  };
  let total = 0;
  // µ (micro sign) and μ (Greek mu) escaped: one non-ASCII character makes Node decode the
  // whole bundle into a two-byte string at every start (tens of ms for the command line's bundle).
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) {
      if (/^(\d+(?:\.\d*)?|\.\d+)$/.test(s))
        throw new ConvertError(`time: missing unit in duration "${text}"`);
      throw bad();
    }
    total += Number(m[1]) * (units[m[2] as string] as number);
    s = s.slice(m[0].length);
  }
  return sign * Math.round(total);
}
