import {
  applyStripMarkers,
  findHeredocEnd,
  readEscape,
  scanTemplate,
  type TemplateHooks,
  type TemplateToken,
} from '../../../hcl/template';
import type { Expr, TemplatePart } from '../../../hcl/ast';
import type { ExprParser } from '../../../hcl/parser';
import type { Source } from './source';

/*
 * The jobspec dialect of string templates (quoted strings and heredocs): the shared scanner does
 * the lexing; here are HCL's diagnostics and the nesting of `%{if}` / `%{for}` directives.
 */

type Word = 'if' | 'else' | 'endif' | 'for' | 'endfor';

interface Directive {
  word: Word;
  cond?: Expr;
  keyVar?: string;
  valVar?: string;
  coll?: Expr;
}

type Token = TemplateToken<Expr, Directive>;

export function parseTemplate(p: ExprParser, s: Source, mode: 'quoted' | 'heredoc'): Expr {
  const start = s.pos;
  let tokens: Token[];
  if (mode === 'quoted') {
    s.pos++;
    tokens = scanTemplate(s, hooks(p, s, start), { quoted: true });
    s.pos++; // closing quote
  } else {
    tokens = scanHeredoc(p, s, start);
  }
  applyStripMarkers(tokens);
  const parts = build(s, tokens);
  return { type: 'template', parts, span: { start, end: s.pos } };
}

function hooks(p: ExprParser, s: Source, start: number): TemplateHooks<Expr, Directive> {
  const unterminated = (): Error =>
    s.error('Unterminated template string', 'No closing marker was found for the string.', start, s.pos);
  return {
    interpolation: () => readInterpolation(p, s),
    directive: () => readDirective(p, s),
    escape: () => readEscapeText(s),
    unterminated,
    newline: unterminated,
  };
}

function scanHeredoc(p: ExprParser, s: Source, start: number): Token[] {
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
  const tokens = scanTemplate(s, hooks(p, s, start), {
    quoted: false,
    end: bounds.contentEnd,
    flushIndent: bounds.flushIndent,
  });
  s.pos = bounds.after;
  return tokens;
}

function readEscapeText(s: Source): string {
  const r = readEscape(s);
  if (r.ok) return r.text;
  throw s.error(
    'Invalid escape sequence',
    `The symbol "${r.selector}" is not a valid escape sequence selector.`,
    r.start,
    r.start + 2,
  );
}

function readInterpolation(p: ExprParser, s: Source): Token & { kind: 'interp' } {
  s.pos += 2;
  const stripL = s.peek() === '~';
  if (stripL) s.pos++;
  return p.inBrackets(() => {
    s.skipInline();
    const expr = p.parseExpr();
    s.skipInline();
    const stripR = s.peek() === '~';
    if (stripR) s.pos++;
    s.expect(
      '}',
      'Extra characters after interpolation expression',
      'Expected a closing brace to end the interpolation expression, but found extra characters.',
    );
    return { kind: 'interp' as const, expr, stripL, stripR };
  });
}

function readDirective(p: ExprParser, s: Source): Token & { kind: 'dir' } {
  const start = s.pos;
  s.pos += 2;
  const stripL = s.peek() === '~';
  if (stripL) s.pos++;
  return p.inBrackets(() => {
    s.skipInline();
    const wordStart = s.pos;
    const word = s.readIdent();
    const dir: Directive = { word: 'if' };
    const tok: Token & { kind: 'dir' } = { kind: 'dir', dir, stripL, stripR: false, start, end: start };
    switch (word) {
      case 'if':
        s.skipInline();
        dir.cond = p.parseExpr();
        break;
      case 'for': {
        s.skipInline();
        let v = s.readIdent();
        s.skipInline();
        if (s.peek() === ',') {
          s.pos++;
          s.skipInline();
          dir.keyVar = v;
          v = s.readIdent();
          s.skipInline();
        }
        if (!v || !s.eatKeyword('in')) {
          throw s.error(
            'Invalid template directive',
            'A "for" directive needs a variable name and the "in" keyword.',
            start,
            s.pos,
          );
        }
        dir.valVar = v;
        s.skipInline();
        dir.coll = p.parseExpr();
        break;
      }
      case 'else':
      case 'endif':
      case 'endfor':
        break;
      default:
        throw s.error(
          'Invalid template directive',
          'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.',
          wordStart,
          Math.max(s.pos, wordStart + 1),
        );
    }
    dir.word = word;
    s.skipInline();
    tok.stripR = s.peek() === '~';
    if (tok.stripR) s.pos++;
    s.expect(
      '}',
      'Extra characters in template directive',
      'Expected a closing brace to end the template directive.',
    );
    tok.end = s.pos;
    return tok;
  });
}

function build(s: Source, tokens: Token[]): TemplatePart[] {
  let i = 0;
  const seq = (until: Word[]): { parts: TemplatePart[]; stop?: Token & { kind: 'dir' } } => {
    const parts: TemplatePart[] = [];
    while (i < tokens.length) {
      const t = tokens[i++] as Token;
      if (t.kind === 'lit') parts.push({ kind: 'literal', text: t.text });
      else if (t.kind === 'interp') parts.push({ kind: 'interp', expr: t.expr });
      else if (until.includes(t.dir.word)) return { parts, stop: t };
      else if (t.dir.word === 'if') {
        const then = seq(['else', 'endif']);
        let otherwise: TemplatePart[] = [];
        if (then.stop?.dir.word === 'else') otherwise = seq(['endif']).parts;
        parts.push({
          kind: 'if',
          cond: t.dir.cond as Expr,
          then: then.parts,
          else: otherwise,
          span: { start: t.start, end: t.end },
        });
      } else if (t.dir.word === 'for') {
        const body = seq(['endfor']);
        parts.push({
          kind: 'for',
          ...(t.dir.keyVar !== undefined ? { keyVar: t.dir.keyVar } : {}),
          valVar: t.dir.valVar as string,
          coll: t.dir.coll as Expr,
          body: body.parts,
          span: { start: t.start, end: t.end },
        });
      } else {
        throw s.error(
          'Unexpected template directive',
          `The "${t.dir.word}" directive has no matching opening directive.`,
          t.start,
          t.end,
        );
      }
    }
    if (until.length > 0) {
      const opener = until.includes('endfor') ? 'for' : 'if';
      throw s.error(
        'Unterminated template directive',
        `A "${opener}" directive has no closing "end${opener}".`,
        s.pos,
      );
    }
    return { parts };
  };
  return seq([]).parts;
}
