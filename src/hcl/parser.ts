import type { Expr, ForExpr, ObjectItem, Span, Step } from './ast';
import { isDigit, type Cursor } from './cursor';
import { BINARY_LEVELS, matchBinaryOp, matchUnaryOp, readDigits, readNumber } from './syntax';

/*
 * The one recursive-descent parser of the HCL native expression language. Both dialects use it:
 * the jobspec parser of the dev agent (HCL's own messages, `file:line,col` ranges, heredocs) and
 * the engine's parser for Terraform JSON configuration strings (its own messages, error snippets).
 * What differs between them is said by a `Dialect`: the messages, string templates (each dialect
 * builds its parts from the shared scanner in ./template) and a few grammar details, each named
 * below with the dialect that wants it.
 */

/** How a dialect reports each problem; `c` is the cursor, at the offending text. */
export interface ExprMessages<C extends Cursor = Cursor> {
  /** `a ? b` without `: c`. */
  missingFalse(c: C): Error;
  /** `(a` without `)`. */
  unbalancedParen(c: C): Error;
  /** The text ends where an expression should start; without it, `invalidExpression` is used. */
  missingExpression?(c: C): Error;
  /** No expression can start with the character at the cursor. */
  invalidExpression(c: C): Error;
  /** `<<` where the dialect has no heredocs. */
  heredoc?(c: C): Error;
  /** `name::...`: a provider-defined function; without it, `::` is not checked for. */
  providerFunction?(c: C, name: string, start: number): Error;
  /** `...` before an argument other than the last; without it, later arguments are allowed. */
  expandNotLast?(c: C): Error;
  missingArgSeparator(c: C, fn: string): Error;
  /** The text ends inside `[...]` / `{...}`; without them the item parser reports the end. */
  unterminatedTuple?(c: C, start: number): Error;
  unterminatedObject?(c: C, start: number): Error;
  missingItemSeparator(c: C): Error;
  missingKeyValueSeparator(c: C): Error;
  /** No name after `for` (second: after the `,`). */
  forVariable(c: C, second: boolean): Error;
  forIn(c: C): Error;
  forColon(c: C): Error;
  forArrow(c: C): Error;
  forClose(c: C, close: string): Error;
  indexClose(c: C): Error;
  attributeName(c: C): Error;
}

export interface Dialect<C extends Cursor = Cursor> {
  messages: ExprMessages<C>;
  /** Parses a quoted template (cursor at `"`) or a heredoc (cursor at `<<`). */
  template(p: ExprParser<C>, kind: 'quoted' | 'heredoc'): Expr;
  /** Jobspec: `<<` starts a heredoc, never a `<` operator. */
  heredocs: boolean;
  /**
   * Jobspec: a node ends where its last child ends. Engine: where the cursor stopped, after any
   * blanks the parser looked past (only error snippets use the engine's spans).
   */
  tightSpans: boolean;
  /**
   * Engine (Terraform's traversals): blanks may stand before `.`/`[` steps, after `.` and inside
   * `[ * ]`; `.*` takes only attribute steps and `[*]` also index steps with any key expression.
   * Jobspec (HCL's): steps follow without blanks and both splats take attribute steps and index
   * steps with literal keys only.
   */
  terraformTraversals: boolean;
  /** Jobspec: `{ a => 1 }` is a missing key/value separator, not `=` followed by `> 1`. */
  arrowIsNotSeparator: boolean;
}

type ExpectMessage = 'missingFalse' | 'unbalancedParen' | 'forColon' | 'forArrow' | 'indexClose';

export class ExprParser<C extends Cursor = Cursor> {
  private readonly msg: ExprMessages<C>;

  constructor(
    readonly src: C,
    readonly dialect: Dialect<C>,
  ) {
    this.msg = dialect.messages;
  }

  /** Runs `fn` with newlines insignificant, as inside brackets. */
  inBrackets<T>(fn: () => T): T {
    this.src.nlFree++;
    try {
      return fn();
    } finally {
      this.src.nlFree--;
    }
  }

  private endAfter(last: Expr): number {
    return this.dialect.tightSpans ? last.span.end : this.src.pos;
  }

  /** Expects `token` after optional blanks. */
  private expect(token: string, missing: ExpectMessage): void {
    const s = this.src;
    s.skipInline();
    if (!s.startsWith(token)) throw this.msg[missing](s);
    s.pos += token.length;
  }

