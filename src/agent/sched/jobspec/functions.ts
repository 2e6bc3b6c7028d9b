import { randomUUID } from 'node:crypto';
import * as shared from '../../../hcl/functions';
import { compileRe2, Re2SyntaxError, type Re2 } from '../../../common/re2';
import { re2ReplaceAll } from '../../../common/re2-replace';
import { ConvertError, toBool, toList, toMap, toNum, toStr } from './convert';
import { deepEqual, formatNumber, isObject, sortedObject, type HclObject, type HclValue } from './values';

/** A function rejected its arguments; the evaluator adds the call's position. */
export class FunctionError extends Error {}

type Fn = (args: HclValue[]) => HclValue;

function arity(name: string, args: HclValue[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw new FunctionError(`function "${name}" expects ${want} argument(s), got ${args.length}`);
  }
}

function fn1<T>(name: string, conv: (v: HclValue) => T, f: (a: T) => HclValue): Fn {
  return (args) => {
    arity(name, args, 1);
    return f(conv(args[0] as HclValue));
  };
}

const str = (name: string, f: (s: string) => HclValue): Fn => fn1(name, toStr, f);
const num = (name: string, f: (n: number) => HclValue): Fn => fn1(name, toNum, f);

function jsonOf(v: HclValue): string {
  return JSON.stringify(v);
}

function fromJson(v: unknown): HclValue {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === 'object')
    return sortedObject(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fromJson(x)]));
  throw new FunctionError('unsupported JSON value');
}

