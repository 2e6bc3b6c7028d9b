/**
 * Terraform's numbers: cty keeps every number as a Go `big.Float`, a *binary* float whose mantissa
 * has a per-value precision (512 bits for parsed literals and JSON, 53 for the results of float64
 * math such as pow/log, the larger operand's for + - /), rounded to nearest-even. Decimal libraries
 * round in base 10 and so cannot give cty's digits (1/3 ends in ...335 in terraform), so this is
 * the same binary arithmetic on JavaScript's own arbitrary-precision integers (BigInt).
 *
 * A value is sign * mant * 2^exp. Infinities exist (x/0); NaN does not (cty panics instead).
 */

/** Precision of literals and parsed numbers (cty.ParseNumberVal). */
export const LITERAL_PREC = 512;
/** Precision of float64 results (cty.NumberFloatVal). */
export const FLOAT64_PREC = 53;

export function bitLength(m: bigint): number {
  if (m === 0n) return 0;
  const hex = m.toString(16);
  return (hex.length - 1) * 4 + 32 - Math.clz32(parseInt(hex[0]!, 16));
}

export class BigFloat {
  private constructor(
    readonly neg: boolean,
    /** Non-negative; trailing zero bits stripped (so exact equality is structural). */
    readonly mant: bigint,
    readonly exp: number,
    readonly prec: number,
    readonly inf: boolean,
  ) {}

  /** sign * m * 2^e rounded to prec bits, nearest-even; `sticky` says the exact value was a bit above m. */
  static make(neg: boolean, m: bigint, e: number, prec: number, sticky = false): BigFloat {
    if (m === 0n) return new BigFloat(neg, 0n, 0, prec, false);
    let mant = m;
    let exp = e;
    const bits = bitLength(mant);
    if (bits > prec) {
      const shift = BigInt(bits - prec);
      const rem = mant & ((1n << shift) - 1n);
      const half = 1n << (shift - 1n);
      mant >>= shift;
      exp += Number(shift);
      if (rem > half || (rem === half && (sticky || (mant & 1n) === 1n))) mant += 1n;
    }
    while ((mant & 0xffffffffn) === 0n) {
      mant >>= 32n;
      exp += 32;
    }
    while ((mant & 1n) === 0n) {
      mant >>= 1n;
      exp += 1;
    }
    return new BigFloat(neg, mant, exp, prec, false);
  }

  static infinity(neg: boolean): BigFloat {
    return new BigFloat(neg, 0n, 0, LITERAL_PREC, true);
  }

  static fromInt(n: bigint, prec = LITERAL_PREC): BigFloat {
    return BigFloat.make(n < 0n, n < 0n ? -n : n, 0, Math.max(prec, bitLength(n < 0n ? -n : n)));
  }

  /** A double exactly, as cty.NumberFloatVal makes it (precision 53). */
  static fromDouble(d: number): BigFloat {
    if (!Number.isFinite(d)) return BigFloat.infinity(d < 0);
    const neg = d < 0 || Object.is(d, -0);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, Math.abs(d));
    const bits = view.getBigUint64(0);
    const biased = Number(bits >> 52n);
    const frac = bits & ((1n << 52n) - 1n);
    if (biased === 0) return BigFloat.make(neg, frac, -1074, FLOAT64_PREC);
    return BigFloat.make(neg, frac | (1n << 52n), biased - 1075, FLOAT64_PREC);
  }

  /**
   * A decimal literal ("12", "-0.1", "1e30") at `prec` bits, as big.ParseFloat reads it; undefined
   * when the text is not a number.
   */
  static parse(text: string, prec = LITERAL_PREC): BigFloat | undefined {
    const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
    if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
    const neg = m[1] === '-';
    const frac = m[3] ?? '';
    const digits = BigInt(`${m[2]}${frac}` || '0');
    const exp10 = Number(m[4] ?? '0') - frac.length;
    if (exp10 >= 0) return BigFloat.make(neg, digits * 10n ** BigInt(exp10), 0, prec);
    return quotient(neg, digits, 0, 10n ** BigInt(-exp10), 0, prec);
  }

  isZero(): boolean {
    return !this.inf && this.mant === 0n;
  }

  isInt(): boolean {
    return !this.inf && (this.mant === 0n || this.exp >= 0);
  }

  withPrec(prec: number): BigFloat {
    if (this.inf) return this;
    return BigFloat.make(this.neg, this.mant, this.exp, prec);
  }

  negate(): BigFloat {
    return this.inf
      ? BigFloat.infinity(!this.neg)
      : new BigFloat(!this.neg, this.mant, this.exp, this.prec, false);
  }

  abs(): BigFloat {
    return this.neg ? this.negate() : this;
  }

  /** The integer part (toward zero), as big.Float.Int gives it. */
  trunc(): bigint {
    if (this.inf) throw new RangeError('infinite number has no integer part');
    const magnitude = this.exp >= 0 ? this.mant << BigInt(this.exp) : this.mant >> BigInt(-this.exp);
    return this.neg ? -magnitude : magnitude;
  }

  floor(): bigint {
    const t = this.trunc();
    return this.neg && !this.isInt() ? t - 1n : t;
  }

  ceil(): bigint {
    const t = this.trunc();
    return !this.neg && !this.isInt() ? t + 1n : t;
  }

  /** The nearest double (what a JSON consumer gets). */
  toNumber(): number {
    if (this.inf) return this.neg ? -Infinity : Infinity;
    return Number(toText(this.withPrec(FLOAT64_PREC)));
  }

  compare(o: BigFloat): number {
    if (this.inf || o.inf) {
      const a = this.inf ? (this.neg ? -1 : 1) : 0;
      const b = o.inf ? (o.neg ? -1 : 1) : 0;
      if (a !== b) return a < b ? -1 : 1;
      if (a !== 0) return 0;
    }
    const d = sub(this, o, LITERAL_PREC * 4);
    return d.isZero() ? 0 : d.neg ? -1 : 1;
  }

  toString(): string {
    return toText(this);
  }

  /** JSON.stringify gets the nearest double; jsonencode and yamlencode write the exact digits. */
  toJSON(): number {
    return this.toNumber();
  }
}

