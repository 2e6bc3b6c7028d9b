import { argInt, argNum } from './args';
import { typeName } from '../expressions/values';
import { between, fixed, FunctionError, type FunctionTable } from './registry';

function extreme(args: unknown[], pick: (a: number, b: number) => number): number {
  return args.map((_, i) => argNum(args, i)).reduce((a, b) => pick(a, b));
}

function parseInt_(s: string, base: number): number {
  if (base < 2 || base > 62)
    throw new FunctionError('base must be a whole number between 2 and 62 inclusive', 1);
  const digits = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const lower = base <= 36;
  let body = s;
  let sign = 1;
  if (body.startsWith('-') || body.startsWith('+')) {
    sign = body.startsWith('-') ? -1 : 1;
    body = body.slice(1);
  }
  if (body === '') throw new FunctionError(`cannot parse "${s}" as a base ${base} integer`, 0);
  let n = 0;
  for (const c of body) {
    const d = digits.indexOf(lower ? c.toLowerCase() : c);
    if (d < 0 || d >= base) throw new FunctionError(`cannot parse "${s}" as a base ${base} integer`, 0);
    n = n * base + d;
  }
  return sign * n;
}

export const numericFunctions: FunctionTable = {
  min: between(1, Infinity, (a) => extreme(a, Math.min)),
  max: between(1, Infinity, (a) => extreme(a, Math.max)),
  abs: fixed(1, (a) => Math.abs(argNum(a, 0))),
  ceil: fixed(1, (a) => Math.ceil(argNum(a, 0))),
  floor: fixed(1, (a) => Math.floor(argNum(a, 0))),
  pow: fixed(2, (a) => Math.pow(argNum(a, 0), argNum(a, 1))),
  signum: fixed(1, (a) => {
    const n = argNum(a, 0);
    if (!Number.isInteger(n))
      throw new FunctionError(
        'value must be a whole number, between -9223372036854775808 and 9223372036854775807',
      );
    return Math.sign(n);
  }),
  log: fixed(2, (a) => Math.log(argNum(a, 0)) / Math.log(argNum(a, 1))),
  parseint: fixed(2, (a) => {
    if (typeof a[0] !== 'string')
      throw new FunctionError(`first argument must be a string, not ${typeName(a[0])}`, 0);
    return parseInt_(a[0], argInt(a, 1));
  }),
};
