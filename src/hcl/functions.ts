import { createHash } from 'node:crypto';

/*
 * Implementations of the HCL functions that behave identically in Nomad's HCL2 function set
 * (jobspecs) and Terraform's (the engine). Each side keeps its own table of what it exposes, its
 * argument conversion, arity checks and messages, and calls these for the work itself.
 */

/** A string's characters as cty counts them (code points). */
export const codePoints = (s: string): string[] => [...s];

/** Go maps case one rune at a time: a rune whose case form is longer (ß -> SS) stays as it is. */
function runewise(s: string, f: (c: string) => string): string {
  return codePoints(s)
    .map((c) => {
      const m = f(c);
      return codePoints(m).length === 1 ? m : c;
    })
    .join('');
}

export const upper = (s: string): string => runewise(s, (c) => c.toUpperCase());
export const lower = (s: string): string => runewise(s, (c) => c.toLowerCase());
export const strrev = (s: string): string => codePoints(s).reverse().join('');

export function trimPrefix(s: string, prefix: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}

export function trimSuffix(s: string, suffix: string): string {
  return suffix && s.endsWith(suffix) ? s.slice(0, -suffix.length) : s;
}

/** Removes the characters of `cutset` from both ends of `s`. */
export function trimCutset(s: string, cutset: string): string {
  const set = new Set(codePoints(cutset));
  const cs = codePoints(s);
  let a = 0;
  let b = cs.length;
  while (a < b && set.has(cs[a] as string)) a++;
  while (b > a && set.has(cs[b - 1] as string)) b--;
  return cs.slice(a, b).join('');
}

export const base64Encode = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** The hex digest of a string's UTF-8 bytes (md5, sha1, sha256, sha512). */
export function hashHex(algorithm: string, s: string): string {
  return createHash(algorithm).update(s, 'utf8').digest('hex');
}
