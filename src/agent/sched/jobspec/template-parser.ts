import type { Expr } from '../../../hcl/ast';
import type { ExprParser } from '../../../hcl/parser';
import {
  findHeredocEnd,
  nestTemplate,
  readTemplateTokens,
  type TemplateMessages,
  type TemplateToken,
  type Directive,
} from '../../../hcl/template';
import type { Source } from './source';

/*
 * The jobspec dialect of string templates: HCL's diagnostics, and heredocs (`<<EOT`, `<<-EOT`),
 * which the engine's dialect does not have. The shared template parser does the rest.
 */

const unterminated = (s: Source, start: number): Error =>
  s.error('Unterminated template string', 'No closing marker was found for the string.', start, s.pos);

const MESSAGES: TemplateMessages<Source> = {
  unterminatedString: unterminated,
  newlineInString: unterminated,
  escape: (s, r) =>
    s.error(
      'Invalid escape sequence',
      `The symbol "${r.selector}" is not a valid escape sequence selector.`,
      r.start,
      r.start + 2,
    ),
  unclosedInterpolation: (s) =>
    s.error(
      'Extra characters after interpolation expression',
      'Expected a closing brace to end the interpolation expression, but found extra characters.',
      s.pos,
    ),
  directiveKeyword: (s, _word, _start, wordStart) =>
    s.error(
      'Invalid template directive',
      'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.',
      wordStart,
      Math.max(s.pos, wordStart + 1),
    ),
  forDirective: (s, start) =>
    s.error(
      'Invalid template directive',
      'A "for" directive needs a variable name and the "in" keyword.',
      start,
      s.pos,
    ),
  unclosedDirective: (s) =>
    s.error(
      'Extra characters in template directive',
      'Expected a closing brace to end the template directive.',
      s.pos,
    ),
  unexpectedDirective: (s, t) =>
    s.error(
      'Unexpected template directive',
      `The "${t.dir.word}" directive has no matching opening directive.`,
      t.start,
      t.end,
    ),
  secondElse: (s, _ifTok, elseTok) =>
    s.error(
      'Unexpected template directive',
      `The "${elseTok.dir.word}" directive has no matching opening directive.`,
      elseTok.start,
      elseTok.end,
    ),
  unterminatedDirective: (s, opener) =>
    s.error(
      'Unterminated template directive',
      `A "${opener}" directive has no closing "end${opener}".`,
      s.pos,
    ),
};

export function parseTemplate(p: ExprParser<Source>, mode: 'quoted' | 'heredoc'): Expr {
  const s = p.src;
  const start = s.pos;
  const m = MESSAGES;
  let tokens: TemplateToken<Expr, Directive>[];
  if (mode === 'quoted') {
    s.pos++;
    tokens = readTemplateTokens(p, m, start, { quoted: true });
    s.pos++; // closing quote
  } else {
    tokens = readHeredoc(p, m, start);
  }
  const parts = nestTemplate(s, tokens, m);
  return { type: 'template', parts, span: { start, end: s.pos } };
}

function readHeredoc(
  p: ExprParser<Source>,
  m: TemplateMessages<Source>,
  start: number,
): TemplateToken<Expr, Directive>[] {
  const s = p.src;
  s.pos += 2;
  const flush = s.peek() === '-';
  if (flush) s.pos++;
  const marker = s.readIdent();
  if (!marker) {
    throw s.error(
      'Invalid heredoc',
      'A heredoc must start with "<<" or "<<-" followed by a delimiter word.',
      start,
      s.pos,
    );
  }
  if (s.peek() === '\r') s.pos++;
  if (s.peek() !== '\n') {
    throw s.error('Invalid heredoc', 'The heredoc delimiter must be followed by a newline.', start, s.pos);
  }
  s.pos++;
  const bounds = findHeredocEnd(s.text, s.pos, marker, flush);
  if (!bounds) {
    throw s.error(
      'Unterminated template string',
      `No closing marker was found for the heredoc; expected a line containing only "${marker}".`,
      start,
      s.pos,
    );
  }
  const tokens = readTemplateTokens(p, m, start, {
    quoted: false,
    end: bounds.contentEnd,
    flushIndent: bounds.flushIndent,
  });
  s.pos = bounds.after;
  return tokens;
}
