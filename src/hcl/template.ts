import type { Expr, TemplatePart } from './ast';
import type { Cursor } from './cursor';
import type { ExprParser } from './parser';

/*
 * Scanning of string templates, shared by both dialects: literal text (with `$${` and `%%{`
 * escapes), `${...}` interpolations and `%{...}` directives, backslash escapes in quoted strings,
 * heredoc indentation removal and `~` strip markers. The dialect parses what is inside the braces
 * and builds its own template parts from the tokens.
 */

export type TemplateToken<E, D> =
  | { kind: 'lit'; text: string }
  | { kind: 'interp'; expr: E; stripL: boolean; stripR: boolean }
  | { kind: 'dir'; dir: D; stripL: boolean; stripR: boolean; start: number; end: number };

export interface TemplateHooks<E, D> {
  /** At `${`: reads through the closing brace. */
  interpolation(): TemplateToken<E, D> & { kind: 'interp' };
  /** At `%{`: reads through the closing brace. */
  directive(): TemplateToken<E, D> & { kind: 'dir' };
  /** At a backslash in a quoted string: the character(s) it stands for. */
  escape(): string;
  /** A quoted string reached the end of the text. */
  unterminated(): Error;
  /** A quoted string reached a newline. */
  newline(): Error;
}

export interface ScanOptions {
  /** Up to the closing quote (left at the cursor), with backslash escapes; else up to `end`. */
  quoted: boolean;
  /** Where an unquoted template ends (a heredoc's closing marker); the end of the text by default. */
  end?: number;
  /** Blanks removed from the start of each line (`<<-` heredocs). */
  flushIndent?: number;
}

export function scanTemplate<E, D>(
  c: Cursor,
  hooks: TemplateHooks<E, D>,
  opts: ScanOptions,
): TemplateToken<E, D>[] {
  const t = c.text;
  const end = opts.end ?? t.length;
  const indent = opts.flushIndent ?? 0;
  const tokens: TemplateToken<E, D>[] = [];
  let lit = '';
  let atLineStart = indent > 0;
  const flush = (): void => {
    if (lit) tokens.push({ kind: 'lit', text: lit });
    lit = '';
  };
  const special = (ch: string | undefined): boolean =>
    ch === '$' || ch === '%' || (opts.quoted && (ch === '"' || ch === '\n' || ch === '\\'));
  for (;;) {
    if (opts.quoted) {
      if (c.atEnd) throw hooks.unterminated();
      if (t[c.pos] === '\n') throw hooks.newline();
      if (t[c.pos] === '"') break;
    } else if (c.pos >= end) {
      break;
    }
    if (atLineStart) {
      const lineStart = c.pos;
      while (c.pos - lineStart < indent && (t[c.pos] === ' ' || t[c.pos] === '\t')) c.pos++;
      atLineStart = false;
      continue;
    }
    const ch = t[c.pos] as string;
    if ((ch === '$' || ch === '%') && t[c.pos + 1] === ch && t[c.pos + 2] === '{') {
      lit += `${ch}{`;
      c.pos += 3;
    } else if (ch === '$' && t[c.pos + 1] === '{') {
      flush();
      tokens.push(hooks.interpolation());
    } else if (ch === '%' && t[c.pos + 1] === '{') {
      flush();
      tokens.push(hooks.directive());
    } else if (opts.quoted && ch === '\\') {
      lit += hooks.escape();
    } else {
      // Plain characters are taken as one slice per run: adding them one by one would leave each
      // literal as a rope of one-character pieces (about 30 bytes per character) for as long as
      // the parsed configuration lives.
      const run = c.pos;
      do c.pos++;
      while (c.pos < end && !special(t[c.pos]) && !(indent > 0 && t[c.pos - 1] === '\n'));
      lit += t.slice(run, c.pos);
      atLineStart = indent > 0 && t[c.pos - 1] === '\n';
    }
  }
  flush();
  return tokens;
}

/**
 * `~` markers remove the whitespace on that side of the adjacent literal. HCL's scanner cuts the
 * literals of heredocs and template files after every newline and trims only the neighbouring
 * piece, so there (`lineScoped`) a marker reaches across one line break at most; a quoted string's
 * newlines are escapes inside one literal, which is trimmed whole.
 */
export function applyStripMarkers<E, D>(tokens: TemplateToken<E, D>[], lineScoped = false): void {
  tokens.forEach((tok, i) => {
    if (tok.kind === 'lit') return;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (tok.stripL && prev?.kind === 'lit') prev.text = trimLastPiece(prev.text, lineScoped);
    if (tok.stripR && next?.kind === 'lit') next.text = trimFirstPiece(next.text, lineScoped);
  });
}

