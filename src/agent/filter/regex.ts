/**
 * Translation of Go RE2 syntax (what go-bexpr's `matches` uses) into an equivalent JavaScript
 * RegExp with the `u` flag. Constructs whose meaning differs are rewritten (`\s`, `.`, `^`/`$`
 * under `(?m)`, `\A`, `\z`, POSIX classes, `\Q...\E`, octal escapes); constructs JavaScript cannot
 * express, or that RE2 itself rejects, raise RegexSyntaxError with the reason.
 */

export class RegexSyntaxError extends Error {
  override readonly name = 'RegexSyntaxError';
}

export interface TranslatedRegex {
  readonly source: string;
  readonly flags: string;
}

type Range = readonly [number, number];

const MAX_CODE_POINT = 0x10ffff;
/** RE2 refuses counted repetitions above this. */
const MAX_REPEAT = 1000;

const ASCII_CLASSES: Readonly<Record<string, readonly Range[]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** RE2's `\s` is ASCII `[\t\n\f\r ]`; JavaScript's also has `\v` and Unicode spaces. */
const RE2_SPACE: readonly Range[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];

function complement(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const OUTSIDE_SYNTAX = new Set(Array.from('^$\\.*+?()[]{}|/'));
const CLASS_SYNTAX = new Set(Array.from('\\]^-['));

function hexEscape(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

function isPrintable(cp: number): boolean {
  return cp > 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp <= 0x9f) && !(cp >= 0xd800 && cp <= 0xdfff);
}

/** A literal code point, escaped for use outside a character class. */
function literal(cp: number): string {
  const c = String.fromCodePoint(cp);
  if (OUTSIDE_SYNTAX.has(c)) return `\\${c}`;
  return cp === 0x20 || isPrintable(cp) ? c : hexEscape(cp);
}

/** A literal code point, escaped for use inside a character class. */
function classLiteral(cp: number): string {
  const c = String.fromCodePoint(cp);
  if (CLASS_SYNTAX.has(c)) return `\\${c}`;
  return cp === 0x20 || isPrintable(cp) ? c : hexEscape(cp);
}

function rangesToClassBody(ranges: readonly Range[]): string {
  return ranges
    .map(([lo, hi]) => (lo === hi ? classLiteral(lo) : `${classLiteral(lo)}-${classLiteral(hi)}`))
    .join('');
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  a: 0x07,
  f: 0x0c,
  t: 0x09,
  n: 0x0a,
  r: 0x0d,
  v: 0x0b,
};

function isAsciiPunct(cp: number): boolean {
  return cp < 0x80 && cp > 0x20 && cp !== 0x7f && !/[0-9A-Za-z]/.test(String.fromCharCode(cp));
}

/** One escape that stands for a set of characters (`\d`, `\pL`, ...), as class-body text. */
interface ClassEscape {
  readonly kind: 'class';
  /** Text usable both inside `[...]` and, wrapped in brackets, outside. */
  readonly body: string;
  /** Text to use outside a class when it differs from `[body]`. */
  readonly standalone?: string;
}

interface CharEscape {
  readonly kind: 'char';
  readonly cp: number;
}

class Translator {
  private readonly cps: number[];
  private i = 0;
  private ignoreCase = false;
  private multiLine = false;
  private dotAll = false;
  private readonly groups: { closesFlagGroup: boolean }[] = [];

  constructor(pattern: string) {
    this.cps = Array.from(pattern, (c) => c.codePointAt(0) ?? 0);
  }

  private fail(reason: string): never {
    throw new RegexSyntaxError(reason);
  }

  private peek(offset = 0): string {
    const cp = this.cps[this.i + offset];
    return cp === undefined ? '' : String.fromCodePoint(cp);
  }

  private rest(length: number): string {
    return this.cps
      .slice(this.i, this.i + length)
      .map((cp) => String.fromCodePoint(cp))
      .join('');
  }

  translate(): TranslatedRegex {
    let out = this.leadingFlags();
    while (this.i < this.cps.length) out += this.next();
    if (this.groups.length > 0) this.fail('missing closing )');
    return { source: out, flags: this.ignoreCase ? 'iu' : 'u' };
  }

  /**
   * JavaScript (before ES2025 modifiers) has only whole-pattern flags, so `(?i)`, `(?m)`, `(?s)`
   * are honoured at the very start, and `(?i:...)` when it spans the whole pattern.
   */
  private leadingFlags(): string {
    while (this.peek() === '(' && this.peek(1) === '?') {
      const m = /^\(\?([a-zA-Z-]*)([:)])/.exec(this.rest(32));
      if (!m || m[1] === undefined || m[2] === undefined) return '';
      const flags = m[1];
      if (flags === '' && m[2] === ':') return '';
      this.checkFlags(flags);
      for (const f of flags) {
        if (f === 'i') this.ignoreCase = true;
        if (f === 'm') this.multiLine = true;
        if (f === 's') this.dotAll = true;
      }
      this.i += m[0].length;
      if (m[2] === ':') {
        this.groups.push({ closesFlagGroup: true });
        return '(?:';
      }
    }
    return '';
  }

  private checkFlags(flags: string): void {
    if (flags.includes('-')) this.fail(`clearing flags ("(?${flags})") is not supported`);
    if (flags.includes('U'))
      this.fail('the ungreedy flag (?U) is not supported; use lazy quantifiers such as *?');
    for (const f of flags) {
      if (!'ims'.includes(f)) this.fail(`invalid or unsupported Perl syntax: unknown flag "${f}"`);
    }
  }

  private next(): string {
    const c = this.peek();
    this.i++;
    switch (c) {
      case '\\':
        return this.escapeOutside();
      case '[':
        return this.charClass();
      case '(':
        return this.openGroup();
      case ')': {
        const group = this.groups.pop();
        if (!group) this.fail('unexpected )');
        if (group.closesFlagGroup && this.i < this.cps.length) {
          this.fail(
            'a scoped flag group such as (?i:...) is only supported when it spans the whole expression',
          );
        }
        return ')';
      }
      case '{':
        return this.repeat();
      case '}':
        return '\\}';
      case ']':
        return '\\]';
      case '.':
        return this.dotAll ? '[^]' : '[^\\n]';
      case '^':
        // JavaScript's multiline anchors also treat \r, U+2028 and U+2029 as line ends; RE2 only \n.
        return this.multiLine ? '(?<![^\\n])' : '^';
      case '$':
        return this.multiLine ? '(?![^\\n])' : '$';
      case '|':
      case '*':
      case '+':
      case '?':
        return c;
      default:
        return literal(c.codePointAt(0) ?? 0);
    }
  }

  private openGroup(): string {
    if (this.peek() !== '?') {
      this.groups.push({ closesFlagGroup: false });
      return '(';
    }
    const head = this.rest(3);
    if (head.startsWith('?:')) {
      this.i += 2;
      this.groups.push({ closesFlagGroup: false });
      return '(?:';
    }
    const named = /^\?P?<([^>]*)>/.exec(this.rest(260));
    if (named && named[1] !== undefined) {
      const name = named[1];
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        this.fail(
          `invalid named capture "${name}" (names are letters, digits and underscores, not starting with a digit)`,
        );
      }
      this.i += named[0].length;
      this.groups.push({ closesFlagGroup: false });
      return `(?<${name}>`;
    }
    if (/^\?(=|!|<=|<!)/.test(head))
      this.fail('lookahead and lookbehind assertions are not supported by RE2');
    if (head.startsWith('?P=') || head.startsWith('?P>'))
      this.fail('backreferences are not supported by RE2');
    const flagGroup = /^\?([a-zA-Z-]*)([:)])/.exec(this.rest(32));
    if (flagGroup && flagGroup[1] !== undefined) {
      this.checkFlags(flagGroup[1]);
      this.fail(
        `flags ("(?${flagGroup[1]}${flagGroup[2]}") are only supported at the start of the expression, where they apply to all of it`,
      );
    }
    this.fail(`invalid or unsupported Perl syntax: "(${head}"`);
  }

  /** `{n}`, `{n,}`, `{n,m}` are repetitions; any other `{` is a literal in RE2 but not in JavaScript. */
  private repeat(): string {
    const m = /^(\d+)(,(\d*))?\}/.exec(this.rest(24));
    if (!m || m[1] === undefined) return '\\{';
    const min = Number(m[1]);
    const max = m[3] === undefined ? min : m[3] === '' ? undefined : Number(m[3]);
    if (min > MAX_REPEAT || (max !== undefined && (max > MAX_REPEAT || max < min))) {
      this.fail(`invalid repeat count "{${m[0]}" (RE2 allows at most ${MAX_REPEAT})`);
    }
    this.i += m[0].length;
    return `{${m[0]}`;
  }

  private escapeOutside(): string {
    const c = this.peek();
    if (c === '') this.fail('trailing backslash at end of expression');
    switch (c) {
      case 'A':
        this.i++;
        return '(?<![^])';
      case 'z':
        this.i++;
        return '(?![^])';
      case 'b':
      case 'B':
        this.i++;
        return `\\${c}`;
      case 'Q':
        return this.quoted();
      default: {
        const e = this.escape(false);
        if (e.kind === 'char') return literal(e.cp);
        return e.standalone ?? `[${e.body}]`;
      }
    }
  }

  /** `\Q...\E`: everything up to `\E` (or the end) is literal. */
  private quoted(): string {
    this.i++;
    let out = '';
    while (this.i < this.cps.length) {
      if (this.peek() === '\\' && this.peek(1) === 'E') {
        this.i += 2;
        return out;
      }
      out += literal(this.cps[this.i] ?? 0);
      this.i++;
    }
    return out;
  }

  /** An escape after the backslash, valid both inside and outside classes. */
  private escape(inClass: boolean): CharEscape | ClassEscape {
    const c = this.peek();
    this.i++;
    const cp = c.codePointAt(0) ?? 0;
    if (c >= '1' && c <= '7' && !/[0-7]/.test(this.peek())) {
      this.fail(`backreferences are not supported by RE2 ("\\${c}")`);
    }
    if (c >= '0' && c <= '7') {
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(this.peek())) {
        digits += this.peek();
        this.i++;
      }
      return { kind: 'char', cp: parseInt(digits, 8) };
    }
    if (c === 'x') return { kind: 'char', cp: this.hexEscape() };
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) return { kind: 'char', cp: simple };
    switch (c) {
      case 'd':
        return { kind: 'class', body: '0-9', standalone: '\\d' };
      case 'D':
        return { kind: 'class', body: rangesToClassBody(complement([[0x30, 0x39]])), standalone: '\\D' };
      case 'w':
        return { kind: 'class', body: 'A-Za-z0-9_', standalone: '[A-Za-z0-9_]' };
      case 'W':
        return { kind: 'class', body: rangesToClassBody(complement(ASCII_CLASSES['word'] ?? [])) };
      case 's':
        return { kind: 'class', body: rangesToClassBody(RE2_SPACE) };
      case 'S':
        return { kind: 'class', body: rangesToClassBody(complement(RE2_SPACE)) };
      case 'p':
      case 'P':
        return this.unicodeClass(c === 'P');
      case 'C':
        this.fail('\\C (any byte) is not supported');
    }
    if (isAsciiPunct(cp)) return { kind: 'char', cp };
    const where = inClass ? ' in character class' : '';
    this.fail(`invalid escape sequence "\\${c}"${where}`);
  }

  /** `\xhh` (exactly two digits) or `\x{h...}` (up to U+10FFFF). */
  private hexEscape(): number {
    let digits: string;
    if (this.peek() === '{') {
      const close = this.cps.indexOf(0x7d, this.i);
      if (close < 0) this.fail('invalid escape sequence: unterminated \\x{');
      digits = this.rest(close - this.i).slice(1);
      this.i = close + 1;
      if (!/^[0-9A-Fa-f]{1,8}$/.test(digits)) this.fail(`invalid escape sequence "\\x{${digits}}"`);
    } else {
      digits = this.rest(2);
      if (!/^[0-9A-Fa-f]{2}$/.test(digits)) this.fail(`invalid escape sequence "\\x${digits}"`);
      this.i += 2;
    }
    const cp = parseInt(digits, 16);
    if (cp > MAX_CODE_POINT) this.fail(`invalid escape sequence "\\x{${digits}}" (above U+10FFFF)`);
    return cp;
  }

  /**
   * `\pL`, `\p{Greek}`, `\p{^Greek}`, `\PL`. One- and two-letter names are general categories,
   * `Any` is every code point, other names are scripts, as in RE2.
   */
  private unicodeClass(negated: boolean): ClassEscape {
    let name: string;
    if (this.peek() === '{') {
      const close = this.cps.indexOf(0x7d, this.i);
      if (close < 0) this.fail('invalid character class range: unterminated \\p{');
      name = this.rest(close - this.i).slice(1);
      this.i = close + 1;
    } else {
      name = this.peek();
      this.i++;
    }
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    if (!/^[A-Za-z_]+$/.test(name)) this.fail(`invalid character class range "\\p{${name}}"`);
    const property = name === 'Any' || /^[A-Z][a-z]?$/.test(name) ? name : `Script=${name}`;
    const text = `\\${negated ? 'P' : 'p'}{${property}}`;
    try {
      new RegExp(text, 'u');
    } catch {
      this.fail(`invalid character class range "\\p{${name}}" (unknown Unicode category or script)`);
    }
    return { kind: 'class', body: text, standalone: text };
  }

  private charClass(): string {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
    }
    let body = '';
    let first = true;
    while (true) {
      const c = this.peek();
      if (c === '') this.fail('missing closing ] in character class');
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === '[' && this.peek(1) === ':') {
        const posix = this.posixClass();
        if (posix !== undefined) {
          body += posix;
          continue;
        }
      }
      const lo = this.classAtom();
      if (lo.kind === 'class') {
        body += lo.body;
        continue;
      }
      // A '-' followed by ']' is a literal dash; otherwise it makes a range.
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.i++;
        const hi = this.classAtom();
        if (hi.kind === 'class') this.fail('invalid character class range (a class cannot end a range)');
        if (hi.cp < lo.cp) {
          this.fail(
            `invalid character class range "${String.fromCodePoint(lo.cp)}-${String.fromCodePoint(hi.cp)}"`,
          );
        }
        body += `${classLiteral(lo.cp)}-${classLiteral(hi.cp)}`;
        continue;
      }
      body += classLiteral(lo.cp);
    }
    return `[${negated ? '^' : ''}${body}]`;
  }

  private classAtom(): CharEscape | ClassEscape {
    const c = this.peek();
    this.i++;
    if (c === '\\') {
      if (this.peek() === '') this.fail('missing closing ] in character class');
      return this.escape(true);
    }
    return { kind: 'char', cp: c.codePointAt(0) ?? 0 };
  }

  /** `[:alpha:]` and `[:^alpha:]` inside a bracket expression. */
  private posixClass(): string | undefined {
    const m = /^\[:(\^?)([a-z]+):\]/.exec(this.rest(16));
    if (!m || m[2] === undefined) return undefined;
    const ranges = ASCII_CLASSES[m[2]];
    if (!ranges) this.fail(`invalid character class range "[:${m[1] ?? ''}${m[2]}:]"`);
    this.i += m[0].length;
    return rangesToClassBody(m[1] === '^' ? complement(ranges) : ranges);
  }
}

/** Translates an RE2 pattern; throws RegexSyntaxError for patterns RE2 rejects or JavaScript cannot express. */
export function translateRe2(pattern: string): TranslatedRegex {
  return new Translator(pattern).translate();
}

const JS_MESSAGES: readonly [RegExp, string][] = [
  [/Unterminated group/i, 'missing closing )'],
  [/Unmatched '\)'/i, 'unexpected )'],
  [/Nothing to repeat/i, 'missing argument to repetition operator'],
  [/numbers out of order/i, 'invalid repeat count'],
  [/Duplicate capture group name/i, 'duplicate capture group name'],
];

/** Compiles an RE2 pattern into a RegExp with the same matches (unanchored search, like Go's MatchString). */
export function compileRe2(pattern: string): RegExp {
  const { source, flags } = translateRe2(pattern);
  try {
    return new RegExp(source, flags);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const mapped = JS_MESSAGES.find(([re]) => re.test(message));
    throw new RegexSyntaxError(mapped ? mapped[1] : (message.split(': ').pop() ?? message));
  }
}
