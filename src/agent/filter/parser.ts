import type { FilterExpr, MatchExpr, MatchOperator, MatchValue, Selector } from './ast';
import { FilterError, positionAt, syntaxError } from './errors';
import { isDigit, isLetter, Scanner } from './lexer';
import { compileRe2, Re2SyntaxError } from '../../common/re2';

/** Deep nesting would overflow the stack in the recursive parser and evaluator. */
const MAX_DEPTH = 200;
/** Bounds the work one request can ask for; real filters have a handful of matches. */
const MAX_MATCHES = 1000;

const OPERATORS_EXPECTED =
  'an operator ("==", "!=", "is empty", "is not empty", "contains", "not contains", "matches", "not matches", "in", "not in")';

/**
 * Recursive descent over the go-bexpr grammar:
 *
 *   Input  <- Or EOF
 *   Or     <- And ("or" And)*
 *   And    <- Not ("and" Not)*
 *   Not    <- "not" Not / Primary
 *   Primary<- "(" Or ")" / Match
 *   Match  <- Selector ("==" / "!=" / "contains" / "not contains" / "matches" / "not matches") Value
 *           / Selector ("is empty" / "is not empty")
 *           / Value ("in" / "not in") Selector
 */
class Parser {
  private readonly s: Scanner;
  private depth = 0;
  private matches = 0;
  /** Where the last value started, so a bad regular expression can be pointed at. */
  private valueOffset = 0;

  constructor(private readonly input: string) {
    this.s = new Scanner(input);
  }

  parse(): FilterExpr {
    this.s.skipWhitespace();
    if (this.s.atEnd()) this.s.fail('empty expression: expected a match such as Status == "running"');
    const expr = this.parseOr();
    this.s.skipWhitespace();
    if (!this.s.atEnd()) {
      if (this.s.char() === ')') this.s.fail('unmatched ")"');
      this.s.fail(`expected "and", "or" or the end of the expression, found ${this.s.describe()}`);
    }
    return expr;
  }

