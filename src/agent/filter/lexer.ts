import { syntaxError } from './errors';

/** go-bexpr treats only these four as whitespace; anything else outside a string is a syntax error. */
function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

export function isLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

export function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** go-bexpr identifiers also allow `/` after the first letter (its grammar's `[a-zA-Z0-9_/]*`). */
function isIdentifierPart(c: string): boolean {
  return isLetter(c) || isDigit(c) || c === '_' || c === '/';
}

function isHex(c: string): boolean {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

export interface StringLiteral {
  readonly value: string;
  readonly quote: '"' | '`';
}

/**
 * A cursor over the expression text. The grammar is context sensitive (`.0` is an index inside a
 * selector but `0.5` is a number elsewhere, bare words are keywords or values depending on
 * position), so the parser drives the scanner directly instead of consuming a token stream.
 */
export class Scanner {
  pos = 0;

  constructor(readonly input: string) {}

  atEnd(): boolean {
    return this.pos >= this.input.length;
  }

  char(offset = 0): string {
    return this.input.charAt(this.pos + offset);
  }

  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos);
  }

  skipWhitespace(): void {
    while (!this.atEnd() && isWhitespace(this.char())) this.pos++;
  }

  /** The identifier-shaped word at `at` (default: the cursor), or '' when none starts there. */
  wordAt(at = this.pos): string {
    if (!isLetter(this.input.charAt(at))) return '';
    let end = at + 1;
    while (end < this.input.length && isIdentifierPart(this.input.charAt(end))) end++;
    return this.input.slice(at, end);
  }

  /** The word after the current one and the whitespace that follows it, without moving. */
  wordAfter(word: string): string {
    let at = this.pos + word.length;
    while (at < this.input.length && isWhitespace(this.input.charAt(at))) at++;
    return this.wordAt(at);
  }

  /** Consumes `word` if it is the whole word at the cursor (so `in` does not match `index`). */
  acceptWord(word: string): boolean {
    if (this.wordAt() !== word) return false;
    this.pos += word.length;
    return true;
  }

  readIdentifier(): string {
    const word = this.wordAt();
    if (word === '') this.fail(`expected a name, found ${this.describe()}`);
    this.pos += word.length;
    return word;
  }

  readDigits(): string {
    const start = this.pos;
    while (!this.atEnd() && isDigit(this.char())) this.pos++;
    return this.input.slice(start, this.pos);
  }

  /**
   * `-?(0|[1-9][0-9]*)(.[0-9]+)?`, which must end at whitespace, `)` or the end of the input, as in
   * go-bexpr: `1e5`, `01`, `5x` and `1.` are invalid number literals rather than a number and a word.
   */
  readNumber(): string {
    const start = this.pos;
    if (this.char() === '-') this.pos++;
    const intPart = this.readDigits();
    let valid = intPart !== '' && !(intPart.length > 1 && intPart.startsWith('0'));
    if (valid && this.char() === '.') {
      this.pos++;
      if (this.readDigits() === '') valid = false;
    }
    const next = this.char();
    if (!valid || !(next === '' || next === ')' || isWhitespace(next))) {
      while (!this.atEnd() && !isWhitespace(this.char()) && this.char() !== ')') this.pos++;
      this.fail(`invalid number literal "${this.input.slice(start, this.pos)}"`, start);
    }
    return this.input.slice(start, this.pos);
  }

  /** A double-quoted string (Go escapes expanded) or a backtick raw string (taken as written). */
  readString(): StringLiteral {
    const quote = this.char();
    if (quote === '`') return { value: this.readRawString(), quote };
    if (quote === '"') return { value: this.readQuotedString(), quote };
    return this.fail(`expected a quoted string, found ${this.describe()}`);
  }

  private readRawString(): string {
    const start = this.pos;
    const end = this.input.indexOf('`', start + 1);
    if (end < 0) this.fail('unterminated string literal (missing closing "`")', start);
    this.pos = end + 1;
    // Go drops carriage returns from raw string literals; keep the same value.
    return this.input.slice(start + 1, end).replace(/\r/g, '');
  }

  /**
   * Follows Go's strconv.Unquote, which go-bexpr applies to its literals: `\x` and octal escapes
   * are bytes (so `\xc3\xa9` is "é"), `\u`/`\U` are code points, and a raw newline is an error.
   * Unlike go-bexpr, `\"` is accepted: its grammar ends the literal at the first `"` and then fails.
   */
  private readQuotedString(): string {
    const start = this.pos;
    this.pos++;
    const bytes: number[] = [];
    const encoder = new TextEncoder();
    const pushText = (text: string): void => {
      for (const b of encoder.encode(text)) bytes.push(b);
    };
    while (true) {
      if (this.atEnd()) this.fail("unterminated string literal (missing closing '\"')", start);
      const c = this.char();
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === '\n') this.fail('newline in double-quoted string literal (use a backtick string or "\\n")');
      if (c !== '\\') {
        const cp = this.input.codePointAt(this.pos) ?? 0;
        const ch = String.fromCodePoint(cp);
        pushText(ch);
        this.pos += ch.length;
        continue;
      }
      const escStart = this.pos;
      const e = this.char(1);
      this.pos += 2;
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        pushText(simple);
        continue;
      }
      if (e === 'x') {
        bytes.push(this.readHexEscape(2, escStart));
      } else if (e >= '0' && e <= '7') {
        const digits = e + this.input.slice(this.pos, this.pos + 2);
        if (!/^[0-7]{3}$/.test(digits))
          this.fail('invalid octal escape (needs three octal digits)', escStart);
        const byte = parseInt(digits, 8);
        if (byte > 255) this.fail(`octal escape \\${digits} is above \\377`, escStart);
        this.pos += 2;
        bytes.push(byte);
      } else if (e === 'u' || e === 'U') {
        const cp = this.readHexEscape(e === 'u' ? 4 : 8, escStart);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          this.fail(`escape \\${e}${cp.toString(16)} is not a valid Unicode code point`, escStart);
        }
        pushText(String.fromCodePoint(cp));
      } else {
        this.fail(`invalid escape sequence "\\${e}" in string literal`, escStart);
      }
    }
    return new TextDecoder().decode(Uint8Array.from(bytes));
  }

  private readHexEscape(count: number, escStart: number): number {
    const digits = this.input.slice(this.pos, this.pos + count);
    if (digits.length !== count || !Array.from(digits).every(isHex)) {
      this.fail(`invalid escape sequence: expected ${count} hexadecimal digits`, escStart);
    }
    this.pos += count;
    return parseInt(digits, 16);
  }

  /** What stands at `at`, for "expected X, found Y" messages. */
  describe(at = this.pos): string {
    if (at >= this.input.length) return 'end of input';
    const word = this.wordAt(at);
    if (word !== '') return `"${word}"`;
    const two = this.input.slice(at, at + 2);
    if (two === '==' || two === '!=') return `"${two}"`;
    const c = this.input.charAt(at);
    if (c === '"' || c === '`') return 'a string literal';
    if (isDigit(c)) return 'a number';
    return `"${String.fromCodePoint(this.input.codePointAt(at) ?? 0)}"`;
  }

  fail(problem: string, at = this.pos): never {
    throw syntaxError(this.input, at, problem);
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};
