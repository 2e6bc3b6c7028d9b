/**
 * Printing BigFloats as Go's big.Float does: `Text('f', -1)` (what terraform console, tostring,
 * jsonencode and the state show) is the shortest decimal that reads back as the same value at the
 * value's own precision; %f/%e take an exact decimal expansion rounded half-to-even.
 */
import { BigFloat, bitLength, setTextFormatter } from './big-float';

/** An exact decimal: digits / 10^scale, digits >= 0. */
interface Decimal {
  digits: bigint;
  scale: number;
}

/** c * 2^e exactly as digits / 10^scale with scale >= minScale (2^-k = 5^k / 10^k). */
function exactDecimal(c: bigint, e: number, minScale = 0): Decimal {
  const scale = Math.max(minScale, -e);
  // 5^s * 2^(e+s) = 10^s * 2^e, an integer because e + s >= 0.
  return { digits: c * 5n ** BigInt(scale) * 2n ** BigInt(e + scale), scale };
}

/** Keeps `keep` fractional digits, rounding half to even on the exact value (Go's decimal.round). */
function roundTo(d: Decimal, keep: number): Decimal {
  if (keep >= d.scale) return { digits: d.digits * 10n ** BigInt(keep - d.scale), scale: keep };
  const unit = 10n ** BigInt(d.scale - keep);
  const q = d.digits / unit;
  const r = d.digits % unit;
  const twice = r * 2n;
  const up = twice > unit || (twice === unit && (q & 1n) === 1n);
  return { digits: up ? q + 1n : q, scale: keep };
}

/** Digits with the decimal point placed and exactly `scale` fractional digits. */
function placePoint(d: Decimal): string {
  const s = d.digits.toString().padStart(d.scale + 1, '0');
  return d.scale === 0 ? s : `${s.slice(0, s.length - d.scale)}.${s.slice(s.length - d.scale)}`;
}

function trimFraction(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/**
 * The shortest decimal inside the rounding interval of x (Go's roundShortest): the interval is
 * half an ulp either side, closed when the mantissa is even.
 */
function shortest(x: BigFloat): Decimal {
  const grow = x.prec - bitLength(x.mant);
  const m = grow > 0 ? x.mant << BigInt(grow) : x.mant;
  const e = x.exp - Math.max(grow, 0);
  const lowerIsCloser = m === 1n << BigInt(x.prec - 1);
  const lower = lowerIsCloser ? exactDecimal(4n * m - 1n, e - 2) : exactDecimal(2n * m - 1n, e - 1);
  const scale = Math.max(lower.scale, -(e - 1), 0);
  const at = (c: bigint, ce: number): string => exactDecimal(c, ce, scale).digits.toString();
  const upper = at(2n * m + 1n, e - 1);
  const width = upper.length;
  const xs = at(m, e).padStart(width, '0');
  const ls = (lowerIsCloser ? at(4n * m - 1n, e - 2) : at(2n * m - 1n, e - 1)).padStart(width, '0');
  const us = upper.padStart(width, '0');
  const inclusive = (m & 1n) === 0n;
  const lowerEnd = ls.replace(/0+$/, '').length;
  const upperEnd = us.replace(/0+$/, '').length;
  for (let i = 0; i < width; i++) {
    const l = ls.charCodeAt(i);
    const d = xs.charCodeAt(i);
    const u = us.charCodeAt(i);
    const okDown = l !== d || (inclusive && i + 1 === lowerEnd);
    const okUp = d !== u && (inclusive || d + 1 < u || i + 1 < upperEnd);
    if (!okDown && !okUp) continue;
    const dropped = width - i - 1;
    const unit = 10n ** BigInt(dropped);
    const whole = BigInt(xs) / unit;
    const exact = { digits: BigInt(xs), scale };
    const kept = okDown && okUp ? roundTo(exact, scale - dropped).digits : okUp ? whole + 1n : whole;
    return { digits: kept * unit, scale };
  }
  return { digits: BigInt(xs), scale };
}

function special(x: BigFloat): string | undefined {
  if (x.inf) return x.neg ? '-Inf' : '+Inf';
  if (x.isZero()) return x.neg ? '-0' : '0';
  return undefined;
}

/** Text('f', -1): terraform's way of printing every number. */
export function bigFloatText(x: BigFloat): string {
  const s = special(x);
  if (s !== undefined) return s;
  return (x.neg ? '-' : '') + trimFraction(placePoint(shortest(x)));
}

function exact(x: BigFloat): Decimal {
  return exactDecimal(x.mant, x.exp);
}

/** %.Nf of the magnitude: exactly `digits` fractional digits. */
export function fixedText(x: BigFloat, digits: number): string {
  return placePoint(roundTo(exact(x), digits));
}

/** Decimal exponent of the first significant digit of d (d > 0). */
function leadingExponent(d: Decimal): number {
  return d.digits.toString().length - d.scale - 1;
}

/** %.Ne of the magnitude, as Go writes it: d.ddde+XX, at least two exponent digits. */
export function exponentText(x: BigFloat, digits: number, d: Decimal = exact(x)): string {
  if (x.isZero()) return `${digits > 0 ? `0.${'0'.repeat(digits)}` : '0'}e+00`;
  let exp10 = leadingExponent(d);
  let r = roundTo(d, digits - exp10);
  if (r.digits.toString().length > digits + 1) {
    exp10 += 1;
    r = roundTo(d, digits - exp10);
  }
  const s = r.digits.toString();
  const mantissa = digits > 0 ? `${s[0]}.${s.slice(1)}` : s;
  return `${mantissa}e${exp10 < 0 ? '-' : '+'}${String(Math.abs(exp10)).padStart(2, '0')}`;
}

/** %g: shortest digits without a precision; %e form when the exponent is < -4 or >= the precision (6 when shortest). */
export function generalText(x: BigFloat, precision?: number): string {
  if (x.isZero()) return '0';
  const d = precision === undefined ? shortest(x) : exact(x);
  const sig =
    precision === undefined ? d.digits.toString().replace(/0+$/, '').length : Math.max(precision, 1);
  const rounded = precision === undefined ? d : roundTo(d, sig - 1 - leadingExponent(d));
  const exp10 = leadingExponent(rounded);
  const eprec = precision === undefined ? 6 : sig;
  if (exp10 < -4 || exp10 >= eprec) {
    return exponentText(x, sig - 1, rounded).replace(/\.?0+e/, 'e');
  }
  return trimFraction(placePoint(rounded));
}

setTextFormatter(bigFloatText);
