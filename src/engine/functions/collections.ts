import { setProp } from '../expressions/types';
import {
  isObjectValue,
  isUnknown,
  sameValue,
  sortedEntries,
  toSetArray,
  toStr,
  typeName,
  UNKNOWN,
  valuesEqual,
} from '../expressions/values';
import { argInt, argList, argNum, argNumeric, argObject, argStr, unifyPrimitives } from './args';
import { numArith, type Num } from '../numbers/num';
import { between, fixed, FunctionError, type FunctionTable } from './registry';

function length(v: unknown): number {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (isObjectValue(v)) return Object.keys(v).length;
  if (v === null) throw new FunctionError('argument must not be null', 0);
  throw new FunctionError(
    `argument must be a string, a collection type, or a structural type, not ${typeName(v)}`,
    0,
  );
}

function lookup(args: unknown[]): unknown {
  const map = args[0];
  const key = argStr(args, 1);
  if (!isObjectValue(map))
    throw new FunctionError(`the first argument must be a map or object, not ${typeName(map)}`, 0);
  if (Object.prototype.hasOwnProperty.call(map, key)) return map[key];
  if (args.length === 3) return args[2];
  throw new FunctionError(
    `the given key "${key}" does not exist in the map (keys: ${Object.keys(map).sort().join(', ') || 'none'})`,
    1,
  );
}

function element(args: unknown[]): unknown {
  const list = argList(args, 0);
  const idx = argInt(args, 1);
  if (list.length === 0) throw new FunctionError('cannot use element function with an empty list');
  if (idx < 0) throw new FunctionError('cannot use element function with a negative index');
  return list[idx % list.length];
}

function flatten(v: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const x of v) {
    if (isUnknown(x)) return [UNKNOWN];
    if (Array.isArray(x)) out.push(...flatten(x));
    else out.push(x);
  }
  return out;
}

function coalesce(args: unknown[]): unknown {
  const unified = unifyPrimitives(args, 'coalesce argument');
  for (const v of unified) {
    if (isUnknown(v)) return UNKNOWN;
    if (v === null || v === '') continue;
    return v;
  }
  throw new FunctionError('no non-null, non-empty-string arguments');
}

function range(args: unknown[]): number[] {
  const nums = args.map((_, i) => argNum(args, i));
  const [start, limit, step] =
    nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? (nums[1]! >= nums[0]! ? 1 : -1)];
  if (step === 0) throw new FunctionError('step must not be zero', 2);
  if ((step > 0 && limit < start) || (step < 0 && limit > start)) {
    throw new FunctionError(`step ${step} would never reach limit ${limit} from start ${start}`, 2);
  }
  const out: number[] = [];
  for (let x = start; step > 0 ? x < limit : x > limit; x += step) {
    if (out.length >= 1024)
      throw new FunctionError(
        'more than 1024 values were generated; either decrease the difference between start and limit or use a smaller step',
      );
    out.push(x);
  }
  return out;
}

function slice(list: unknown[], start: number, end: number): unknown[] {
  if (start < 0) throw new FunctionError('start index must not be less than zero', 1);
  if (end > list.length)
    throw new FunctionError('end index must not be greater than the length of the list', 2);
  if (start > end) throw new FunctionError('start index must not be greater than end index', 1);
  return list.slice(start, end);
}

function chunklist(list: unknown[], size: number): unknown[][] {
  if (size < 0) throw new FunctionError('the size argument must be positive');
  if (size === 0) return [list];
  const out: unknown[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** `matchkeys`: the values whose key at the same index is in the search set. */
function matchkeys(values: unknown[], keys: unknown[], search: unknown[]): unknown[] {
  if (values.length !== keys.length) throw new FunctionError('length of keys and values should be equal');
  return values.filter((_, i) => search.some((x) => sameValue(x, keys[i])));
}

/** Every combination taking one element from each list, in order (the first list varies slowest). */
function setproduct(lists: unknown[][]): unknown[][] {
  if (lists.length < 2) throw new FunctionError('at least two arguments are required');
  return lists.reduce<unknown[][]>((acc, l) => acc.flatMap((prefix) => l.map((x) => [...prefix, x])), [[]]);
}

/** `transpose`: a map of lists of strings turned inside out, keys sorted within each list. */
function transpose(m: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, list] of sortedEntries(m)) {
    if (!Array.isArray(list)) throw new FunctionError(`input must be a map of lists of strings`, 0);
    for (const v of list) {
      if (v === null) throw new FunctionError('input must not contain null list elements', 0);
      const key = toStr(v);
      const prev = Object.prototype.hasOwnProperty.call(out, key) ? out[key]! : [];
      setProp(out, key, [...prev, k]);
    }
  }
  for (const k of Object.keys(out)) out[k]!.sort();
  return out;
}