  parseExpr(): Expr {
    const s = this.src;
    s.skipInline();
    const cond = this.parseBinary(0);
    s.skipInline();
    if (s.peek() !== '?') return cond;
    s.pos++;
    const then = this.parseExpr();
    this.expect(':', 'missingFalse');
    const otherwise = this.parseExpr();
    return {
      type: 'conditional',
      cond,
      then,
      else: otherwise,
      span: { start: cond.span.start, end: this.endAfter(otherwise) },
    };
  }

  private parseBinary(level: number): Expr {
    if (level === BINARY_LEVELS.length) return this.parseUnary();
    const s = this.src;
    let left = this.parseBinary(level + 1);
    for (;;) {
      s.skipInline();
      const op = matchBinaryOp(s, level, this.dialect.heredocs);
      if (!op) return left;
      s.pos += op.length;
      s.skipInline();
      const right = this.parseBinary(level + 1);
      left = { type: 'binary', op, left, right, span: { start: left.span.start, end: this.endAfter(right) } };
    }
  }

  private parseUnary(): Expr {
    const s = this.src;
    s.skipInline();
    const op = matchUnaryOp(s);
    if (op) {
      const start = s.pos;
      s.pos++;
      const operand = this.parseUnary();
      return { type: 'unary', op, operand, span: { start, end: this.endAfter(operand) } };
    }
    return this.parsePostfix(this.parseTerm());
  }

  private parseTerm(): Expr {
    const s = this.src;
    const start = s.pos;
    const c = s.peek();
    if (c === '' && this.msg.missingExpression) throw this.msg.missingExpression(this.src);
    if (isDigit(c)) {
      const raw = readNumber(s);
      const value = Number(raw);
      // Only integers the double holds exactly can drop their text; the engine reads the rest exactly.
      if (Number.isSafeInteger(value) && /^[0-9]+$/.test(raw))
        return { type: 'literal', value, span: { start, end: s.pos } };
      return { type: 'literal', value, raw, span: { start, end: s.pos } };
    }
    if (c === '"') return this.dialect.template(this, 'quoted');
    if (c === '<' && s.peek(1) === '<') {
      if (this.dialect.heredocs) return this.dialect.template(this, 'heredoc');
      if (this.msg.heredoc) throw this.msg.heredoc(this.src);
    }
    if (c === '(') {
      s.pos++;
      const expr = this.inBrackets(() => {
        const e = this.parseExpr();
        this.expect(')', 'unbalancedParen');
        return e;
      });
      return { type: 'paren', expr, span: { start, end: s.pos } };
    }
    if (c === '[') return this.parseTuple();
    if (c === '{') return this.parseObject();
    const name = s.readIdent();
    if (!name) throw this.msg.invalidExpression(this.src);
    if (name === 'true' || name === 'false')
      return { type: 'literal', value: name === 'true', span: { start, end: s.pos } };
    if (name === 'null') return { type: 'literal', value: null, span: { start, end: s.pos } };
    const save = s.pos;
    s.skipInline();
    if (s.peek() === '(') return this.parseCall(name, start);
    if (this.msg.providerFunction && s.startsWith('::'))
      throw this.msg.providerFunction(this.src, name, start);
    if (this.dialect.tightSpans) s.pos = save;
    return { type: 'scope', name, steps: [], span: { start, end: s.pos } };
  }

  private parseCall(name: string, start: number): Expr {
    const s = this.src;
    s.pos++; // (
    const args: Expr[] = [];
    let expandFinal = false;
    this.inBrackets(() => {
      for (;;) {
        s.skipInline();
        if (s.peek() === ')') break;
        args.push(this.parseExpr());
        s.skipInline();
        if (s.startsWith('...')) {
          s.pos += 3;
          expandFinal = true;
          s.skipInline();
          if (this.msg.expandNotLast) {
            if (s.peek() !== ')') throw this.msg.expandNotLast(this.src);
            break;
          }
        }
        if (s.peek() === ',') {
          s.pos++;
          continue;
        }
        if (s.peek() === ')') break;
        throw this.msg.missingArgSeparator(this.src, name);
      }
      s.pos++; // )
    });
    return { type: 'call', name, args, expandFinal, span: { start, end: s.pos } };
  }

