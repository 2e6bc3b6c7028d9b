/**
 * Parser for the strings of a Terraform JSON configuration: each string is a template (`"a-${x}"`),
 * and inside `${...}` is the HCL native expression language (operators, calls, for expressions,
 * splats, nested quoted templates). Terraform's JSON syntax treats every string in an expression
 * position this way; a string that is exactly one interpolation yields the expression's own value.
 */
import { ASCII_IDENT, Cursor, isDigit } from '../../hcl/cursor';
import { BINARY_LEVELS, matchBinaryOp, matchUnaryOp, readDigits, readNumber } from '../../hcl/syntax';
import {
  applyStripMarkers,
  readEscape,
  scanTemplate,
  type TemplateHooks,
  type TemplateToken,
} from '../../hcl/template';
import type { Expr, ForExpr, ObjectItem, Span, Step, TemplatePart } from './ast';
import { ExpressionError } from './errors';

/** Parses one JSON string value as a template. `"${var.n}"` returns the `var.n` expression itself. */
export function parseTemplate(text: string): Expr {
  const p = new Parser(text);
  try {
    const parts = p.templateParts('top');
    return templateExpr(parts, { start: 0, end: text.length });
  } catch (e) {
    throw e instanceof ExpressionError ? e.withSource(text) : e;
  }
}

/** Parses a bare expression (no `${}` around it), e.g. a `-var` value or a `depends_on` entry. */
export function parseExpression(text: string): Expr {
  const p = new Parser(text);
  try {
    p.skipSpace();
    const e = p.expr();
    p.skipSpace();
    if (p.pos < text.length) {
      throw p.error('Extra characters after expression', `unexpected "${text.slice(p.pos, p.pos + 10)}"`);
    }
    return e;
  } catch (e) {
    throw e instanceof ExpressionError ? e.withSource(text) : e;
  }
}

function templateExpr(parts: TemplatePart[], span: Span): Expr {
  const nonEmpty = parts.filter((x) => !(x.kind === 'literal' && x.text === ''));
  if (nonEmpty.length === 1 && nonEmpty[0]!.kind === 'interp') return nonEmpty[0].expr;
  if (nonEmpty.length === 0) return { type: 'literal', value: '', span };
  if (nonEmpty.length === 1 && nonEmpty[0]!.kind === 'literal') {
    return { type: 'literal', value: nonEmpty[0].text, span };
  }
  return { type: 'template', parts: nonEmpty, span };
}

type Directive =
  | { word: 'if'; cond: Expr }
  | { word: 'else' | 'endif' | 'endfor' }
  | { word: 'for'; keyVar?: string; valVar: string; coll: Expr };

type Token = TemplateToken<Expr, Directive>;

const spanOf = (tok: Token & { kind: 'dir' }): Span => ({ start: tok.start, end: tok.end });

/** The shared HCL cursor with Terraform's names (ASCII) and newlines insignificant throughout. */
class Parser extends Cursor {
  constructor(text: string) {
    super(text, ASCII_IDENT);
    this.nlFree = 1;
  }

  protected unterminatedComment(): Error {
    return this.error('Unterminated comment', 'a "/*" comment has no closing "*/"');
  }

  error(summary: string, detail?: string, start = this.pos, end = start + 1): ExpressionError {
    return new ExpressionError(summary, detail, { start, end: Math.min(end, this.text.length) });
  }

  skipSpace(): void {
    this.skipInline();
  }

  private expect(s: string, what: string): void {
    this.skipSpace();
    if (!this.startsWith(s)) {
      const found =
        this.pos >= this.text.length ? 'end of string' : `"${this.text.slice(this.pos, this.pos + 12)}"`;
      throw this.error(`Missing ${what}`, `expected "${s}", found ${found}`);
    }
    this.pos += s.length;
  }

  private ident(): string | undefined {
    return this.readIdent() || undefined;
  }

  // ---- templates -------------------------------------------------------------------------------

  /**
   * Reads template parts up to the end of the text (`top`) or up to the closing quote of a quoted
   * string inside an expression (`quoted`, where backslash escapes apply), leaving pos on the quote.
   */
  templateParts(mode: 'top' | 'quoted'): TemplatePart[] {
    const tokens = this.scanTemplate(mode);
    applyStripMarkers(tokens);
    const state = { i: 0 };
    const parts = this.buildParts(tokens, state, undefined);
    return parts;
  }

