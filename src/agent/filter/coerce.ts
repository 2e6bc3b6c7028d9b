/**
 * go-bexpr keeps every value as text and converts it to the type of the field it meets, with Go's
 * strconv rules. These mirror strconv.ParseFloat and strconv.ParseBool.
 */

export type Coerced<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: 'invalid syntax' | 'value out of range' };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

export function parseGoFloat(raw: string): Coerced<number> {
  const special = SPECIAL.exec(raw);
  if (special) {
    if ((special[2] ?? '').toLowerCase() === 'nan') return { ok: true, value: NaN };
    return { ok: true, value: special[1] === '-' ? -Infinity : Infinity };
  }
  let value: number;
  if (DECIMAL.test(raw)) {
    value = Number(raw);
  } else {
    const hex = HEX.exec(raw);
    const [, sign = '', whole = '', frac = '', exp = '0'] = hex ?? [];
    if (!hex || whole + frac === '') return { ok: false, reason: 'invalid syntax' };
    const mantissa = parseInt(whole + frac || '0', 16) / 16 ** frac.length;
    value = (sign === '-' ? -1 : 1) * mantissa * 2 ** Number(exp);
  }
  if (!Number.isFinite(value)) return { ok: false, reason: 'value out of range' };
  return { ok: true, value };
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseGoBool(raw: string): Coerced<boolean> {
  if (TRUE.has(raw)) return { ok: true, value: true };
  if (FALSE.has(raw)) return { ok: true, value: false };
  return { ok: false, reason: 'invalid syntax' };
}
