import { isObjectValue, toBool, toNumeric, toSetArray, toStr, typeName } from '../expressions/values';
import { isBigFloat } from '../numbers/num';
import { setProp } from '../expressions/types';
import { unifyPrimitives } from './args';
import { fixed, FunctionError, type FunctionTable } from './registry';

function convert<T>(v: unknown, conv: (v: unknown) => T, to: string): T | null {
  if (v === null) return null;
  if (typeof v === 'object' && !isBigFloat(v))
    throw new FunctionError(`cannot convert ${typeName(v)} to ${to}`, 0);
  try {
    return conv(v);
  } catch {
    throw new FunctionError(`cannot convert ${JSON.stringify(v)} to ${to}`, 0);
  }
}

function toList(v: unknown, what: string): unknown[] | null {
  if (v === null) return null;
  if (!Array.isArray(v)) throw new FunctionError(`cannot convert ${typeName(v)} to ${what}`, 0);
  return unifyPrimitives(v, what);
}

export const conversionFunctions: FunctionTable = {
  tostring: fixed(1, ([v]) => convert(v, toStr, 'string')),
  tonumber: fixed(1, ([v]) => convert(v, toNumeric, 'number')),
  tobool: fixed(1, ([v]) => convert(v, toBool, 'bool')),
  tolist: fixed(1, ([v]) => toList(v, 'list'), 'shallow'),
  toset: fixed(1, ([v]) => {
    const l = toList(v, 'set');
    return l === null ? null : toSetArray(l);
  }),
  tomap: fixed(
    1,
    ([v]) => {
      if (v === null) return null;
      if (!isObjectValue(v)) throw new FunctionError(`cannot convert ${typeName(v)} to map`, 0);
      const keys = Object.keys(v);
      const vals = unifyPrimitives(Object.values(v), 'map');
      const out: Record<string, unknown> = {};
      keys.forEach((k, i) => setProp(out, k, vals[i]));
      return out;
    },
    'shallow',
  ),
};
