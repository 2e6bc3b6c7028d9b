/**
 * Parser for the strings of a Terraform JSON configuration: each string is a template (`"a-${x}"`),
 * and inside `${...}` is the HCL native expression language (operators, calls, for expressions,
 * splats, nested quoted templates). Terraform's JSON syntax treats every string in an expression
 * position this way; a string that is exactly one interpolation yields the expression's own value.
 *
 * This is the engine's dialect of the shared HCL parser (src/hcl/parser): its messages, Terraform's
 * traversal rules, no heredocs, and the unwrapping of one-interpolation templates.
 */
import { ASCII_IDENT, Cursor } from '../../hcl/cursor';
import { ExprParser, type Dialect, type ExprMessages } from '../../hcl/parser';
import {
  applyStripMarkers,
  readEscape,
  scanTemplate,
  type TemplateHooks,
  type TemplateToken,
} from '../../hcl/template';
import type { Expr, Span, TemplatePart } from './ast';
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
    const e = p.core.parseExpr();
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
  readonly core: ExprParser;

  constructor(text: string) {
    super(text, ASCII_IDENT);
    this.nlFree = 1;
    const dialect: Dialect = {
      messages: this.messages(),
      template: () => {
        const start = this.pos;
        this.pos++;
        const parts = this.templateParts('quoted');
        this.pos++;
        // HCL unwraps a lone interpolation in quoted strings too: `"${1}"` is the number 1.
        return templateExpr(parts, { start, end: this.pos });
      },
      heredocs: false,
      tightSpans: false,
      terraformTraversals: true,
      arrowIsNotSeparator: false,
    };
    this.core = new ExprParser(this, dialect);
  }

  private messages(): ExprMessages {
    const missing = (token: string, what: string) => (): Error => {
      const found =
        this.pos >= this.text.length ? 'end of string' : `"${this.text.slice(this.pos, this.pos + 12)}"`;
      return this.error(`Missing ${what}`, `expected "${token}", found ${found}`);
    };
    const at = (summary: string, detail: string) => (): Error => this.error(summary, detail);
    return {
      missingFalse: missing(':', 'false expression in conditional'),
      unbalancedParen: missing(')', 'closing parenthesis'),
      missingExpression: at('Missing expression', 'expected an expression, found the end of the string'),
      invalidExpression: () => this.error('Invalid expression', `unexpected "${this.peek()}"`),
      heredoc: at(
        'Unsupported heredoc',
        'heredoc strings are not supported inside JSON configuration strings',
      ),
      providerFunction: (name, start) =>
        this.error(
          'Unsupported function',
          `provider-defined functions ("${name}::...") are not supported`,
          start,
        ),
      expandNotLast: at('Invalid function call', '"..." may only follow the last argument'),
      missingArgSeparator: (name) =>
        this.error('Missing argument separator', `expected "," or ")" in the call to ${name}`),
      missingItemSeparator: at('Missing item separator', 'expected "," or "]" in a tuple'),
      missingKeyValueSeparator: at('Missing key/value separator', 'expected "=" or ":" after the object key'),
      forVariable: (second) =>
        this.error(
          'Invalid for expression',
          second ? 'expected a value variable name after ","' : 'expected a variable name after "for"',
        ),
      forIn: at('Invalid for expression', 'expected "in"'),
      forColon: missing(':', 'colon in for expression'),
      forArrow: missing('=>', '"=>" in object for expression'),
      forClose: (close) =>
        missing(close, close === ']' ? 'closing "]" of for expression' : 'closing "}" of for expression')(),
      indexClose: missing(']', 'closing bracket of the index'),
      attributeName: at('Invalid attribute name', 'expected an attribute name after "."'),
    };
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
        const expr = this.core.parseExpr();
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
        dir = { word: 'if', cond: this.core.parseExpr() };
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
        dir = {
          word: 'for',
          valVar,
          coll: this.core.parseExpr(),
          ...(keyVar !== undefined ? { keyVar } : {}),
        };
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
}