  private scanTemplate(mode: 'top' | 'quoted'): Token[] {
    const t = this.text;
    const hooks: TemplateHooks<Expr, Directive> = {
      interpolation: () => {
        const start = this.pos;
        this.pos += 2;
        const stripL = t[this.pos] === '~';
        if (stripL) this.pos++;
        this.skipSpace();
        if (t[this.pos] === '}')
          throw this.error('Invalid interpolation', 'empty "${}"', start, this.pos + 1);
        const expr = this.expr();
        this.skipSpace();
        const stripR = t[this.pos] === '~';
        if (stripR) this.pos++;
        if (t[this.pos] !== '}') {
          throw this.error(
            'Invalid interpolation',
            this.pos >= t.length
              ? 'the "${" has no closing "}"'
              : `expected "}" to close the interpolation, found "${t.slice(this.pos, this.pos + 12)}"`,
            start,
            this.pos + 1,
          );
        }
        this.pos++;
        return { kind: 'interp', expr, stripL, stripR };
      },
      directive: () => this.directive(),
      escape: () => this.escape(),
      unterminated: () => this.error('Unterminated template string', 'missing closing quote'),
      newline: () =>
        this.error('Invalid multi-line string', 'quoted strings may not contain a newline; use "\\n"'),
    };
    return scanTemplate(this, hooks, { quoted: mode === 'quoted' });
  }

  private escape(): string {
    const r = readEscape(this);
    if (r.ok) return r.text;
    if (r.hexLength !== undefined) {
      throw this.error(
        'Invalid escape sequence',
        `"\\${r.selector}" needs ${r.hexLength} hex digits`,
        r.start,
        this.pos + r.hexLength,
      );
    }
    throw this.error(
      'Invalid escape sequence',
      `"\\${r.selector}" is not a valid escape; use \\n, \\r, \\t, \\", \\\\, \\uNNNN or \\UNNNNNNNN`,
      r.start,
      this.pos,
    );
  }

  private directive(): Token & { kind: 'dir' } {
    const t = this.text;
    const start = this.pos;
    this.pos += 2;
    const stripL = t[this.pos] === '~';
    if (stripL) this.pos++;
    this.skipSpace();
    const word = this.ident();
    let dir: Directive;
    switch (word) {
      case 'if':
        this.skipSpace();
        dir = { word: 'if', cond: this.expr() };
        break;
      case 'else':
      case 'endif':
      case 'endfor':
        dir = { word };
        break;
      case 'for': {
        this.skipSpace();
        const first = this.ident();
        if (!first) throw this.error('Invalid template directive', 'expected a variable name after "for"');
        let keyVar: string | undefined;
        let valVar = first;
        this.skipSpace();
        if (this.peek() === ',') {
          this.pos++;
          this.skipSpace();
          const second = this.ident();
          if (!second)
            throw this.error('Invalid template directive', 'expected a value variable name after ","');
          keyVar = first;
          valVar = second;
          this.skipSpace();
        }
        if (!this.keywordAhead('in')) throw this.error('Invalid template directive', 'expected "in"');
        this.pos += 2;
        this.skipSpace();
        dir = { word: 'for', valVar, coll: this.expr(), ...(keyVar !== undefined ? { keyVar } : {}) };
        break;
      }
      default:
        throw this.error(
          'Invalid template directive',
          `"%{${word ?? ''}" is not a directive; use if, else, endif, for or endfor (write "%%{" for a literal "%{")`,
          start,
          this.pos,
        );
    }
    this.skipSpace();
    const stripR = t[this.pos] === '~';
    if (stripR) this.pos++;
    if (t[this.pos] !== '}')
      throw this.error('Invalid template directive', 'expected "}" to close the directive');
    this.pos++;
    return { kind: 'dir', dir, stripL, stripR, start, end: this.pos };
  }