/** Trailing whitespace of the last piece: the last line, with its newline when it ends in one. */
function trimLastPiece(text: string, lineScoped: boolean): string {
  const cut = lineScoped && text.length >= 2 ? text.lastIndexOf('\n', text.length - 2) + 1 : 0;
  return text.slice(0, cut) + text.slice(cut).replace(/\s+$/, '');
}

/** Leading whitespace of the first piece: up to and including the first newline. */
function trimFirstPiece(text: string, lineScoped: boolean): string {
  const nl = lineScoped ? text.indexOf('\n') : -1;
  const cut = nl < 0 ? text.length : nl + 1;
  return text.slice(0, cut).replace(/^\s+/, '') + text.slice(cut);
}

export type EscapeResult =
  | { ok: true; text: string }
  /** `hexLength` is set for a `\u` / `\U` without enough hex digits. */
  | { ok: false; selector: string; start: number; hexLength?: number };

/** Reads a backslash escape at the cursor; on failure the cursor is just past the selector. */
export function readEscape(c: Cursor): EscapeResult {
  const start = c.pos;
  const sel = c.peek(1);
  c.pos += 2;
  switch (sel) {
    case 'n':
      return { ok: true, text: '\n' };
    case 'r':
      return { ok: true, text: '\r' };
    case 't':
      return { ok: true, text: '\t' };
    case '"':
      return { ok: true, text: '"' };
    case '\\':
      return { ok: true, text: '\\' };
    case 'u':
    case 'U': {
      const len = sel === 'u' ? 4 : 8;
      const hex = c.text.slice(c.pos, c.pos + len);
      if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) {
        return { ok: false, selector: sel, start, hexLength: len };
      }
      c.pos += len;
      return { ok: true, text: String.fromCodePoint(parseInt(hex, 16)) };
    }
    default:
      return { ok: false, selector: sel, start };
  }
}

/** Heredoc layout: where its content ends, where the closing marker ends, and its flush indent. */
export interface HeredocBounds {
  marker: string;
  contentStart: number;
  contentEnd: number;
  after: number;
  flushIndent: number;
}

/**
 * Finds the end of a heredoc whose content starts at `contentStart`: the first line that holds
 * only `marker`. Returns undefined if there is none.
 */
export function findHeredocEnd(
  text: string,
  contentStart: number,
  marker: string,
  flush: boolean,
): HeredocBounds | undefined {
  let lineStart = contentStart;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() === marker) {
      const after = lineStart + line.indexOf(marker) + marker.length;
      let flushIndent = 0;
      if (flush) {
        const widths = text
          .slice(contentStart, lineStart)
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => (/^[ \t]*/.exec(l) as RegExpExecArray)[0].length);
        flushIndent = widths.length ? Math.min(...widths) : 0;
      }
      return { marker, contentStart, contentEnd: lineStart, after, flushIndent };
    }
    if (nl < 0) return undefined;
    lineStart = nl + 1;
  }
  return undefined;
}

/* ---- template parts: interpolations, directives and their nesting ------------------------------ */

export type DirectiveWord = 'if' | 'else' | 'endif' | 'for' | 'endfor';

export interface Directive {
  word: DirectiveWord;
  cond?: Expr;
  keyVar?: string;
  valVar?: string;
  coll?: Expr;
}

export type DirectiveToken = TemplateToken<Expr, Directive> & { kind: 'dir' };

/**
 * How a dialect reports problems in templates; `c` is the cursor, `start` where the string or
 * sequence began.
 */
export interface TemplateMessages<C extends Cursor = Cursor> {
  /** A quoted string reached the end of the text, or a newline. */
  unterminatedString(c: C, start: number): Error;
  newlineInString(c: C, start: number): Error;
  escape(c: C, failed: EscapeResult & { ok: false }): Error;
  /** `${}`; without it, the expression parser reports the `}`. */
  emptyInterpolation?(c: C, start: number): Error;
  unclosedInterpolation(c: C, start: number): Error;
  /** `%{` followed by something other than a directive keyword. */
  directiveKeyword(c: C, word: string, start: number, wordStart: number): Error;
  /** No name after `for` (second: after the `,`); without it, `forDirective` reports it. */
  directiveVariable?(c: C, second: boolean): Error;
  /** A `for` directive without its names or `in`. */
  forDirective(c: C, start: number): Error;
  unclosedDirective(c: C): Error;
  /** `%{else}`, `%{endif}` or `%{endfor}` with no matching opener. */
  unexpectedDirective(c: C, tok: DirectiveToken): Error;
  /** The template ended inside an `if` or `for`. */
  unterminatedDirective(c: C, opener: 'if' | 'for'): Error;
  /** A second `%{else}` in one `%{if}`. */
  secondElse(c: C, ifTok: DirectiveToken, elseTok: DirectiveToken): Error;
}

/**
 * Reads the tokens of a template up to the closing quote (`quoted`, left at the cursor) or
 * `opts.end`, with strip markers applied; `nestTemplate` makes parts of them.
 */