  private parseTuple(): Expr {
    const s = this.src;
    const start = s.pos;
    s.pos++;
    return this.inBrackets(() => {
      s.skipInline();
      if (s.eatKeyword('for')) return this.parseFor(start, false);
      const items: Expr[] = [];
      for (;;) {
        s.skipInline();
        if (s.peek() === ']') break;
        if (s.atEnd && this.msg.unterminatedTuple) throw this.msg.unterminatedTuple(this.src, start);
        items.push(this.parseExpr());
        s.skipInline();
        if (s.peek() === ',') {
          s.pos++;
          continue;
        }
        if (s.peek() === ']') break;
        throw this.msg.missingItemSeparator(this.src);
      }
      s.pos++;
      return { type: 'tuple', items, span: { start, end: s.pos } } satisfies Expr;
    });
  }

  private parseObject(): Expr {
    const s = this.src;
    const start = s.pos;
    s.pos++;
    return this.inBrackets(() => {
      s.skipInline();
      if (s.eatKeyword('for')) return this.parseFor(start, true);
      const items: ObjectItem[] = [];
      for (;;) {
        s.skipInline();
        if (s.peek() === '}') break;
        if (s.atEnd && this.msg.unterminatedObject) throw this.msg.unterminatedObject(this.src, start);
        const key = this.parseObjectKey();
        s.skipInline();
        const c = s.peek();
        const next = s.peek(1);
        if ((c !== '=' && c !== ':') || next === '=' || (this.dialect.arrowIsNotSeparator && next === '>')) {
          throw this.msg.missingKeyValueSeparator(this.src);
        }
        s.pos++;
        s.skipInline();
        items.push({ key, value: this.parseExpr() });
        s.skipInline();
        if (s.peek() === ',') s.pos++;
      }
      s.pos++;
      return { type: 'object', items, span: { start, end: s.pos } } satisfies Expr;
    });
  }

  /** A bare identifier key is a literal string, as in HCL; anything else is an expression. */
  private parseObjectKey(): Expr {
    const s = this.src;
    const start = s.pos;
    const name = s.readIdent();
    if (name) {
      const save = s.pos;
      s.skipInline();
      const c = s.peek();
      if ((c === '=' || c === ':') && s.peek(1) !== '=') {
        s.pos = save;
        return { type: 'literal', value: name, span: { start, end: save } };
      }
      s.pos = start;
    }
    return this.parseExpr();
  }

  private parseFor(start: number, isObject: boolean): ForExpr {
    const s = this.src;
    const close = isObject ? '}' : ']';
    s.skipInline();
    const first = s.readIdent();
    if (!first) throw this.msg.forVariable(this.src, false);
    let keyVar: string | undefined;
    let valVar = first;
    s.skipInline();
    if (s.peek() === ',') {
      s.pos++;
      s.skipInline();
      const second = s.readIdent();
      if (!second) throw this.msg.forVariable(this.src, true);
      keyVar = first;
      valVar = second;
      s.skipInline();
    }
    if (!s.eatKeyword('in')) throw this.msg.forIn(this.src);
    const coll = this.parseExpr();
    this.expect(':', 'forColon');
    let keyExpr: Expr | undefined;
    let valExpr = this.parseExpr();
    s.skipInline();
    let grouping = false;
    if (isObject) {
      this.expect('=>', 'forArrow');
      keyExpr = valExpr;
      valExpr = this.parseExpr();
      s.skipInline();
      if (s.startsWith('...')) {
        grouping = true;
        s.pos += 3;
        s.skipInline();
      }
    }
    let cond: Expr | undefined;
    if (s.eatKeyword('if')) cond = this.parseExpr();
    s.skipInline();
    if (!s.startsWith(close)) throw this.msg.forClose(s, close);
    s.pos++;
    return {
      type: 'for',
      valVar,
      coll,
      valExpr,
      grouping,
      span: { start, end: s.pos },
      ...(keyVar !== undefined ? { keyVar } : {}),
      ...(keyExpr !== undefined ? { keyExpr } : {}),
      ...(cond !== undefined ? { cond } : {}),
    };
  }

