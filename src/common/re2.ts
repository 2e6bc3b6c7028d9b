/**
 * RE2 regular expressions (Go's regexp syntax and its linear-time guarantee), for every place that
 * takes a user's pattern: the filter grammar's `matches`, and the Terraform and jobspec `regex`
 * functions. JavaScript's RegExp backtracks (`^(a+)+$` is exponential) and reads a different syntax
 * (`(?P<name>...)`, `\pL`, `(?i)`), so user patterns never reach it.
 */
import type { RE2, RE2ExecArray } from 're2-wasm';
import { lazyModule } from './lazy-module';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const re2Wasm = lazyModule(() => require('re2-wasm') as typeof import('re2-wasm'));

export interface Re2Match {
  /** The whole match, then each capture group (undefined where a group did not take part). */
  readonly groups: readonly (string | undefined)[];
  /** Named groups by name, as in Go's SubexpNames. */
  readonly named: Readonly<Record<string, string | undefined>>;
  readonly index: number;
}

export interface Re2 {
  readonly source: string;
  test(text: string): boolean;
  first(text: string): Re2Match | undefined;
  all(text: string): Re2Match[];
}

export class Re2SyntaxError extends Error {}

const cache = new Map<string, Re2>();
const CACHE_LIMIT = 256;

/** Compiles a pattern; a bad pattern throws Re2SyntaxError with RE2's own reason. */
export function compileRe2(pattern: string): Re2 {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const compiled = build(pattern);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

function build(pattern: string): Re2 {
  let once: RE2;
  let global: RE2;
  try {
    const { RE2: Compiled } = re2Wasm();
    once = new Compiled(pattern, 'u');
    global = new Compiled(pattern, 'gu');
  } catch (err) {
    throw new Re2SyntaxError(reason(err, pattern));
  }
  return {
    source: pattern,
    test: (text) => once.test(text),
    first: (text) => {
      const m = once.exec(text);
      return m ? toMatch(m) : undefined;
    },
    all: (text) => {
      const out: Re2Match[] = [];
      global.lastIndex = 0;
      for (let m = global.exec(text); m; m = global.exec(text)) {
        out.push(toMatch(m));
        // An empty match would be found again at the same place.
        if (m[0] === '') global.lastIndex = advance(text, global.lastIndex);
      }
      return out;
    },
  };
}

function toMatch(m: RE2ExecArray): Re2Match {
  return { groups: [...m], named: { ...(m.groups ?? {}) }, index: m.index };
}

function advance(text: string, at: number): number {
  const code = text.codePointAt(at);
  return at + (code !== undefined && code > 0xffff ? 2 : 1);
}

/** re2-wasm prefixes RE2's reason with a JavaScript-style `/pattern/u:`; keep only RE2's words. */
function reason(err: unknown, pattern: string): string {
  const text = err instanceof Error ? err.message : String(err);
  const prefix = `Invalid regular expression: /${pattern}/u: `;
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}
