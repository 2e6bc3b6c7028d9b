import type { Cursor } from './cursor';

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

/** `~` markers remove the whitespace on that side of the adjacent literal. */
export function applyStripMarkers<E, D>(tokens: TemplateToken<E, D>[]): void {
  tokens.forEach((tok, i) => {
    if (tok.kind === 'lit') return;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (tok.stripL && prev?.kind === 'lit') prev.text = prev.text.replace(/\s+$/, '');
    if (tok.stripR && next?.kind === 'lit') next.text = next.text.replace(/^\s+/, '');
  });
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
