/**
 * The evaluator's numbers. A plain JS number stands for the cty number written as its shortest
 * decimal (`String(n)`, read at 512 bits as terraform reads literals and JSON), which is exact for
 * every safe integer and for the decimals JSON configurations hold; a BigFloat carries the rest
 * (big integers, results of division, sums of decimals). Safe-integer arithmetic, by far the most
 * common, never leaves plain numbers.
 */
import { add, BigFloat, FLOAT64_PREC, mod, mul, quo, sub } from './big-float';
import './big-float-text';

export { BigFloat } from './big-float';

export type Num = number | BigFloat;

export function isBigFloat(v: unknown): v is BigFloat {
  return v instanceof BigFloat;
}

export function isNum(v: unknown): v is Num {
  return typeof v === 'number' || v instanceof BigFloat;
}

/** The exact value a plain number stands for. */
export function toBig(n: Num): BigFloat {
  if (typeof n !== 'number') return n;
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return BigFloat.fromInt(BigInt(n));
  if (!Number.isFinite(n)) return BigFloat.infinity(n < 0);
  return BigFloat.parse(String(n))!;
}

/** A plain number when it stands for exactly this value, else the BigFloat. */
export function fromBig(b: BigFloat): Num {
  if (b.inf) return b.neg ? -Infinity : Infinity;
  if (b.isInt() && b.prec >= FLOAT64_PREC) {
    const t = b.trunc();
    if (t >= -9007199254740991n && t <= 9007199254740991n && !(t === 0n && b.neg)) return Number(t);
  }
  if (b.prec === FLOAT64_PREC) return b;
  const n = b.toNumber();
  return Number.isFinite(n) && toBig(n).compare(b) === 0 && toBig(n).prec === b.prec ? n : b;
}

/** A number written in decimal ("12", "0.1", "1e30", "12345678901234567890"), exactly. */
export function numFromText(text: string): Num {
  const n = Number(text);
  if (Number.isSafeInteger(n) && /^-?[0-9]+$/.test(text)) return n;
  const exact = BigFloat.parse(text);
  if (!exact) return NaN;
  return fromBig(exact);
}

/** A float64 result (pow, log): cty keeps it at 53 bits, which prints as JS prints it. */
export function fromDouble(d: number): Num {
  if (Number.isSafeInteger(d)) return d;
  return fromBig(BigFloat.fromDouble(d));
}

export function isInfinite(n: Num): boolean {
  return typeof n === 'number' ? !Number.isFinite(n) : n.inf;
}

export function toDouble(n: Num): number {
  return typeof n === 'number' ? n : n.toNumber();
}

/** terraform's printing of a number: plain decimal, no exponent, as many digits as it holds. */
export function numText(n: Num): string {
  if (typeof n === 'number' && Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n);
  return toBig(n).toString();
}

/** cty's equality: two numbers are equal when they print the same (and -0 equals 0). */
export function numEqual(a: Num, b: Num): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  const x = numText(a);
  const y = numText(b);
  return x === y || ((x === '0' || x === '-0') && (y === '0' || y === '-0'));
}

export function numCompare(a: Num, b: Num): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return toBig(a).compare(toBig(b));
}

export type ArithOp = '+' | '-' | '*' | '/' | '%';

/** Safe integers in, safe integer out: the exact answer without leaving plain numbers. */
function smallIntArith(op: ArithOp, a: number, b: number): number | undefined {
  let r: number;
  switch (op) {
    case '+':
      r = a + b;
      break;
    case '-':
      r = a - b;
      break;
    case '*':
      r = a * b;
      break;
    case '/':
      if (b === 0 || a % b !== 0) return undefined;
      r = a / b;
      break;
    case '%':
      // cty's a - b*trunc(a/b) gives +0 where JS gives -0; x % 0 is x.
      r = b === 0 ? a : (a % b) + 0;
      break;
  }
  return Number.isSafeInteger(r) ? r : undefined;
}

const BIG_OPS: Record<ArithOp, (a: BigFloat, b: BigFloat) => BigFloat> = {
  '+': (a, b) => add(a, b),
  '-': (a, b) => sub(a, b),
  '*': (a, b) => mul(a, b),
  '/': (a, b) => quo(a, b),
  '%': (a, b) => mod(a, b),
};

/** Arithmetic as cty does it; throws RangeError for what cty cannot compute (0/0, inf-inf). */
export function numArith(op: ArithOp, a: Num, b: Num): Num {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const r = smallIntArith(op, a, b);
    if (r !== undefined) return r;
  }
  return fromBig(BIG_OPS[op](toBig(a), toBig(b)));
}

export function numNegate(a: Num): Num {
  return typeof a === 'number' ? -a : fromBig(a.negate());
}