  private buildParts(tokens: Token[], state: { i: number }, until: 'if' | 'for' | undefined): TemplatePart[] {
    const parts: TemplatePart[] = [];
    while (state.i < tokens.length) {
      const tok = tokens[state.i]!;
      if (tok.kind === 'lit') {
        parts.push({ kind: 'literal', text: tok.text });
        state.i++;
        continue;
      }
      if (tok.kind === 'interp') {
        parts.push({ kind: 'interp', expr: tok.expr });
        state.i++;
        continue;
      }
      const d = tok.dir;
      if (d.word === 'else' || d.word === 'endif') {
        if (until !== 'if') throw this.unexpected(tok);
        return parts;
      }
      if (d.word === 'endfor') {
        if (until !== 'for') throw this.unexpected(tok);
        return parts;
      }
      state.i++;
      if (d.word === 'if') {
        const then = this.buildParts(tokens, state, 'if');
        let otherwise: TemplatePart[] = [];
        const closing = tokens[state.i];
        if (!closing) throw this.unclosed(tok, 'endif');
        if (closing.kind === 'dir' && closing.dir.word === 'else') {
          state.i++;
          otherwise = this.buildParts(tokens, state, 'if');
          const end = tokens[state.i];
          if (!end || end.kind !== 'dir' || end.dir.word !== 'endif') throw this.unclosed(tok, 'endif');
        }
        state.i++;
        parts.push({ kind: 'if', cond: d.cond, then, else: otherwise, span: spanOf(tok) });
      } else if (d.word === 'for') {
        const body = this.buildParts(tokens, state, 'for');
        if (!tokens[state.i]) throw this.unclosed(tok, 'endfor');
        state.i++;
        parts.push({
          kind: 'for',
          valVar: d.valVar,
          coll: d.coll,
          body,
          span: spanOf(tok),
          ...(d.keyVar !== undefined ? { keyVar: d.keyVar } : {}),
        });
      }
    }
    if (until) throw new ExpressionError('Unterminated template directive', `missing %{end${until}}`);
    return parts;
  }

  private unexpected(tok: Token & { kind: 'dir' }): ExpressionError {
    return new ExpressionError(
      'Unexpected template directive',
      `"%{${tok.dir.word}}" without a matching opening directive`,
      spanOf(tok),
    );
  }

  private unclosed(tok: Token & { kind: 'dir' }, want: string): ExpressionError {
    return new ExpressionError('Unterminated template directive', `missing %{${want}}`, spanOf(tok));
  }

  // ---- expressions -----------------------------------------------------------------------------

  expr(): Expr {
    this.skipSpace();
    const start = this.pos;
    const cond = this.binary(0);
    this.skipSpace();
    if (this.peek() !== '?') return cond;
    this.pos++;
    const then = this.expr();
    this.expect(':', 'false expression in conditional');
    const otherwise = this.expr();
    return { type: 'conditional', cond, then, else: otherwise, span: { start, end: this.pos } };
  }

  private binary(level: number): Expr {
    if (level === BINARY_LEVELS.length) return this.unary();
    const start = this.pos;
    let left = this.binary(level + 1);
    for (;;) {
      this.skipSpace();
      const op = matchBinaryOp(this, level, false);
      if (!op) return left;
      this.pos += op.length;
      this.skipSpace();
      const right = this.binary(level + 1);
      left = { type: 'binary', op, left, right, span: { start, end: this.pos } };
    }
  }

  private unary(): Expr {
    this.skipSpace();
    const op = matchUnaryOp(this);
    if (op) {
      const start = this.pos;
      this.pos++;
      const operand = this.unary();
      return { type: 'unary', op, operand, span: { start, end: this.pos } };
    }
    return this.postfix(this.term());
  }