/** Go's fmt verbs as cty's format() supports them. */
function format(fmt: string, args: HclValue[]): string {
  let out = '';
  let argi = 0;
  const re = /%([-+ #0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g;
  let last = 0;
  for (let m = re.exec(fmt); m; m = re.exec(fmt)) {
    out += fmt.slice(last, m.index);
    last = re.lastIndex;
    const [, flags = '', widthS, precS, verb] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) throw new FunctionError(`not enough arguments for "%${verb}" at ${m.index}`);
    const arg = args[argi++] as HclValue;
    const prec = precS === undefined ? undefined : Number(precS);
    let s: string;
    switch (verb) {
      case 'v':
        s =
          flags.includes('#') || (typeof arg === 'object' && arg !== null)
            ? jsonOf(arg)
            : arg === null
              ? 'null'
              : toStr(arg);
        break;
      case 's':
        s = toStr(arg);
        if (prec !== undefined) s = [...s].slice(0, prec).join('');
        break;
      case 'q':
        s = JSON.stringify(toStr(arg));
        break;
      case 't':
        s = String(toBool(arg));
        break;
      case 'd':
        s = String(Math.trunc(toNum(arg)));
        break;
      case 'b':
        s = Math.trunc(toNum(arg)).toString(2);
        break;
      case 'o':
        s = Math.trunc(toNum(arg)).toString(8);
        break;
      case 'x':
      case 'X':
        s = typeof arg === 'string' ? Buffer.from(arg).toString('hex') : Math.trunc(toNum(arg)).toString(16);
        if (verb === 'X') s = s.toUpperCase();
        break;
      case 'e':
      case 'E':
        s = toNum(arg)
          .toExponential(prec ?? 6)
          .replace(/e([+-])(\d)$/, 'e$10$2');
        if (verb === 'E') s = s.toUpperCase();
        break;
      case 'f':
      case 'F':
        s = toNum(arg).toFixed(prec ?? 6);
        break;
      case 'g':
      case 'G':
        s = prec === undefined ? formatNumber(toNum(arg)) : String(Number(toNum(arg).toPrecision(prec)));
        break;
      default:
        throw new FunctionError(`unsupported format verb "%${verb}"`);
    }
    if (flags.includes('+') && /^[0-9]/.test(s) && 'dfeEgG'.includes(verb as string)) s = '+' + s;
    const width = widthS === undefined ? 0 : Number(widthS);
    if (s.length < width) {
      if (flags.includes('-')) s = s.padEnd(width);
      else if (flags.includes('0') && 'dfeEgGbox'.includes(verb as string)) {
        const neg = /^[-+]/.test(s) ? (s[0] as string) : '';
        s = neg + s.slice(neg.length).padStart(width - neg.length, '0');
      } else s = s.padStart(width);
    }
    out += s;
  }
  out += fmt.slice(last);
  if (argi < args.length) throw new FunctionError(`too many arguments; only ${argi} used by format string`);
  return out;
}

/** `/re/` in replace() is a regular expression, as in cty. */
/** Jobspec patterns are Go's (RE2): linear time, whatever the job says. */
function toRegex(pattern: string): Re2 {
  try {
    return compileRe2(pattern);
  } catch (e) {
    if (e instanceof Re2SyntaxError) throw new FunctionError(`invalid regular expression: ${e.message}`);
    throw e;
  }
}

function flatten(v: HclValue[]): HclValue[] {
  return v.flatMap((x) => (Array.isArray(x) ? flatten(x) : [x]));
}

function distinct(v: HclValue[]): HclValue[] {
  return v.filter((x, i) => v.findIndex((y) => deepEqual(x, y)) === i);
}

const FUNCTIONS: Record<string, Fn> = {
  abs: num('abs', Math.abs),
  ceil: num('ceil', Math.ceil),
  floor: num('floor', Math.floor),
  signum: num('signum', Math.sign),
  log: (a) => {
    arity('log', a, 2);
    return Math.log(toNum(a[0] as HclValue)) / Math.log(toNum(a[1] as HclValue));
  },
  pow: (a) => {
    arity('pow', a, 2);
    return Math.pow(toNum(a[0] as HclValue), toNum(a[1] as HclValue));
  },
  max: (a) => {
    arity('max', a, 1, Infinity);
    return Math.max(...a.map(toNum));
  },
  min: (a) => {
    arity('min', a, 1, Infinity);
    return Math.min(...a.map(toNum));
  },
  parseint: (a) => {
    arity('parseint', a, 2);
    const base = toNum(a[1] as HclValue);
    const s = toStr(a[0] as HclValue);
    const n = parseInt(s, base);
    if (Number.isNaN(n) || !new RegExp(`^[-+]?[0-9a-z]+$`, 'i').test(s))
      throw new FunctionError(`cannot parse "${s}" as a base ${base} integer`);
    return n;
  },
  upper: str('upper', shared.upper),
  lower: str('lower', shared.lower),
  title: str('title', (s) => s.replace(/(^|\s)(\S)/g, (_m, sp: string, c: string) => sp + c.toUpperCase())),
  chomp: str('chomp', (s) => s.replace(/(\r?\n)+$/, '')),
  trimspace: str('trimspace', (s) => s.trim()),
  strrev: str('strrev', shared.strrev),
  strlen: str('strlen', (s) => [...s].length),
  base64encode: str('base64encode', shared.base64Encode),
  base64decode: str('base64decode', (s) => {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0)
      throw new FunctionError('failed to decode base64 data');
    return Buffer.from(s, 'base64').toString('utf8');
  }),
  urlencode: str('urlencode', (s) => encodeURIComponent(s).replace(/%20/g, '+')),
  md5: str('md5', (s) => shared.hashHex('md5', s)),
  sha1: str('sha1', (s) => shared.hashHex('sha1', s)),
  sha256: str('sha256', (s) => shared.hashHex('sha256', s)),
  sha512: str('sha512', (s) => shared.hashHex('sha512', s)),
  uuidv4: (a) => {
    arity('uuidv4', a, 0);
    return randomUUID();
  },
  jsonencode: (a) => {
    arity('jsonencode', a, 1);
    return jsonOf(a[0] as HclValue);
  },
  jsondecode: str('jsondecode', (s) => {
    try {
      return fromJson(JSON.parse(s));
    } catch (e) {
      if (e instanceof FunctionError) throw e;
      throw new FunctionError(`invalid JSON: ${(e as Error).message}`);
    }
  }),
  format: (a) => {
    arity('format', a, 1, Infinity);
    return format(toStr(a[0] as HclValue), a.slice(1));
  },
  formatlist: (a) => {
    arity('formatlist', a, 1, Infinity);
    const fmt = toStr(a[0] as HclValue);
    const rest = a.slice(1);
    const lens = rest.filter(Array.isArray).map((x) => (x as HclValue[]).length);
    if (new Set(lens).size > 1) throw new FunctionError('all lists must have the same length');
    const n = lens[0] ?? 1;
    return Array.from({ length: n }, (_, i) =>
      format(
        fmt,
        rest.map((x) => (Array.isArray(x) ? (x[i] as HclValue) : x)),
      ),
    );
  },
  indent: (a) => {
    arity('indent', a, 2);
    const pad = ' '.repeat(toNum(a[0] as HclValue));
    return toStr(a[1] as HclValue).replace(/\n/g, '\n' + pad);
  },
  join: (a) => {
    arity('join', a, 2, Infinity);
    const sep = toStr(a[0] as HclValue);
    return a
      .slice(1)
      .flatMap((l) => toList(l))
      .map((x) => {
        if (x === null) throw new FunctionError('element is null; cannot concatenate null values');
        return toStr(x);
      })
      .join(sep);
  },
  split: (a) => {
    arity('split', a, 2);
    return toStr(a[1] as HclValue).split(toStr(a[0] as HclValue));
  },
  replace: (a) => {
    arity('replace', a, 3);
    const [s, sub, rep] = a.map(toStr) as [string, string, string];
    if (sub.length > 1 && sub.startsWith('/') && sub.endsWith('/'))
      return re2ReplaceAll(toRegex(sub.slice(1, -1)), s, rep);
    return s.split(sub).join(rep);
  },
  regex_replace: (a) => {
    arity('regex_replace', a, 3);
    const [s, re, rep] = a.map(toStr) as [string, string, string];
    return re2ReplaceAll(toRegex(re), s, rep);
  },
  substr: (a) => {
    arity('substr', a, 3);
    const chars = [...toStr(a[0] as HclValue)];
    let off = toNum(a[1] as HclValue);
    const len = toNum(a[2] as HclValue);
    if (off < 0) off = Math.max(0, chars.length + off);
    return chars.slice(off, len < 0 ? undefined : off + len).join('');
  },
  trim: (a) => {
    arity('trim', a, 2);
    const cutset = toStr(a[1] as HclValue);
    return shared.trimCutset(toStr(a[0] as HclValue), cutset);
  },
  trimprefix: (a) => {
    arity('trimprefix', a, 2);
    const [s, p] = a.map(toStr) as [string, string];
    return shared.trimPrefix(s, p);
  },
  trimsuffix: (a) => {
    arity('trimsuffix', a, 2);
    const [s, p] = a.map(toStr) as [string, string];
    return shared.trimSuffix(s, p);
  },
  concat: (a) => a.flatMap((l) => toList(l)),
  contains: (a) => {
    arity('contains', a, 2);
    return toList(a[0] as HclValue).some((x) => deepEqual(x, a[1] as HclValue));
  },
  distinct: (a) => {
    arity('distinct', a, 1);
    return distinct(toList(a[0] as HclValue));
  },
  element: (a) => {
    arity('element', a, 2);
    const l = toList(a[0] as HclValue);
    if (l.length === 0) throw new FunctionError('cannot use element function with an empty list');
    const i = toNum(a[1] as HclValue);
    if (i < 0) throw new FunctionError('cannot use element function with a negative index');
    return l[Math.trunc(i) % l.length] as HclValue;
  },
  index: (a) => {
    arity('index', a, 2);
    const i = toList(a[0] as HclValue).findIndex((x) => deepEqual(x, a[1] as HclValue));
    if (i < 0) throw new FunctionError('item not found');
    return i;
  },
  flatten: (a) => {
    arity('flatten', a, 1);
    return flatten(toList(a[0] as HclValue));
  },
  keys: (a) => {
    arity('keys', a, 1);
    return Object.keys(toMap(a[0] as HclValue)).sort();
  },
  values: (a) => {
    arity('values', a, 1);
    const m = toMap(a[0] as HclValue);
    return Object.keys(m)
      .sort()
      .map((k) => m[k] as HclValue);
  },
  length: (a) => {
    arity('length', a, 1);
    const v = a[0] as HclValue;
    if (typeof v === 'string') return [...v].length;
    if (Array.isArray(v)) return v.length;
    if (isObject(v)) return Object.keys(v).length;
    throw new FunctionError('argument must be a string, a collection type, or a structural type');
  },
  lookup: (a) => {
    arity('lookup', a, 2, 3);
    const m = toMap(a[0] as HclValue);
    const k = toStr(a[1] as HclValue);
    if (k in m) return m[k] as HclValue;
    if (a.length === 3) return a[2] as HclValue;
    throw new FunctionError(`the given key "${k}" does not exist in the map`);
  },
  merge: (a) => {
    const out: HclObject = {};
    for (const m of a) if (m !== null) Object.assign(out, toMap(m));
    return sortedObject(Object.entries(out));
  },
  range: (a) => {
    arity('range', a, 1, 3);
    const n = a.map(toNum);
    const [start, end, stepBy] =
      n.length === 1
        ? [0, n[0] as number, 1]
        : [n[0] as number, n[1] as number, (n[2] ?? (n[0] as number) <= (n[1] as number)) ? 1 : -1];
    if (stepBy === 0) throw new FunctionError('step must not be zero');
    const out: number[] = [];
    for (let i = start; stepBy > 0 ? i < end : i > end; i += stepBy) {
      out.push(i);
      if (out.length > 1024) throw new FunctionError('more than 1024 values were generated');
    }
    return out;
  },
  reverse: (a) => {
    arity('reverse', a, 1);
    return [...toList(a[0] as HclValue)].reverse();
  },
  slice: (a) => {
    arity('slice', a, 3);
    const l = toList(a[0] as HclValue);
    const from = toNum(a[1] as HclValue);
    const to = toNum(a[2] as HclValue);
    if (from < 0 || to > l.length || from > to) throw new FunctionError('invalid slice indices');
    return l.slice(from, to);
  },
  sort: (a) => {
    arity('sort', a, 1);
    return toList(a[0] as HclValue)
      .map((x) => toStr(x))
      .sort();
  },
  zipmap: (a) => {
    arity('zipmap', a, 2);
    const k = toList(a[0] as HclValue).map(toStr);
    const v = toList(a[1] as HclValue);
    if (k.length !== v.length) throw new FunctionError('number of keys and values must be equal');
    return sortedObject(k.map((key, i) => [key, v[i] as HclValue]));
  },
  coalesce: (a) => {
    for (const v of a) if (v !== null && v !== '') return v;
    throw new FunctionError('no non-null, non-empty-string arguments');
  },
  coalescelist: (a) => {
    for (const v of a) if (toList(v).length > 0) return v;
    throw new FunctionError('no non-empty list arguments');
  },
  compact: (a) => {
    arity('compact', a, 1);
    return toList(a[0] as HclValue).filter((x) => x !== null && x !== '');
  },
  chunklist: (a) => {
    arity('chunklist', a, 2);
    const l = toList(a[0] as HclValue);
    const size = toNum(a[1] as HclValue);
    if (size <= 0) return [l];
    const out: HclValue[] = [];
    for (let i = 0; i < l.length; i += size) out.push(l.slice(i, i + size));
    return out;
  },
  setunion: (a) => distinct(a.flatMap((l) => toList(l))),
  setintersection: (a) => {
    const [first = [], ...rest] = a.map((l) => toList(l));
    return distinct(first.filter((x) => rest.every((l) => l.some((y) => deepEqual(x, y)))));
  },
  tostring: (a) => {
    arity('tostring', a, 1);
    return a[0] === null ? null : toStr(a[0] as HclValue);
  },
  tonumber: (a) => {
    arity('tonumber', a, 1);
    return a[0] === null ? null : toNum(a[0] as HclValue);
  },
  tobool: (a) => {
    arity('tobool', a, 1);
    return a[0] === null ? null : toBool(a[0] as HclValue);
  },
  tolist: (a) => {
    arity('tolist', a, 1);
    return toList(a[0] as HclValue);
  },
  toset: (a) => {
    arity('toset', a, 1);
    return distinct(toList(a[0] as HclValue));
  },
  tomap: (a) => {
    arity('tomap', a, 1);
    return toMap(a[0] as HclValue);
  },
};

for (const name of [
  'file',
  'filebase64',
  'fileexists',
  'fileset',
  'abspath',
  'basename',
  'dirname',
  'pathexpand',
]) {
  FUNCTIONS[name] = () => {
    throw new FunctionError('filesystem functions disabled');
  };
}

export function hasFunction(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(FUNCTIONS, name);
}

export function callFunction(name: string, args: HclValue[]): HclValue {
  const f = FUNCTIONS[name];
  if (!f) throw new FunctionError(`there is no function named "${name}"`);
  try {
    return f(args);
  } catch (e) {
    if (e instanceof ConvertError) throw new FunctionError(e.message);
    throw e;
  }
}