export function readTemplateTokens<C extends Cursor>(
  p: ExprParser<C>,
  m: TemplateMessages<C>,
  start: number,
  opts: ScanOptions,
): TemplateToken<Expr, Directive>[] {
  const c = p.src;
  const hooks: TemplateHooks<Expr, Directive> = {
    interpolation: () => readInterpolation(p, m),
    directive: () => readDirective(p, m),
    escape: () => {
      const r = readEscape(c);
      if (!r.ok) throw m.escape(c, r);
      return r.text;
    },
    unterminated: () => m.unterminatedString(c, start),
    newline: () => m.newlineInString(c, start),
  };
  const tokens = scanTemplate(c, hooks, opts);
  applyStripMarkers(tokens, !opts.quoted);
  return tokens;
}

/** Consumes a `~` strip marker at the cursor, if there is one. */
function eatStrip(c: Cursor): boolean {
  if (c.peek() !== '~') return false;
  c.pos++;
  return true;
}

function readInterpolation<C extends Cursor>(
  p: ExprParser<C>,
  m: TemplateMessages<C>,
): TemplateToken<Expr, Directive> & { kind: 'interp' } {
  const c = p.src;
  const start = c.pos;
  c.pos += 2; // ${
  const stripL = eatStrip(c);
  return p.inBrackets(() => {
    c.skipInline();
    if (c.peek() === '}' && m.emptyInterpolation) throw m.emptyInterpolation(c, start);
    const expr = p.parseExpr();
    c.skipInline();
    const stripR = eatStrip(c);
    if (c.peek() !== '}') throw m.unclosedInterpolation(c, start);
    c.pos++;
    return { kind: 'interp' as const, expr, stripL, stripR };
  });
}

function readDirective<C extends Cursor>(p: ExprParser<C>, m: TemplateMessages<C>): DirectiveToken {
  const c = p.src;
  const start = c.pos;
  c.pos += 2; // %{
  const stripL = eatStrip(c);
  return p.inBrackets(() => {
    c.skipInline();
    const wordStart = c.pos;
    const word = c.readIdent();
    let dir: Directive;
    switch (word) {
      case 'if':
        c.skipInline();
        dir = { word, cond: p.parseExpr() };
        break;
      case 'for': {
        c.skipInline();
        const first = c.readIdent();
        if (!first && m.directiveVariable) throw m.directiveVariable(c, false);
        c.skipInline();
        let keyVar: string | undefined;
        let valVar = first;
        if (c.peek() === ',') {
          c.pos++;
          c.skipInline();
          const second = c.readIdent();
          if (!second && m.directiveVariable) throw m.directiveVariable(c, true);
          keyVar = first;
          valVar = second;
          c.skipInline();
        }
        if (!valVar || !c.eatKeyword('in')) throw m.forDirective(c, start);
        c.skipInline();
        dir = { word, valVar, coll: p.parseExpr(), ...(keyVar !== undefined ? { keyVar } : {}) };
        break;
      }
      case 'else':
      case 'endif':
      case 'endfor':
        dir = { word };
        break;
      default:
        throw m.directiveKeyword(c, word, start, wordStart);
    }
    c.skipInline();
    const stripR = eatStrip(c);
    if (c.peek() !== '}') throw m.unclosedDirective(c);
    c.pos++;
    return { kind: 'dir' as const, dir, stripL, stripR, start, end: c.pos };
  });
}

/** Nests `%{if}` / `%{for}` bodies; a closing directive without its opener is an error. */
export function nestTemplate<C extends Cursor>(
  c: C,
  tokens: TemplateToken<Expr, Directive>[],
  m: TemplateMessages<C>,
): TemplatePart[] {
  let i = 0;
  const seq = (until: DirectiveWord[]): { parts: TemplatePart[]; stop?: DirectiveToken } => {
    const parts: TemplatePart[] = [];
    while (i < tokens.length) {
      const t = tokens[i++] as TemplateToken<Expr, Directive>;
      if (t.kind === 'lit') parts.push({ kind: 'literal', text: t.text });
      else if (t.kind === 'interp') parts.push({ kind: 'interp', expr: t.expr });
      else if (until.includes(t.dir.word)) return { parts, stop: t };
      else if (t.dir.word === 'if') {
        const then = seq(['else', 'endif']);
        let otherwise: TemplatePart[] = [];
        if (then.stop?.dir.word === 'else') {
          const rest = seq(['else', 'endif']);
          if (rest.stop?.dir.word === 'else') throw m.secondElse(c, t, rest.stop);
          otherwise = rest.parts;
        }
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
        throw m.unexpectedDirective(c, t);
      }
    }
    if (until.length > 0) throw m.unterminatedDirective(c, until.includes('endfor') ? 'for' : 'if');
    return { parts };
  };
  return seq([]).parts;
}
