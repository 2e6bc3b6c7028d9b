/*
 * What both dialects' evaluators do the same way with JSON-shaped values (strings, numbers, bools,
 * null, arrays, plain objects). Each keeps its own value model around this (the engine's UNKNOWN,
 * the jobspec's Go-ordered objects) and its own messages.
 */

/** Type names as cty prints them in messages; undefined counts as null. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'tuple';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** Lexical order of UTF-16 code units, as Go sorts map keys and cty orders string sets. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The entries of an object in lexical key order. */
export function sortedEntries<V>(entries: Iterable<[string, V]>): [string, V][] {
  return [...entries].sort(([a], [b]) => compareText(a, b));
}

export type NumericOp = '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '%';

/** A comparison or arithmetic on two numbers; the caller has refused a zero divisor. */
export function applyNumericOp(op: NumericOp, a: number, b: number): number | boolean {
  switch (op) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
  }
}
