import { isDigit, type Cursor } from './cursor';

/* Tokens of the expression grammar that both dialects read the same way. */

export type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '%';
export type UnaryOp = '-' | '!';

/** Binary operators by precedence, loosest first. */
export const BINARY_LEVELS: readonly (readonly BinaryOp[])[] = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<=', '>=', '<', '>'],
  ['+', '-'],
  ['*', '/', '%'],
];

/**
 * The operator of precedence `level` at the cursor, without consuming it. `//` and `/*` start
 * comments; where heredocs exist, `<<` starts one.
 */
export function matchBinaryOp(c: Cursor, level: number, heredocs: boolean): BinaryOp | undefined {
  for (const op of BINARY_LEVELS[level] ?? []) {
    if (!c.startsWith(op)) continue;
    const next = c.peek(op.length);
    if (heredocs && op === '<' && next === '<') return undefined;
    if (op === '/' && (next === '/' || next === '*')) return undefined;
    return op;
  }
  return undefined;
}

/** A unary operator at the cursor (`!=` is not one), without consuming it. */
export function matchUnaryOp(c: Cursor): UnaryOp | undefined {
  const ch = c.peek();
  if (ch === '-' || (ch === '!' && c.peek(1) !== '=')) return ch;
  return undefined;
}

const NUMBER = /[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/** Reads a number literal at the cursor (which is at a digit): its text. */
export function readNumber(c: Cursor): string {
  NUMBER.lastIndex = c.pos;
  const m = NUMBER.exec(c.text);
  const lit = m ? m[0] : '';
  c.pos += lit.length;
  return lit;
}

/** Reads the digits of a legacy `list.0` index step. */
export function readDigits(c: Cursor): number {
  const start = c.pos;
  while (isDigit(c.peek())) c.pos++;
  return Number(c.text.slice(start, c.pos));
}
