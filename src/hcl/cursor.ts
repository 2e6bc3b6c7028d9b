/**
 * The lexical layer of the HCL native syntax, shared by the dev agent's jobspec parser and the
 * engine's parser for Terraform template strings: a cursor over the source text with whitespace
 * and comment skipping, identifiers, keywords and offset -> line/column mapping. Each dialect
 * subclasses it and says how an unterminated comment is reported (their messages differ).
 */

/** A position in the source text; line and column are 1-based, offset is 0-based. */
export interface Pos {
  line: number;
  column: number;
  offset: number;
}

/** Which characters may start and continue an identifier. */
export interface IdentChars {
  start: RegExp;
  continue: RegExp;
}

/** HCL's identifiers: letters (Unicode), digits, `_` and `-`. */
export const HCL_IDENT: IdentChars = {
  start: /[A-Za-z_\u00C0-\uFFFF]/,
  continue: /[A-Za-z0-9_\-\u00C0-\uFFFF]/,
};

/** Terraform's names in JSON configuration strings: ASCII only. */
export const ASCII_IDENT: IdentChars = { start: /[A-Za-z_]/, continue: /[A-Za-z0-9_-]/ };

export function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * HCL is newline-sensitive outside brackets, so `nlFree` counts the brackets we are inside; while
 * it is positive, newlines and line comments count as whitespace.
 */
export abstract class Cursor {
  pos = 0;
  nlFree = 0;
  private lineStarts: number[] | undefined;

  constructor(
    readonly text: string,
    private readonly idChars: IdentChars = HCL_IDENT,
  ) {}

  /** The error for a `/*` comment without its `*\/`; the cursor is at the `/*`. */
  protected abstract unterminatedComment(): Error;

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** The character `k` ahead of the cursor, or '' past the end. */
  peek(k = 0): string {
    return this.text[this.pos + k] ?? '';
  }

  startsWith(s: string, at = this.pos): boolean {
    return this.text.startsWith(s, at);
  }

  isIdStart(c: string): boolean {
    return c !== '' && this.idChars.start.test(c);
  }

  isIdContinue(c: string): boolean {
    return c !== '' && this.idChars.continue.test(c);
  }

  posAt(offset: number): Pos {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') this.lineStarts.push(i + 1);
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] as number) + 1, offset };
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
    if (end < 0) throw this.unterminatedComment();
    this.pos = end + 2;
  }

  /** Reads an identifier at the cursor, or returns '' without moving. */
  readIdent(): string {
    if (!this.isIdStart(this.peek())) return '';
    const start = this.pos;
    this.pos++;
    while (this.isIdContinue(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** True when the cursor is at keyword `word` not followed by more identifier characters. */
  keywordAhead(word: string): boolean {
    return this.startsWith(word) && !this.isIdContinue(this.text[this.pos + word.length] ?? '');
  }

  /** Like keywordAhead, and consumes the keyword. */
  eatKeyword(word: string): boolean {
    if (!this.keywordAhead(word)) return false;
    this.pos += word.length;
    return true;
  }
}