  private parseOr(): FilterExpr {
    let left = this.parseAnd();
    while (this.acceptKeyword('or')) left = { type: 'or', left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): FilterExpr {
    let left = this.parseNot();
    while (this.acceptKeyword('and')) left = { type: 'and', left, right: this.parseNot() };
    return left;
  }

  /** Skips whitespace and consumes `word` when it is the next whole word. */
  private acceptKeyword(word: string): boolean {
    const save = this.s.pos;
    this.s.skipWhitespace();
    if (this.s.acceptWord(word)) return true;
    this.s.pos = save;
    return false;
  }

  private parseNot(): FilterExpr {
    this.s.skipWhitespace();
    if (this.s.wordAt() === 'not' && this.notIsUnary()) {
      this.s.pos += 3;
      this.enter();
      const operand = this.parseNot();
      this.depth--;
      // `not not X` is X, as go-bexpr folds it.
      return operand.type === 'not' ? operand.operand : { type: 'not', operand };
    }
    return this.parsePrimary();
  }

  /**
   * `not` is also a valid selector or bare value, as in go-bexpr's backtracking grammar:
   * `not == 1` compares a field named "not", `not in Tags` looks for the string "not".
   */
  private notIsUnary(): boolean {
    let at = this.s.pos + 3;
    while (at < this.input.length && ' \t\r\n'.includes(this.input.charAt(at))) at++;
    const two = this.input.slice(at, at + 2);
    if (two === '==' || two === '!=') return false;
    const next = this.s.wordAt(at);
    return !(next === 'is' || next === 'in' || next === 'contains' || next === 'matches');
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.s.fail(`expression nested too deeply (more than ${MAX_DEPTH} levels)`);
  }

  private parsePrimary(): FilterExpr {
    this.s.skipWhitespace();
    if (this.s.char() !== '(') return this.parseMatch();
    const open = this.s.pos;
    this.s.pos++;
    this.enter();
    this.s.skipWhitespace();
    const inner = this.parseOr();
    this.s.skipWhitespace();
    if (this.s.char() !== ')') {
      const { line, column } = positionAt(this.input, open);
      this.s.fail(
        `expected ")" to close the "(" at line ${line}, column ${column}, found ${this.s.describe()}`,
      );
    }
    this.s.pos++;
    this.depth--;
    return inner;
  }

  private parseMatch(): MatchExpr {
    if (++this.matches > MAX_MATCHES) this.s.fail(`too many match expressions (more than ${MAX_MATCHES})`);
    const start = this.s.pos;
    const c = this.s.char();
    if (c === '"' || c === '`') {
      const literal = this.s.readString();
      const afterLiteral = this.s.pos;
      const inOp = this.acceptInOperator();
      if (inOp) return this.finishValueIn(inOp, { kind: 'string', raw: literal.value }, start);
      if (literal.quote === '"' && literal.value.startsWith('/')) {
        this.s.pos = afterLiteral;
        return this.parseOperator(pointerSelector(this.input, literal.value, start, afterLiteral), start);
      }
      this.s.pos = afterLiteral;
      this.s.skipWhitespace();
      this.s.fail(`expected "in" or "not in" after the string value, found ${this.s.describe()}`);
    }
    if (c === '-' || isDigit(c)) {
      const raw = this.s.readNumber();
      const inOp = this.acceptInOperator();
      if (inOp) return this.finishValueIn(inOp, { kind: 'number', raw }, start);
      this.s.skipWhitespace();
      this.s.fail(`expected "in" or "not in" after the number, found ${this.s.describe()}`);
    }
    if (isLetter(c)) return this.parseOperator(this.parseSelector(), start);
    this.s.fail(
      `expected an expression (a selector, a value followed by "in", "not" or "("), found ${this.s.describe()}`,
    );
  }

  /** After a value: consumes `in` or `not in` and reports which, or consumes nothing. */
  private acceptInOperator(): 'in' | 'notIn' | undefined {
    const save = this.s.pos;
    this.s.skipWhitespace();
    if (this.s.acceptWord('in')) return 'in';
    if (this.s.wordAt() === 'not' && this.s.wordAfter('not') === 'in') {
      this.s.acceptWord('not');
      this.s.skipWhitespace();
      this.s.acceptWord('in');
      return 'notIn';
    }
    this.s.pos = save;
    return undefined;
  }

  private finishValueIn(operator: 'in' | 'notIn', value: MatchValue, start: number): MatchExpr {
    this.s.skipWhitespace();
    const selector = this.parseSelector();
    return { type: 'match', operator, selector, value, offset: start };
  }

  private parseOperator(selector: Selector, start: number): MatchExpr {
    this.s.skipWhitespace();
    const match = (operator: MatchOperator, value?: MatchValue): MatchExpr =>
      value === undefined
        ? { type: 'match', operator, selector, offset: start }
        : { type: 'match', operator, selector, value, offset: start };

    if (this.s.startsWith('==') || this.s.startsWith('!=')) {
      const operator = this.s.startsWith('==') ? 'equal' : 'notEqual';
      this.s.pos += 2;
      return match(operator, this.parseValue());
    }
    const word = this.s.wordAt();
    if (word === 'is') {
      this.s.pos += 2;
      this.s.skipWhitespace();
      if (this.s.acceptWord('empty')) return match('isEmpty');
      if (this.s.acceptWord('not')) {
        this.s.skipWhitespace();
        if (this.s.acceptWord('empty')) return match('isNotEmpty');
      }
      this.s.fail(`expected "empty" or "not empty" after "is", found ${this.s.describe()}`);
    }
    if (word === 'contains') {
      this.s.pos += word.length;
      return match('in', this.parseValue());
    }
    if (word === 'matches') {
      this.s.pos += word.length;
      return this.checkedRegex(match('matches', this.parseValue()));
    }
    if (word === 'in') {
      // The "selector" read so far was really a bare-word value: `web in Tags`.
      this.s.pos += 2;
      return this.finishValueIn('in', selectorAsValue(selector), start);
    }
    if (word === 'not') {
      this.s.pos += 3;
      this.s.skipWhitespace();
      const second = this.s.wordAt();
      if (second === 'contains') {
        this.s.pos += second.length;
        return match('notIn', this.parseValue());
      }
      if (second === 'matches') {
        this.s.pos += second.length;
        return this.checkedRegex(match('notMatches', this.parseValue()));
      }
      if (second === 'in') {
        this.s.pos += 2;
        return this.finishValueIn('notIn', selectorAsValue(selector), start);
      }
      this.s.fail(`expected "contains", "matches" or "in" after "not", found ${this.s.describe()}`);
    }
    this.s.fail(`expected ${OPERATORS_EXPECTED} after selector ${selector.text}, found ${this.s.describe()}`);
  }

  /** Invalid patterns are reported when parsing, not on the first datum that reaches them. */
  private checkedRegex(expr: MatchExpr): MatchExpr {
    const raw = expr.value?.raw ?? '';
    try {
      compileRe2(raw);
    } catch (err) {
      if (!(err instanceof Re2SyntaxError)) throw err;
      const position = positionAt(this.input, this.valueOffset);
      throw new FilterError(
        `invalid regular expression ${JSON.stringify(raw)} at line ${position.line}, column ${position.column} (offset ${position.offset}): ${err.message}`,
        { position, selector: expr.selector.text },
      );
    }
    return expr;
  }

  private parseValue(): MatchValue {
    this.s.skipWhitespace();
    this.valueOffset = this.s.pos;
    const c = this.s.char();
    if (c === '"' || c === '`') return { kind: 'string', raw: this.s.readString().value };
    if (c === '-' || isDigit(c)) return { kind: 'number', raw: this.s.readNumber() };
    if (isLetter(c)) return selectorAsValue(this.parseSelector());
    this.s.fail(`expected a value (a quoted string, a number or a bare word), found ${this.s.describe()}`);
  }

  /** `Name`, `A.B`, `A.0` (array index), `A["any key"]`, or a double-quoted JSON pointer `"/A/B"`. */
  private parseSelector(): Selector {
    const start = this.s.pos;
    if (this.s.char() === '"') {
      const literal = this.s.readString();
      if (!literal.value.startsWith('/')) {
        this.s.fail('expected a selector; a quoted selector must be a JSON pointer starting with "/"', start);
      }
      return pointerSelector(this.input, literal.value, start, this.s.pos);
    }
    if (!isLetter(this.s.char())) this.s.fail(`expected a selector, found ${this.s.describe()}`);
    const segments = [this.s.readIdentifier()];
    while (true) {
      const c = this.s.char();
      if (c === '.') {
        this.s.pos++;
        if (isDigit(this.s.char())) segments.push(this.s.readDigits());
        else if (isLetter(this.s.char())) segments.push(this.s.readIdentifier());
        else this.s.fail(`expected a name or an index after ".", found ${this.s.describe()}`);
      } else if (c === '[') {
        const open = this.s.pos;
        this.s.pos++;
        this.s.skipWhitespace();
        const q = this.s.char();
        if (q !== '"' && q !== '`')
          this.s.fail(`expected a quoted key inside "[...]", found ${this.s.describe()}`);
        segments.push(this.s.readString().value);
        this.s.skipWhitespace();
        if (this.s.char() !== ']') {
          const { line, column } = positionAt(this.input, open);
          this.s.fail(
            `expected "]" to close the "[" at line ${line}, column ${column}, found ${this.s.describe()}`,
          );
        }
        this.s.pos++;
      } else {
        break;
      }
    }
    return { kind: 'path', segments, text: this.input.slice(start, this.s.pos) };
  }
}

/** RFC 6901: segments separated by "/", with "~1" for "/" and "~0" for "~". */
function pointerSelector(input: string, pointer: string, offset: number, end: number): Selector {
  const segments = pointer
    .slice(1)
    .split('/')
    .map((segment) => {
      if (/~[^01]|~$/.test(segment)) {
        throw syntaxError(
          input,
          offset,
          `invalid JSON pointer ${JSON.stringify(pointer)}: "~" must be followed by 0 or 1`,
        );
      }
      return segment.replace(/~1/g, '/').replace(/~0/g, '~');
    });
  if (segments.some((s) => s === '')) {
    throw syntaxError(input, offset, `invalid JSON pointer ${JSON.stringify(pointer)}: empty segment`);
  }
  return { kind: 'pointer', segments, text: input.slice(offset, end) };
}

/** go-bexpr keeps a bare-word value as its text: path segments joined with "." (pointers with "/"). */
function selectorAsValue(selector: Selector): MatchValue {
  return { kind: 'selector', raw: selector.segments.join(selector.kind === 'pointer' ? '/' : '.') };
}

/** Parses a go-bexpr filter expression. Throws FilterError naming the position and what was expected. */
export function parseFilter(expression: string): FilterExpr {
  return new Parser(expression).parse();
}