  /** Attribute access, indexing and splats after a term. */
  private parsePostfix(base: Expr): Expr {
    const s = this.src;
    const tf = this.dialect.terraformTraversals;
    let cur = base;
    for (;;) {
      if (tf) s.skipInline();
      const start = s.pos;
      // `...` expands a function argument or groups for-expression results.
      if (s.startsWith('...')) return cur;
      const fullSplat = tf ? spacedFullSplatAt(s) : s.startsWith('[*]');
      if ((s.peek() === '.' && s.peek(1) === '*') || fullSplat) {
        const attrOnly = !fullSplat;
        s.pos = fullSplat ? s.text.indexOf(']', s.pos) + 1 : s.pos + 2;
        const steps = tf ? this.terraformSplatSteps(attrOnly) : this.hclSplatSteps();
        cur = { type: 'splat', source: cur, steps, span: { start: cur.span.start, end: s.pos } };
        continue;
      }
      let step: Step;
      if (s.peek() === '.') step = this.attrStep(start);
      else if (s.peek() === '[') step = this.indexStep(start);
      else return cur;
      cur = appendStep(cur, step);
    }
  }

  private attrStep(start: number): Step {
    const s = this.src;
    s.pos++;
    if (this.dialect.terraformTraversals) s.skipInline();
    if (isDigit(s.peek())) {
      // Legacy `list.0` index syntax.
      const value = readDigits(s);
      const span = { start, end: s.pos };
      return { kind: 'index', key: { type: 'literal', value, span }, span };
    }
    const name = s.readIdent();
    if (!name) throw this.msg.attributeName(this.src);
    return { kind: 'attr', name, span: { start, end: s.pos } };
  }

  private indexStep(start: number): Step {
    const s = this.src;
    s.pos++;
    const key = this.inBrackets(() => {
      const k = this.parseExpr();
      this.expect(']', 'indexClose');
      return k;
    });
    return { kind: 'index', key, span: { start, end: s.pos } };
  }

  /** After `[*]` every attribute/index step applies per element; after `.*` only attribute steps do. */
  private terraformSplatSteps(attrOnly: boolean): Step[] {
    const s = this.src;
    const steps: Step[] = [];
    for (;;) {
      s.skipInline();
      const c = s.peek();
      const start = s.pos;
      if (c === '.' && s.peek(1) !== '*' && !s.startsWith('...')) steps.push(this.attrStep(start));
      else if (!attrOnly && c === '[' && !spacedFullSplatAt(s)) steps.push(this.indexStep(start));
      else return steps;
    }
  }

  /** HCL's splats: attribute steps and literal-key index steps; anything else ends the splat. */
  private hclSplatSteps(): Step[] {
    const s = this.src;
    const steps: Step[] = [];
    for (;;) {
      const start = s.pos;
      if (s.peek() === '.' && s.isIdStart(s.peek(1))) {
        steps.push(this.attrStep(start));
      } else if (s.peek() === '[' && s.peek(1) !== '*') {
        s.pos++;
        const key = this.inBrackets(() => {
          const k = this.parseExpr();
          s.skipInline();
          return k;
        });
        if (staticKey(key) === undefined || s.peek() !== ']') {
          s.pos = start;
          return steps;
        }
        s.pos++;
        steps.push({ kind: 'index', key, span: { start, end: s.pos } });
      } else {
        return steps;
      }
    }
  }
}

const SPACED_FULL_SPLAT = /\[\s*\*\s*\]/y;

/** `[*]`, with blanks allowed inside, at the cursor. */
function spacedFullSplatAt(s: Cursor): boolean {
  SPACED_FULL_SPLAT.lastIndex = s.pos;
  return SPACED_FULL_SPLAT.test(s.text);
}

function appendStep(cur: Expr, step: Step): Expr {
  const span: Span = { start: cur.span.start, end: step.span.end };
  if (cur.type === 'scope' || cur.type === 'relative') return { ...cur, steps: [...cur.steps, step], span };
  return { type: 'relative', source: cur, steps: [step], span };
}

/** The value of a literal index key (`[0]`, `["a"]`), or undefined if it must be evaluated. */
export function staticKey(e: Expr): string | number | undefined {
  if (e.type === 'literal' && (typeof e.value === 'number' || typeof e.value === 'string')) return e.value;
  if (e.type === 'template' && e.parts.length === 1 && e.parts[0]?.kind === 'literal') return e.parts[0].text;
  if (e.type === 'template' && e.parts.length === 0) return '';
  return undefined;
}
