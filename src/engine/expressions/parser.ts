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
  // Without "${" or "%{" there is nothing to interpolate or escape: the text is its own value. Most
  // strings of a configuration are like this (a jobspec), and the scanner is the costliest way to say so.
  if (!text.includes('${') && !text.includes('%{'))
    return { type: 'literal', value: text, span: { start: 0, end: text.length } };
  const p = new Parser(text);
  try {
    const parts = p.templateParts(false);
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

const missing =
  (token: string, what: string) =>
  (c: Parser): Error => {
    const found = c.pos >= c.text.length ? 'end of string' : `"${c.text.slice(c.pos, c.pos + 12)}"`;
    return c.error(`Missing ${what}`, `expected "${token}", found ${found}`);
  };

const at =
  (summary: string, detail: string) =>
  (c: Parser): Error =>
    c.error(summary, detail);

const MESSAGES: ExprMessages<Parser> = {
  missingFalse: missing(':', 'false expression in conditional'),
  unbalancedParen: missing(')', 'closing parenthesis'),
  missingExpression: at('Missing expression', 'expected an expression, found the end of the string'),
  invalidExpression: (c) => c.error('Invalid expression', `unexpected "${c.peek()}"`),
  heredoc: at('Unsupported heredoc', 'heredoc strings are not supported inside JSON configuration strings'),
  providerFunction: (c, name, start) =>
    c.error('Unsupported function', `provider-defined functions ("${name}::...") are not supported`, start),
  expandNotLast: at('Invalid function call', '"..." may only follow the last argument'),
  missingArgSeparator: (c, name) =>
    c.error('Missing argument separator', `expected "," or ")" in the call to ${name}`),
  missingItemSeparator: at('Missing item separator', 'expected "," or "]" in a tuple'),
  missingKeyValueSeparator: at('Missing key/value separator', 'expected "=" or ":" after the object key'),
  forVariable: (c, second) =>
    c.error(
      'Invalid for expression',
      second ? 'expected a value variable name after ","' : 'expected a variable name after "for"',
    ),
  forIn: at('Invalid for expression', 'expected "in"'),
  forColon: missing(':', 'colon in for expression'),
  forArrow: missing('=>', '"=>" in object for expression'),
  forClose: (c, close) =>
    missing(close, close === ']' ? 'closing "]" of for expression' : 'closing "}" of for expression')(c),
  indexClose: missing(']', 'closing bracket of the index'),
  attributeName: at('Invalid attribute name', 'expected an attribute name after "."'),
};

const TEMPLATE_MESSAGES: TemplateMessages<Parser> = {
  unterminatedString: at('Unterminated template string', 'missing closing quote'),
  newlineInString: at('Invalid multi-line string', 'quoted strings may not contain a newline; use "\\n"'),
  escape: (c, r) =>
    r.hexLength !== undefined
      ? c.error(
          'Invalid escape sequence',
          `"\\${r.selector}" needs ${r.hexLength} hex digits`,
          r.start,
          c.pos + r.hexLength,
        )
      : c.error(
          'Invalid escape sequence',
          `"\\${r.selector}" is not a valid escape; use \\n, \\r, \\t, \\", \\\\, \\uNNNN or \\UNNNNNNNN`,
          r.start,
          c.pos,
        ),
  emptyInterpolation: (c, start) => c.error('Invalid interpolation', 'empty "${}"', start, c.pos + 1),
  unclosedInterpolation: (c, start) =>
    c.error(
      'Invalid interpolation',
      c.pos >= c.text.length
        ? 'the "${" has no closing "}"'
        : `expected "}" to close the interpolation, found "${c.text.slice(c.pos, c.pos + 12)}"`,
      start,
      c.pos + 1,
    ),
  directiveKeyword: (c, word, start) =>
    c.error(
      'Invalid template directive',
      `"%{${word}" is not a directive; use if, else, endif, for or endfor (write "%%{" for a literal "%{")`,
      start,
      c.pos,
    ),
  directiveVariable: (c, second) =>
    c.error(
      'Invalid template directive',
      second ? 'expected a value variable name after ","' : 'expected a variable name after "for"',
    ),
  forDirective: at('Invalid template directive', 'expected "in"'),
  unclosedDirective: at('Invalid template directive', 'expected "}" to close the directive'),
  unexpectedDirective: (_c, tok) =>
    new ExpressionError(
      'Unexpected template directive',
      `"%{${tok.dir.word}}" without a matching opening directive`,
      spanOf(tok),
    ),
  unterminatedDirective: (_c, opener) =>
    new ExpressionError('Unterminated template directive', `missing %{end${opener}}`),
  secondElse: (_c, ifTok) =>
    new ExpressionError('Unterminated template directive', 'missing %{endif}', spanOf(ifTok)),
};

const DIALECT: Dialect<Parser> = {
  messages: MESSAGES,
  template: (p) => {
    const c = p.src;
    const start = c.pos;
    c.pos++;
    const parts = c.templateParts(true);
    c.pos++;
    // HCL unwraps a lone interpolation in quoted strings too: `"${1}"` is the number 1.
    return templateExpr(parts, { start, end: c.pos });
  },
  heredocs: false,
  tightSpans: false,
  terraformTraversals: true,
  arrowIsNotSeparator: false,
};

/** The shared HCL cursor with Terraform's names (ASCII) and newlines insignificant throughout. */
class Parser extends Cursor {
  readonly core: ExprParser<Parser>;

  constructor(text: string) {
    super(text, ASCII_IDENT);
    this.nlFree = 1;
    this.core = new ExprParser(this, DIALECT);
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

  /**
   * Reads template parts up to the end of the text or, for a quoted string inside an expression
   * (where backslash escapes apply), up to its closing quote, leaving pos on the quote.
   */
  templateParts(quoted: boolean): TemplatePart[] {
    const tokens = readTemplateTokens(this.core, TEMPLATE_MESSAGES, this.pos, { quoted });
    return nestTemplate(this, tokens, TEMPLATE_MESSAGES);
  }
}
