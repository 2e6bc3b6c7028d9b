/**
 * `jsondecode` reading numbers as terraform does: exactly, at full precision. JSON.parse keeps only
 * doubles, so number tokens a double cannot stand for are swapped for marker strings first.
 */
import { randomBytes } from 'node:crypto';
import { numFromText, type Num } from '../numbers/num';
import { FunctionError } from './registry';

const TOKENS = /"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g;

export function jsonDecode(s: string): unknown {
  const exact = new Map<string, Num>();
  // A marker no real string can equal: a fresh nonce per call.
  const nonce = randomBytes(8).toString('hex');
  const text = s.replace(TOKENS, (tok) => {
    if (tok.startsWith('"')) return tok;
    const n = numFromText(tok);
    if (typeof n === 'number') return tok;
    const marker = `${nonce}:${exact.size}`;
    exact.set(marker, n);
    return JSON.stringify(marker);
  });
  try {
    return JSON.parse(text, (_k, v: unknown) => (typeof v === 'string' && exact.has(v) ? exact.get(v) : v));
  } catch (e) {
    // The error as the original text gives it (markers shift positions).
    const original = exact.size === 0 ? e : parseError(s);
    throw new FunctionError(`invalid JSON: ${(original as Error).message}`);
  }
}

function parseError(s: string): unknown {
  try {
    JSON.parse(s);
    return new Error('invalid JSON');
  } catch (e) {
    return e;
  }
}
