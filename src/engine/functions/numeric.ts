/**
 * The numeric functions on cty's numbers: min/max/abs/ceil/floor/parseint are exact on big values,
 * pow and log compute in float64 (as cty does, through math.Pow and math.Log).
 */
import { argInt, argNumeric } from './args';
import { typeName } from '../expressions/values';
import { BigFloat, fromBig, fromDouble, numCompare, toBig, toDouble, type Num } from '../numbers/num';
import { between, fixed, FunctionError, type FunctionTable } from './registry';

function extreme(args: unknown[], keep: (c: number) => boolean): Num {
  return args.map((_, i) => argNumeric(args, i)).reduce((a, b) => (keep(numCompare(b, a)) ? b : a));
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function parseInt_(s: string, base: number): Num {
  if (base < 2 || base > 62)
    throw new FunctionError('base must be a whole number between 2 and 62 inclusive', 1);
  const lower = base <= 36;
  const negative = s.startsWith('-');
  const body = negative || s.startsWith('+') ? s.slice(1) : s;
  if (body === '') throw new FunctionError(`cannot parse "${s}" as a base ${base} integer`, 0);
  let n = 0n;
  for (const c of body) {
    const d = DIGITS.indexOf(lower ? c.toLowerCase() : c);
    if (d < 0 || d >= base) throw new FunctionError(`cannot parse "${s}" as a base ${base} integer`, 0);
    n = n * BigInt(base) + BigInt(d);
  }
  return fromBig(BigFloat.fromInt(negative ? -n : n));
}

/** floor/ceil: exact on the big value; infinities pass through. */
function rounded(a: unknown[], how: 'floor' | 'ceil'): Num {
  const n = argNumeric(a, 0);
  if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
  const b = toBig(n);
  if (b.inf) return n;
  return fromBig(BigFloat.fromInt(how === 'floor' ? b.floor() : b.ceil()));
}

const INT64 = 9223372036854775807n;

function signum(a: unknown[]): number {
  const b = toBig(argNumeric(a, 0));
  const whole = !b.inf && b.isInt() ? b.trunc() : undefined;
  if (whole === undefined || whole > INT64 || whole < -INT64 - 1n)
    throw new FunctionError(
      'value must be a whole number, between -9223372036854775808 and 9223372036854775807',
    );
  return whole > 0n ? 1 : whole < 0n ? -1 : 0;
}

export const numericFunctions: FunctionTable = {
  min: between(1, Infinity, (a) => extreme(a, (c) => c < 0)),
  max: between(1, Infinity, (a) => extreme(a, (c) => c > 0)),
  abs: fixed(1, (a) => {
    const n = argNumeric(a, 0);
    return typeof n === 'number' ? Math.abs(n) : fromBig(n.abs());
  }),
  ceil: fixed(1, (a) => rounded(a, 'ceil')),
  floor: fixed(1, (a) => rounded(a, 'floor')),
  pow: fixed(2, (a) => fromDouble(Math.pow(toDouble(argNumeric(a, 0)), toDouble(argNumeric(a, 1))))),
  signum: fixed(1, signum),
  log: fixed(2, (a) =>
    fromDouble(Math.log(toDouble(argNumeric(a, 0))) / Math.log(toDouble(argNumeric(a, 1)))),
  ),
  parseint: fixed(2, (a) => {
    if (typeof a[0] !== 'string')
      throw new FunctionError(`first argument must be a string, not ${typeName(a[0])}`, 0);
    return parseInt_(a[0], argInt(a, 1));
  }),
};
