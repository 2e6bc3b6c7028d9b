import { JobspecError, type Pos, type Range } from './errors';

const ID_START = /[A-Za-z_\u00C0-\uFFFF]/;
const ID_CONTINUE = /[A-Za-z0-9_\-\u00C0-\uFFFF]/;

export function isIdStart(c: string): boolean {
  return c !== '' && ID_START.test(c);
}

export function isIdContinue(c: string): boolean {
  return c !== '' && ID_CONTINUE.test(c);
}

export function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/**
 * A cursor over source text: positions, whitespace and comment skipping, identifiers. HCL is
 * newline-sensitive outside brackets, so `nlFree` counts the brackets we are inside; while it is
 * positive, newlines and line comments count as whitespace.
 */
export class Source {
  pos = 0;
  nlFree = 0;
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly text: string,
    readonly filename: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(k = 0): string {
    return this.text[this.pos + k] ?? '';
  }

  startsWith(s: string, at = this.pos): boolean {
    return this.text.startsWith(s, at);
  }

  posAt(offset: number): Pos {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.lineStarts[lo] as number) + 1, offset };
  }

  range(start: number, end: number = start + 1): Range {
    const e = Math.max(end, start);
    return { filename: this.filename, start: this.posAt(start), end: this.posAt(e) };
  }

  error(summary: string, detail: string, start: number, end?: number): JobspecError {
    return new JobspecError(summary, detail, this.range(start, end ?? Math.min(start + 1, this.text.length)));
  }

  /** Skips blanks and block comments; newlines and line comments too while inside brackets. */
  skipInline(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '/' && this.peek(1) === '*') this.skipBlockComment();
      else if (this.nlFree > 0 && (c === '\n' || this.atLineComment())) this.skipNewlineOrComment();
      else return;
    }
  }

  /** Skips all whitespace and comments, newlines included. */
  skipAll(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') this.pos++;
      else if (c === '/' && this.peek(1) === '*') this.skipBlockComment();
      else if (this.atLineComment()) this.skipNewlineOrComment();
      else return;
    }
  }

  atLineComment(): boolean {
    const c = this.peek();
    return c === '#' || (c === '/' && this.peek(1) === '/');
  }

  private skipNewlineOrComment(): void {
    if (this.peek() === '\n') {
      this.pos++;
      return;
    }
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.text.length : nl;
  }

  private skipBlockComment(): void {
    const end = this.text.indexOf('*/', this.pos + 2);
    if (end < 0) {
      throw this.error(
        'Unterminated comment',
        'There is no closing marker for this comment; a block comment must end with "*/".',
        this.pos,
        this.pos + 2,
      );
    }
    this.pos = end + 2;
  }

  /** Reads an identifier at the cursor, or returns '' without moving. */
  readIdent(): string {
    if (!isIdStart(this.peek())) return '';
    const start = this.pos;
    this.pos++;
    while (isIdContinue(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** True (and consumes it) when the cursor is at keyword `word` not followed by more identifier chars. */
  eatKeyword(word: string): boolean {
    if (!this.startsWith(word) || isIdContinue(this.text[this.pos + word.length] ?? '')) return false;
    this.pos += word.length;
    return true;
  }

  expect(ch: string, summary: string, detail: string): void {
    if (!this.startsWith(ch)) throw this.error(summary, detail, this.pos);
    this.pos += ch.length;
  }
}