  private term(): Expr {
    this.skipSpace();
    const start = this.pos;
    const c = this.peek();
    if (c === '')
      throw this.error('Missing expression', 'expected an expression, found the end of the string');
    if (isDigit(c)) return this.number();
    if (c === '"') {
      this.pos++;
      const parts = this.templateParts('quoted');
      this.pos++;
      // HCL unwraps a lone interpolation in quoted strings too: `"${1}"` is the number 1.
      return templateExpr(parts, { start, end: this.pos });
    }
    if (c === '<' && this.peek(1) === '<') {
      throw this.error(
        'Unsupported heredoc',
        'heredoc strings are not supported inside JSON configuration strings',
      );
    }
    if (c === '(') {
      this.pos++;
      const inner = this.expr();
      this.expect(')', 'closing parenthesis');
      return { type: 'paren', expr: inner, span: { start, end: this.pos } };
    }
    if (c === '[') return this.tupleOrFor();
    if (c === '{') return this.objectOrFor();
    const name = this.ident();
    if (name === undefined) {
      throw this.error('Invalid expression', `unexpected "${c}"`);
    }
    if (name === 'true' || name === 'false')
      return { type: 'literal', value: name === 'true', span: { start, end: this.pos } };
    if (name === 'null') return { type: 'literal', value: null, span: { start, end: this.pos } };
    this.skipSpace();
    if (this.peek() === '(') return this.call(name, start);
    if (this.startsWith('::')) {
      throw this.error(
        'Unsupported function',
        `provider-defined functions ("${name}::...") are not supported`,
        start,
      );
    }
    return { type: 'scope', name, steps: [], span: { start, end: this.pos } };
  }

  private number(): Expr {
    const start = this.pos;
    const value = readNumber(this);
    return { type: 'literal', value, span: { start, end: this.pos } };
  }

  private call(name: string, start: number): Expr {
    this.pos++; // (
    const args: Expr[] = [];
    let expandFinal = false;
    for (;;) {
      this.skipSpace();
      if (this.peek() === ')') break;
      args.push(this.expr());
      this.skipSpace();
      if (this.startsWith('...')) {
        this.pos += 3;
        expandFinal = true;
        this.skipSpace();
        if (this.peek() !== ')')
          throw this.error('Invalid function call', '"..." may only follow the last argument');
        break;
      }
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      if (this.peek() !== ')') {
        throw this.error('Missing argument separator', `expected "," or ")" in the call to ${name}`);
      }
    }
    this.pos++;
    return { type: 'call', name, args, expandFinal, span: { start, end: this.pos } };
  }