/** A list converted to list(bool), as alltrue/anytrue declare their parameter; null stays null. */
function bools(list: unknown[]): (boolean | null)[] {
  return list.map((x, i) => {
    if (x === null) return null;
    if (x === true || x === 'true') return true;
    if (x === false || x === 'false') return false;
    throw new FunctionError(`element ${i}: bool required`, 0);
  });
}

function allSets(args: unknown[]): unknown[][] {
  return args.map((_, i) => argList(args, i));
}

export const collectionFunctions: FunctionTable = {
  length: fixed(1, ([v]) => length(v), 'shallow'),
  concat: between(1, Infinity, (a) => a.flatMap((_, i) => argList(a, i)), 'shallow'),
  merge: between(
    0,
    Infinity,
    (a) => {
      const out: Record<string, unknown> = {};
      for (const [i, v] of a.entries()) {
        if (v === null) continue;
        for (const [k, x] of Object.entries(argObject(a, i))) setProp(out, k, x);
      }
      return out;
    },
    'shallow',
  ),
  lookup: between(2, 3, lookup, 'shallow'),
  element: fixed(2, element, 'shallow'),
  keys: fixed(1, (a) => Object.keys(argObject(a, 0)).sort(), 'shallow'),
  values: fixed(1, (a) => sortedEntries(argObject(a, 0)).map(([, v]) => v), 'shallow'),
  contains: fixed(2, (a) => {
    const list = argList(a, 0);
    return list.some((x) => valuesEqual(x, a[1]) === true);
  }),
  distinct: fixed(1, (a) => {
    const out: unknown[] = [];
    for (const x of argList(a, 0)) if (!out.some((y) => sameValue(x, y))) out.push(x);
    return out;
  }),
  flatten: fixed(1, (a) => flatten(argList(a, 0)), 'shallow'),
  zipmap: fixed(
    2,
    (a) => {
      const ks = argList(a, 0);
      const vs = argList(a, 1);
      if (ks.length !== vs.length)
        throw new FunctionError(
          `number of keys (${ks.length}) does not match number of values (${vs.length})`,
        );
      if (ks.some(isUnknown)) return UNKNOWN;
      const out: Record<string, unknown> = {};
      ks.forEach((k, i) => setProp(out, toStr(k), vs[i]));
      return out;
    },
    'shallow',
  ),
  coalesce: between(1, Infinity, coalesce, 'shallow'),
  coalescelist: between(1, Infinity, (a) => {
    for (const [i] of a.entries()) {
      const l = argList(a, i);
      if (l.length > 0) return l;
    }
    throw new FunctionError('no non-null arguments');
  }),
  compact: fixed(1, (a) =>
    argList(a, 0)
      .filter((x) => x !== null && x !== '')
      .map((x) => toStr(x)),
  ),
  reverse: fixed(1, (a) => [...argList(a, 0)].reverse(), 'shallow'),
  slice: fixed(3, (a) => slice(argList(a, 0), argInt(a, 1), argInt(a, 2)), 'shallow'),
  sort: fixed(1, (a) =>
    argList(a, 0)
      .map((x) => toStr(x))
      .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
  ),
  index: fixed(2, (a) => {
    const i = argList(a, 0).findIndex((x) => sameValue(x, a[1]));
    if (i < 0) throw new FunctionError('item not found');
    return i;
  }),
  one: fixed(
    1,
    (a) => {
      const l = argList(a, 0);
      if (l.length > 1)
        throw new FunctionError('must be a list, set, or tuple value with either zero or one elements', 0);
      return l.length === 0 ? null : l[0];
    },
    'shallow',
  ),
  alltrue: fixed(1, (a) => bools(argList(a, 0)).every((x) => x === true)),
  anytrue: fixed(1, (a) => bools(argList(a, 0)).some((x) => x === true)),
  sum: fixed(1, (a) => {
    const l = argList(a, 0);
    if (l.length === 0) throw new FunctionError('cannot sum an empty list', 0);
    return l.slice(1).reduce<Num>((acc, _, i) => numArith('+', acc, argNumeric(l, i + 1)), argNumeric(l, 0));
  }),
  range: between(1, 3, range),
  chunklist: fixed(2, (a) => chunklist(argList(a, 0), argInt(a, 1)), 'shallow'),
  setunion: between(1, Infinity, (a) => toSetArray(allSets(a).flat())),
  setintersection: between(1, Infinity, (a) => {
    const [first = [], ...rest] = allSets(a);
    return toSetArray(first.filter((x) => rest.every((s) => s.some((y) => sameValue(x, y)))));
  }),
  matchkeys: fixed(3, (a) => matchkeys(argList(a, 0), argList(a, 1), argList(a, 2))),
  setproduct: between(1, Infinity, (a) => setproduct(allSets(a))),
  transpose: fixed(1, (a) => transpose(argObject(a, 0))),
  setsubtract: fixed(2, (a) => {
    const [x, y] = allSets(a) as [unknown[], unknown[]];
    return toSetArray(x.filter((v) => !y.some((w) => sameValue(v, w))));
  }),
};
