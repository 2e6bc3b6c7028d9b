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
  nestTemplate,
  readTemplateTokens,
  type DirectiveToken,
  type TemplateMessages,
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

const spanOf = (tok: DirectiveToken): Span => ({ start: tok.start, end: tok.end });

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

  // ---- templates -------------------------------------------------------------------------------

  /**
   * Reads template parts up to the end of the text (`top`) or up to the closing quote of a quoted
   * string inside an expression (`quoted`, where backslash escapes apply), leaving pos on the quote.
   */
  templateParts(mode: 'top' | 'quoted'): TemplatePart[] {
    const m = this.templateMessages();
    const tokens = readTemplateTokens(this.core, m, this.pos, { quoted: mode === 'quoted' });
    return nestTemplate(tokens, m);
  }

  private templateMessages(): TemplateMessages {
    const t = this.text;
    return {
      unterminatedString: () => this.error('Unterminated template string', 'missing closing quote'),
      newlineInString: () =>
        this.error('Invalid multi-line string', 'quoted strings may not contain a newline; use "\\n"'),
      escape: (r) =>
        r.hexLength !== undefined
          ? this.error(
              'Invalid escape sequence',
              `"\\${r.selector}" needs ${r.hexLength} hex digits`,
              r.start,
              this.pos + r.hexLength,
            )
          : this.error(
              'Invalid escape sequence',
              `"\\${r.selector}" is not a valid escape; use \\n, \\r, \\t, \\", \\\\, \\uNNNN or \\UNNNNNNNN`,
              r.start,
              this.pos,
            ),
      emptyInterpolation: (start) => this.error('Invalid interpolation', 'empty "${}"', start, this.pos + 1),
      unclosedInterpolation: (start) =>
        this.error(
          'Invalid interpolation',
          this.pos >= t.length
            ? 'the "${" has no closing "}"'
            : `expected "}" to close the interpolation, found "${t.slice(this.pos, this.pos + 12)}"`,
          start,
          this.pos + 1,
        ),
      directiveKeyword: (word, start) =>
        this.error(
          'Invalid template directive',
          `"%{${word}" is not a directive; use if, else, endif, for or endfor (write "%%{" for a literal "%{")`,
          start,
          this.pos,
        ),
      directiveVariable: (second) =>
        this.error(
          'Invalid template directive',
          second ? 'expected a value variable name after ","' : 'expected a variable name after "for"',
        ),
      forDirective: () => this.error('Invalid template directive', 'expected "in"'),
      unclosedDirective: () =>
        this.error('Invalid template directive', 'expected "}" to close the directive'),
      unexpectedDirective: (tok) =>
        new ExpressionError(
          'Unexpected template directive',
          `"%{${tok.dir.word}}" without a matching opening directive`,
          spanOf(tok),
        ),
      unterminatedDirective: (opener) =>
        new ExpressionError('Unterminated template directive', `missing %{end${opener}}`),
      secondElse: (ifTok) =>
        new ExpressionError('Unterminated template directive', 'missing %{endif}', spanOf(ifTok)),
    };
  }
}
