import { isDigit } from '../../../hcl/cursor';
import { BINARY_LEVELS, matchBinaryOp, matchUnaryOp, readDigits, readNumber } from '../../../hcl/syntax';
import type { Expr, ForExpr, ObjectItem, TraverseStep } from './ast';
import type { Range } from './errors';
import type { Source } from './source';
import { parseTemplate } from './template-parser';

const INVALID_EXPR = 'Expected the start of an expression, but found an invalid expression token.';

/** Recursive-descent parser for HCL expressions, reading from a shared Source cursor. */
export class ExprParser {
  constructor(readonly src: Source) {}

  private join(a: Range, b: Range): Range {
    return { filename: a.filename, start: a.start, end: b.end };
  }

  private rangeFrom(start: number): Range {
    return this.src.range(start, this.src.pos);
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

  parseExpr(): Expr {
    const s = this.src;
    const cond = this.parseBinary(0);
    s.skipInline();
    if (s.peek() !== '?') return cond;
    s.pos++;
    s.skipInline();
    const then = this.parseExpr();
    s.skipInline();
    s.expect(
      ':',
      'Missing false expression in conditional',
      'The conditional operator (...?...:...) requires a false expression, delimited by a colon.',
    );
    s.skipInline();
    const otherwise = this.parseExpr();
    return {
      type: 'conditional',
      cond,
      then,
      else: otherwise,
      range: this.join(cond.range, otherwise.range),
    };
  }

  private parseBinary(level: number): Expr {
    if (level === BINARY_LEVELS.length) return this.parseUnary();
    let left = this.parseBinary(level + 1);
    for (;;) {
      this.src.skipInline();
      const op = matchBinaryOp(this.src, level, true);
      if (!op) return left;
      this.src.pos += op.length;
      this.src.skipInline();
      const right = this.parseBinary(level + 1);
      left = { type: 'binary', op, left, right, range: this.join(left.range, right.range) };
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
      return { type: 'unary', op, operand, range: this.join(s.range(start), operand.range) };
    }
    return this.parsePostfix(this.parseTerm());
  }

  private parseTerm(): Expr {
    const s = this.src;
    const start = s.pos;
    const c = s.peek();
    if (isDigit(c)) return this.parseNumber();
    if (c === '"') return parseTemplate(this, 'quoted');
    if (c === '<' && s.peek(1) === '<') return parseTemplate(this, 'heredoc');
    if (c === '[') return this.parseTuple();
    if (c === '{') return this.parseObject();
    if (c === '(') {
      s.pos++;
      const expr = this.inBrackets(() => {
        s.skipInline();
        const e = this.parseExpr();
        s.skipInline();
        s.expect(
          ')',
          'Unbalanced parentheses',
          'Expected a closing parenthesis to terminate the expression.',
        );
        return e;
      });
      return { type: 'paren', expr, range: this.rangeFrom(start) };
    }
    const name = s.readIdent();
    if (!name) throw s.error('Invalid expression', INVALID_EXPR, start);
    if (name === 'true' || name === 'false')
      return { type: 'literal', value: name === 'true', range: this.rangeFrom(start) };
    if (name === 'null') return { type: 'literal', value: null, range: this.rangeFrom(start) };
    const nameRange = this.rangeFrom(start);
    const save = s.pos;
    s.skipInline();
    if (s.peek() === '(') return this.parseCall(name, start, nameRange);
    s.pos = save;
    return { type: 'scope', root: name, steps: [], range: nameRange };
  }

  private parseNumber(): Expr {
    const start = this.src.pos;
    const value = readNumber(this.src);
    return { type: 'literal', value, range: this.rangeFrom(start) };
  }

  private parseCall(name: string, start: number, nameRange: Range): Expr {
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
        }
        if (s.peek() === ',') {
          s.pos++;
          continue;
        }
        if (s.peek() === ')') break;
        throw s.error(
          'Missing argument separator',
          'A comma is required to separate each function argument from the next.',
          s.pos,
        );
      }
      s.pos++; // )
    });
    return { type: 'call', name, args, expandFinal, range: this.rangeFrom(start), nameRange };
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
        if (s.atEnd)
          throw s.error(
            'Unterminated tuple constructor',
            'There is no corresponding closing bracket before the end of the file.',
            start,
          );
        items.push(this.parseExpr());
        s.skipInline();
        if (s.peek() === ',') {
          s.pos++;
          continue;
        }
        if (s.peek() === ']') break;
        throw s.error(
          'Missing item separator',
          'Expected a comma to mark the beginning of the next item.',
          s.pos,
        );
      }
      s.pos++;
      return { type: 'tuple', items, range: this.rangeFrom(start) } satisfies Expr;
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
        if (s.atEnd)
          throw s.error(
            'Unterminated object constructor',
            'There is no corresponding closing brace before the end of the file.',
            start,
          );
        const key = this.parseObjectKey();
        s.skipInline();
        const c = s.peek();
        if (!((c === '=' || c === ':') && s.peek(1) !== '=' && s.peek(1) !== '>')) {
          throw s.error(
            'Missing key/value separator',
            'Expected an equals sign ("=") to mark the beginning of the attribute value.',
            s.pos,
          );
        }
        s.pos++;
        s.skipInline();
        items.push({ key, value: this.parseExpr() });
        s.skipInline();
        if (s.peek() === ',') s.pos++;
      }
      s.pos++;
      return { type: 'object', items, range: this.rangeFrom(start) } satisfies Expr;
    });
  }

  /** A bare identifier key is a literal string; anything else is an expression. */
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
        return { type: 'literal', value: name, range: this.rangeFrom(start) };
      }
      s.pos = start;
    }
    return this.parseExpr();
  }

  private parseFor(start: number, isObject: boolean): ForExpr {
    const s = this.src;
    const close = isObject ? '}' : ']';
    s.skipInline();
    const readVar = (): string => {
      const v = s.readIdent();
      if (!v)
        throw s.error(
          'Invalid "for" expression',
          'For expression requires a variable name after "for".',
          s.pos,
        );
      return v;
    };
    let valVar = readVar();
    let keyVar: string | undefined;
    s.skipInline();
    if (s.peek() === ',') {
      s.pos++;
      s.skipInline();
      keyVar = valVar;
      valVar = readVar();
      s.skipInline();
    }
    if (!s.eatKeyword('in'))
      throw s.error(
        'Invalid "for" expression',
        'For expression requires the "in" keyword after its name declarations.',
        s.pos,
      );
    s.skipInline();
    const coll = this.parseExpr();
    s.skipInline();
    s.expect(
      ':',
      'Invalid "for" expression',
      'For expression requires a colon after the collection expression.',
    );
    s.skipInline();
    let keyExpr: Expr | undefined;
    let valExpr = this.parseExpr();
    s.skipInline();
    let grouping = false;
    if (isObject) {
      if (!s.startsWith('=>'))
        throw s.error(
          'Invalid "for" expression',
          'Key expression in object "for" expression must be followed by an arrow ("=>").',
          s.pos,
        );
      s.pos += 2;
      s.skipInline();
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
    if (s.eatKeyword('if')) {
      s.skipInline();
      cond = this.parseExpr();
      s.skipInline();
    }
    s.expect(
      close,
      'Invalid "for" expression',
      `Extra characters after the end of the "for" expression; expected "${close}".`,
    );
    return {
      type: 'for',
      keyVar,
      valVar,
      coll,
      keyExpr,
      valExpr,
      cond,
      grouping,
      range: this.rangeFrom(start),
    };
  }

  /** Attribute access, indexing and splats, merged into a static traversal where possible. */
  private parsePostfix(base: Expr): Expr {
    const s = this.src;
    let expr = base;
    for (;;) {
      const start = s.pos;
      // `...` expands a function argument or groups for-expression results.
      if (s.startsWith('...')) return expr;
      if (s.peek() === '.' && s.peek(1) === '*') {
        s.pos += 2;
        expr = {
          type: 'splat',
          target: expr,
          steps: this.parseSplatSteps(),
          range: this.rangeFrom(expr.range.start.offset),
        };
        continue;
      }
      if (s.startsWith('[*]')) {
        s.pos += 3;
        expr = {
          type: 'splat',
          target: expr,
          steps: this.parseSplatSteps(),
          range: this.rangeFrom(expr.range.start.offset),
        };
        continue;
      }
      let step: TraverseStep | undefined;
      let dynamicKey: Expr | undefined;
      if (s.peek() === '.') {
        s.pos++;
        step = this.parseDotStep(start);
      } else if (s.peek() === '[') {
        s.pos++;
        const key = this.inBrackets(() => {
          s.skipInline();
          const k = this.parseExpr();
          s.skipInline();
          s.expect(
            ']',
            'Missing close bracket on index',
            'The index operator must end with a closing bracket ("]").',
          );
          return k;
        });
        const literal = staticKey(key);
        if (literal !== undefined) step = { kind: 'index', key: literal, range: this.rangeFrom(start) };
        else dynamicKey = key;
      } else {
        return expr;
      }
      const range = this.join(expr.range, this.rangeFrom(start));
      if (step && expr.type === 'scope') {
        expr = { ...expr, steps: [...expr.steps, step], range };
      } else if (step && step.kind === 'attr') {
        expr = { type: 'getattr', target: expr, name: step.name, range };
      } else if (step && step.kind === 'index') {
        expr = {
          type: 'index',
          target: expr,
          key: { type: 'literal', value: step.key, range: step.range },
          range,
        };
      } else if (dynamicKey) {
        expr = { type: 'index', target: expr, key: dynamicKey, range };
      }
    }
  }

  private parseDotStep(start: number): TraverseStep {
    const s = this.src;
    if (isDigit(s.peek())) {
      const key = readDigits(s);
      return { kind: 'index', key, range: this.rangeFrom(start) };
    }
    const name = s.readIdent();
    if (!name) throw s.error('Invalid attribute name', 'An attribute name is required after a dot.', s.pos);
    return { kind: 'attr', name, range: this.rangeFrom(start) };
  }

  private parseSplatSteps(): TraverseStep[] {
    const s = this.src;
    const steps: TraverseStep[] = [];
    for (;;) {
      const start = s.pos;
      if (s.peek() === '.' && s.isIdStart(s.peek(1))) {
        s.pos++;
        steps.push(this.parseDotStep(start));
      } else if (s.peek() === '[' && s.peek(1) !== '*') {
        const save = s.pos;
        s.pos++;
        const key = this.inBrackets(() => {
          s.skipInline();
          const k = this.parseExpr();
          s.skipInline();
          return k;
        });
        const literal = staticKey(key);
        if (literal === undefined || s.peek() !== ']') {
          s.pos = save;
          return steps;
        }
        s.pos++;
        steps.push({ kind: 'index', key: literal, range: this.rangeFrom(start) });
      } else {
        return steps;
      }
    }
  }
}

/** The value of a literal index key (`[0]`, `["a"]`), or undefined if it must be evaluated. */
function staticKey(e: Expr): string | number | undefined {
  if (e.type === 'literal' && (typeof e.value === 'number' || typeof e.value === 'string')) return e.value;
  if (e.type === 'template' && e.parts.length === 1 && e.parts[0]?.kind === 'literal') return e.parts[0].text;
  if (e.type === 'template' && e.parts.length === 0) return '';
  return undefined;
}