  private postfix(base: Expr): Expr {
    let cur = base;
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      const stepStart = this.pos;
      if (this.startsWith('...')) return cur;
      if (c === '.' && this.peek(1) === '*') {
        this.pos += 2;
        cur = {
          type: 'splat',
          source: cur,
          steps: this.splatSteps(true),
          span: { start: base.span.start, end: this.pos },
        };
        continue;
      }
      if (c === '[' && /^\[\s*\*\s*\]/.test(this.text.slice(this.pos))) {
        this.pos = this.text.indexOf(']', this.pos) + 1;
        cur = {
          type: 'splat',
          source: cur,
          steps: this.splatSteps(false),
          span: { start: base.span.start, end: this.pos },
        };
        continue;
      }
      let step: Step | undefined;
      if (c === '.') step = this.attrStep(stepStart);
      else if (c === '[') step = this.indexStep(stepStart);
      if (!step) return cur;
      cur = appendStep(cur, step, this.pos);
    }
  }

  private attrStep(start: number): Step {
    this.pos++;
    this.skipSpace();
    if (isDigit(this.peek())) {
      // Legacy `list.0` index syntax, still accepted by Terraform.
      const value = readDigits(this);
      const span = { start, end: this.pos };
      return { kind: 'index', key: { type: 'literal', value, span }, span };
    }
    const name = this.ident();
    if (name === undefined)
      throw this.error('Invalid attribute name', 'expected an attribute name after "."');
    return { kind: 'attr', name, span: { start, end: this.pos } };
  }

  private indexStep(start: number): Step {
    this.pos++;
    const key = this.expr();
    this.expect(']', 'closing bracket of the index');
    return { kind: 'index', key, span: { start, end: this.pos } };
  }

  /** After `[*]` every attribute/index step applies per element; after `.*` only attribute steps do. */
  private splatSteps(attrOnly: boolean): Step[] {
    const steps: Step[] = [];
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      const start = this.pos;
      if (c === '.' && this.peek(1) !== '*' && !this.startsWith('...')) steps.push(this.attrStep(start));
      else if (!attrOnly && c === '[' && !/^\[\s*\*\s*\]/.test(this.text.slice(this.pos)))
        steps.push(this.indexStep(start));
      else return steps;
    }
  }

  private tupleOrFor(): Expr {
    const start = this.pos;
    this.pos++;
    this.skipSpace();
    if (this.keywordAhead('for')) return this.forExpr(start, 'tuple');
    const items: Expr[] = [];
    for (;;) {
      this.skipSpace();
      if (this.peek() === ']') break;
      items.push(this.expr());
      this.skipSpace();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      if (this.peek() !== ']') throw this.error('Missing item separator', 'expected "," or "]" in a tuple');
    }
    this.pos++;
    return { type: 'tuple', items, span: { start, end: this.pos } };
  }

  private objectOrFor(): Expr {
    const start = this.pos;
    this.pos++;
    this.skipSpace();
    if (this.keywordAhead('for')) return this.forExpr(start, 'object');
    const items: ObjectItem[] = [];
    for (;;) {
      this.skipSpace();
      if (this.peek() === '}') break;
      items.push(this.objectItem());
      this.skipSpace();
      if (this.peek() === ',') this.pos++;
      // A newline also separates items (skipped as space above); anything else must start the next key.
    }
    this.pos++;
    return { type: 'object', items, span: { start, end: this.pos } };
  }

  private objectItem(): ObjectItem {
    const start = this.pos;
    let key: Expr;
    const name = this.ident();
    this.skipSpace();
    if (name !== undefined && (this.peek() === '=' || this.peek() === ':') && this.peek(1) !== '=') {
      key = { type: 'literal', value: name, span: { start, end: start + name.length } };
    } else {
      this.pos = start;
      key = this.expr();
      this.skipSpace();
    }
    const c = this.peek();
    if ((c !== '=' && c !== ':') || this.peek(1) === '=') {
      throw this.error('Missing key/value separator', 'expected "=" or ":" after the object key');
    }
    this.pos++;
    const value = this.expr();
    return { key, value };
  }

  private forExpr(start: number, kind: 'tuple' | 'object'): ForExpr {
    this.pos += 3;
    this.skipSpace();
    const first = this.ident();
    if (!first) throw this.error('Invalid for expression', 'expected a variable name after "for"');
    let keyVar: string | undefined;
    let valVar = first;
    this.skipSpace();
    if (this.peek() === ',') {
      this.pos++;
      this.skipSpace();
      const second = this.ident();
      if (!second) throw this.error('Invalid for expression', 'expected a value variable name after ","');
      keyVar = first;
      valVar = second;
      this.skipSpace();
    }
    if (!this.keywordAhead('in')) throw this.error('Invalid for expression', 'expected "in"');
    this.pos += 2;
    const coll = this.expr();
    this.expect(':', 'colon in for expression');
    let keyExpr: Expr | undefined;
    let valExpr = this.expr();
    this.skipSpace();
    if (kind === 'object') {
      this.expect('=>', '"=>" in object for expression');
      keyExpr = valExpr;
      valExpr = this.expr();
      this.skipSpace();
    }
    let grouping = false;
    if (kind === 'object' && this.startsWith('...')) {
      this.pos += 3;
      grouping = true;
      this.skipSpace();
    }
    let cond: Expr | undefined;
    if (this.keywordAhead('if')) {
      this.pos += 2;
      cond = this.expr();
    }
    this.expect(
      kind === 'tuple' ? ']' : '}',
      kind === 'tuple' ? 'closing "]" of for expression' : 'closing "}" of for expression',
    );
    return {
      type: 'for',
      valVar,
      coll,
      valExpr,
      grouping,
      span: { start, end: this.pos },
      ...(keyVar !== undefined ? { keyVar } : {}),
      ...(keyExpr !== undefined ? { keyExpr } : {}),
      ...(cond !== undefined ? { cond } : {}),
    };
  }
}

function appendStep(cur: Expr, step: Step, end: number): Expr {
  if (cur.type === 'scope' || cur.type === 'relative') {
    return { ...cur, steps: [...cur.steps, step], span: { start: cur.span.start, end } };
  }
  return { type: 'relative', source: cur, steps: [step], span: { start: cur.span.start, end } };
}