/** Set by big-float-text.ts, which needs BigFloat itself (breaks the import cycle). */
let toText: (x: BigFloat) => string = (x) => String(x.toNumber());
export function setTextFormatter(f: (x: BigFloat) => string): void {
  toText = f;
}

/** (ma * 2^ea) / (mb * 2^eb) rounded to prec bits. */
function quotient(neg: boolean, ma: bigint, ea: number, mb: bigint, eb: number, prec: number): BigFloat {
  if (ma === 0n) return BigFloat.make(neg, 0n, 0, prec);
  const k = Math.max(0, prec + 2 + bitLength(mb) - bitLength(ma));
  const num = ma << BigInt(k);
  return BigFloat.make(neg, num / mb, ea - eb - k, prec, num % mb !== 0n);
}

function signed(x: BigFloat): bigint {
  return x.neg ? -x.mant : x.mant;
}

export function add(a: BigFloat, b: BigFloat, prec = Math.max(a.prec, b.prec)): BigFloat {
  if (a.inf || b.inf) {
    if (a.inf && b.inf && a.neg !== b.neg) throw new RangeError('infinity minus infinity');
    return a.inf ? a : b;
  }
  if (a.isZero()) return b.withPrec(prec);
  if (b.isZero()) return a.withPrec(prec);
  const e = Math.min(a.exp, b.exp);
  const s = (signed(a) << BigInt(a.exp - e)) + (signed(b) << BigInt(b.exp - e));
  return BigFloat.make(s < 0n, s < 0n ? -s : s, e, prec);
}

export function sub(a: BigFloat, b: BigFloat, prec = Math.max(a.prec, b.prec)): BigFloat {
  return add(a, b.negate(), prec);
}

/** cty's Multiply: the product at 512 bits, kept at the larger operand precision or what it needs. */
export function mul(a: BigFloat, b: BigFloat, prec?: number): BigFloat {
  const neg = a.neg !== b.neg;
  if (a.inf || b.inf) {
    if (a.isZero() || b.isZero()) throw new RangeError('zero times infinity');
    return BigFloat.infinity(neg);
  }
  if (prec !== undefined) return BigFloat.make(neg, a.mant * b.mant, a.exp + b.exp, prec);
  const p = BigFloat.make(neg, a.mant * b.mant, a.exp + b.exp, LITERAL_PREC);
  return p.withPrec(Math.max(a.prec, b.prec, bitLength(p.mant)));
}

export function quo(a: BigFloat, b: BigFloat, prec = Math.max(a.prec, b.prec)): BigFloat {
  const neg = a.neg !== b.neg;
  if (a.inf && b.inf) throw new RangeError('infinity divided by infinity');
  if (a.inf) return BigFloat.infinity(neg);
  if (b.inf) return BigFloat.make(neg, 0n, 0, prec);
  if (b.isZero()) {
    if (a.isZero()) throw new RangeError('zero divided by zero');
    return BigFloat.infinity(neg);
  }
  return quotient(neg, a.mant, a.exp, b.mant, b.exp, prec);
}

/** cty's Modulo: a - b * trunc(a / b), at a's precision; x % 0 is x and infinities multiply. */
export function mod(a: BigFloat, b: BigFloat): BigFloat {
  if (a.inf || b.inf) return mul(a, b);
  if (b.isZero()) return a;
  const whole = BigFloat.fromInt(quo(a, b).trunc(), 0).withPrec(a.prec);
  return sub(a, mul(b, whole, a.prec), a.prec);
}
