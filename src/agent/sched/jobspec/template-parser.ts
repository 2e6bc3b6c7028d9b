import type { Expr, TemplatePart } from './ast';
import type { ExprParser } from './expr-parser';

/*
 * String templates: quoted strings with escapes and heredocs, both with `${...}` interpolation and
 * `%{if}` / `%{for}` directives, `~` strip markers, and `$${` / `%%{` as literal escapes.
 */

type Directive = 'if' | 'else' | 'endif' | 'for' | 'endfor';

type Token =
  | { kind: 'lit'; text: string }
  | { kind: 'interp'; expr: Expr; stripL: boolean; stripR: boolean }
  | {
      kind: 'dir';
      word: Directive;
      cond?: Expr;
      keyVar?: string;
      valVar?: string;
      coll?: Expr;
      stripL: boolean;
      stripR: boolean;
      start: number;
      end: number;
    };

export function parseTemplate(p: ExprParser, mode: 'quoted' | 'heredoc'): Expr {
  const s = p.src;
  const start = s.pos;
  let tokens: Token[];
  if (mode === 'quoted') {
    s.pos++;
    tokens = scan(p, start, undefined, 0);
    s.pos++; // closing quote
  } else {
    tokens = scanHeredoc(p, start);
  }
  applyStripMarkers(tokens);
  const parts = build(p, tokens);
  return { type: 'template', parts, range: s.range(start, s.pos) };
}

function scanHeredoc(p: ExprParser, start: number): Token[] {
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
  const contentStart = s.pos;
  const text = s.text;
  let lineStart = contentStart;
  let contentEnd = -1;
  let after = -1;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() === marker) {
      contentEnd = lineStart;
      after = lineStart + line.indexOf(marker) + marker.length;
      break;
    }
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  if (contentEnd < 0) {
    throw s.error(
      'Unterminated template string',
      `No closing marker was found for the heredoc; expected a line containing only "${marker}".`,
      start,
      s.pos,
    );
  }
  let indent = 0;
  if (flush) {
    const widths = text
      .slice(contentStart, contentEnd)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (/^[ \t]*/.exec(l) as RegExpExecArray)[0].length);
    indent = widths.length ? Math.min(...widths) : 0;
  }
  const tokens = scan(p, start, contentEnd, indent);
  s.pos = after;
  return tokens;
}

/** Scans template tokens up to the closing quote (quoted) or `end` (heredoc). */
function scan(p: ExprParser, start: number, end: number | undefined, flushIndent: number): Token[] {
  const s = p.src;
  const quoted = end === undefined;
  const tokens: Token[] = [];
  let buf = '';
  let atLineStart = true;
  const flushLiteral = (): void => {
    if (buf) tokens.push({ kind: 'lit', text: buf });
    buf = '';
  };
  for (;;) {
    if (quoted) {
      if (s.atEnd || s.peek() === '\n') {
        throw s.error(
          'Unterminated template string',
          'No closing marker was found for the string.',
          start,
          s.pos,
        );
      }
      if (s.peek() === '"') break;
    } else if (s.pos >= end) {
      break;
    }
    if (atLineStart && flushIndent > 0) {
      let n = 0;
      while (n < flushIndent && (s.peek() === ' ' || s.peek() === '\t')) {
        s.pos++;
        n++;
      }
      atLineStart = false;
      continue;
    }
    atLineStart = false;
    const c = s.peek();
    if (quoted && c === '\\') {
      buf += readEscape(p);
    } else if (s.startsWith('$${') || s.startsWith('%%{')) {
      buf += c + '{';
      s.pos += 3;
    } else if (s.startsWith('${')) {
      flushLiteral();
      tokens.push(readInterpolation(p));
    } else if (s.startsWith('%{')) {
      flushLiteral();
      tokens.push(readDirective(p));
    } else {
      buf += c;
      s.pos++;
      atLineStart = c === '\n';
    }
  }
  flushLiteral();
  return tokens;
}

function readEscape(p: ExprParser): string {
  const s = p.src;
  const start = s.pos;
  const c = s.peek(1);
  s.pos += 2;
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '"':
      return '"';
    case '\\':
      return '\\';
    case 'u':
    case 'U': {
      const len = c === 'u' ? 4 : 8;
      const hex = s.text.slice(s.pos, s.pos + len);
      if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) break;
      s.pos += len;
      return String.fromCodePoint(parseInt(hex, 16));
    }
  }
  throw s.error(
    'Invalid escape sequence',
    `The symbol "${c}" is not a valid escape sequence selector.`,
    start,
    start + 2,
  );
}

function readInterpolation(p: ExprParser): Token {
  const s = p.src;
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
    return { kind: 'interp', expr, stripL, stripR } satisfies Token;
  });
}

function readDirective(p: ExprParser): Token {
  const s = p.src;
  const start = s.pos;
  s.pos += 2;
  const stripL = s.peek() === '~';
  if (stripL) s.pos++;
  return p.inBrackets(() => {
    s.skipInline();
    const wordStart = s.pos;
    const word = s.readIdent();
    const tok: Token = { kind: 'dir', word: 'if', stripL, stripR: false, start, end: start };
    switch (word) {
      case 'if':
        s.skipInline();
        tok.cond = p.parseExpr();
        break;
      case 'for': {
        s.skipInline();
        let v = s.readIdent();
        s.skipInline();
        if (s.peek() === ',') {
          s.pos++;
          s.skipInline();
          tok.keyVar = v;
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
        tok.valVar = v;
        s.skipInline();
        tok.coll = p.parseExpr();
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
    tok.word = word;
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

function applyStripMarkers(tokens: Token[]): void {
  tokens.forEach((t, i) => {
    if (t.kind === 'lit') return;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (t.stripL && prev?.kind === 'lit') prev.text = prev.text.replace(/\s+$/, '');
    if (t.stripR && next?.kind === 'lit') next.text = next.text.replace(/^\s+/, '');
  });
}

function build(p: ExprParser, tokens: Token[]): TemplatePart[] {
  let i = 0;
  const s = p.src;
  const seq = (until: Directive[]): { parts: TemplatePart[]; stop?: Token & { kind: 'dir' } } => {
    const parts: TemplatePart[] = [];
    while (i < tokens.length) {
      const t = tokens[i++] as Token;
      if (t.kind === 'lit') parts.push({ kind: 'literal', text: t.text });
      else if (t.kind === 'interp')
        parts.push({ kind: 'interp', expr: t.expr, stripLeft: t.stripL, stripRight: t.stripR });
      else if (until.includes(t.word)) return { parts, stop: t };
      else if (t.word === 'if') {
        const then = seq(['else', 'endif']);
        let otherwise: TemplatePart[] = [];
        if (then.stop?.word === 'else') otherwise = seq(['endif']).parts;
        parts.push({
          kind: 'if',
          cond: t.cond as Expr,
          then: then.parts,
          else: otherwise,
          range: s.range(t.start, t.end),
        });
      } else if (t.word === 'for') {
        const body = seq(['endfor']);
        parts.push({
          kind: 'for',
          keyVar: t.keyVar,
          valVar: t.valVar as string,
          coll: t.coll as Expr,
          body: body.parts,
          range: s.range(t.start, t.end),
        });
      } else {
        throw s.error(
          'Unexpected template directive',
          `The "${t.word}" directive has no matching opening directive.`,
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
