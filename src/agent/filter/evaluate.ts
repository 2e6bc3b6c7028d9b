import { isNegatedOperator, positiveOperator } from './ast';
import type { FilterExpr, MatchExpr, MatchOperator, Selector } from './ast';
import { parseGoBool, parseGoFloat } from './coerce';
import { FilterError } from './errors';
import { compileRe2, Re2SyntaxError, type Re2 } from '../../common/re2';

export interface FilterOptions {
  /**
   * Whether the object at `path` (the keys walked from the datum's root, without array indexes) is
   * a map, whose missing keys are simply absent, rather than a record with fixed fields, where a
   * missing key is an error. go-bexpr draws this line between Go maps and structs; a JSON datum
   * cannot show it. Default: every object below the root is a map, which is what go-bexpr does with
   * decoded JSON, so `Meta.owner == "x"` is false (not an error) on a datum without that key.
   * A missing key directly on the root is always an error, as in go-bexpr.
   */
  readonly isMap?: (path: readonly string[]) => boolean;
}

/** A selector that ran into a missing map key or a null: every operator treats it as "no value". */
const ABSENT: unique symbol = Symbol('absent');
type Leaf = unknown;

const everyNestedObjectIsMap = (): boolean => true;

/** Compiled patterns per match node, so a filter applied to a long list compiles each regex once. */
const regexCache = new WeakMap<MatchExpr, Re2>();

/**
 * Evaluates a parsed filter against one datum (plain JSON data). Throws FilterError when a selector
 * does not exist on the datum, a value cannot be converted to the field's type, or an operator does
 * not apply to the field's type, as go-bexpr does.
 */
export function evaluateFilter(expr: FilterExpr, datum: unknown, options: FilterOptions = {}): boolean {
  const isMap = options.isMap ?? everyNestedObjectIsMap;
  return evaluateNode(expr, datum, isMap);
}

function evaluateNode(
  expr: FilterExpr,
  datum: unknown,
  isMap: (path: readonly string[]) => boolean,
): boolean {
  switch (expr.type) {
    case 'and':
      return evaluateNode(expr.left, datum, isMap) && evaluateNode(expr.right, datum, isMap);
    case 'or':
      return evaluateNode(expr.left, datum, isMap) || evaluateNode(expr.right, datum, isMap);
    case 'not':
      return !evaluateNode(expr.operand, datum, isMap);
    case 'match':
      return evaluateMatch(expr, datum, isMap);
  }
}

/**
 * A negated operator is the negation of its positive form over everything the selector reaches.
 * When the selector walks through an array by name (`TaskGroups.Name`), the positive operator
 * holds if it holds for any element, as go-bexpr did before it moved to JSON-pointer lookups; so
 * `TaskGroups.Name != "web"` means no group is named "web".
 */
function evaluateMatch(
  expr: MatchExpr,
  datum: unknown,
  isMap: (path: readonly string[]) => boolean,
): boolean {
  const positive = positiveOperator(expr.operator);
  const walker = new Walker(expr.selector, isMap, (leaf) => matchLeaf(expr, positive, leaf));
  const found = walker.walk(datum, 0);
  return isNegatedOperator(expr.operator) ? !found : found;
}

class Walker {
  /** Keys walked so far, without array indexes, for the isMap callback. */
  private readonly path: string[] = [];

  constructor(
    private readonly selector: Selector,
    private readonly isMap: (path: readonly string[]) => boolean,
    private readonly visit: (leaf: Leaf) => boolean,
  ) {}

  /** Returns true as soon as one reached value satisfies the operator. */
  walk(value: unknown, index: number): boolean {
    const segments = this.selector.segments;
    if (value === undefined || value === null) return this.visit(ABSENT);
    if (index === segments.length) return this.visit(value);
    const segment = segments[index] ?? '';
    if (Array.isArray(value)) {
      if (/^\d+$/.test(segment)) {
        const i = Number(segment);
        if (i >= value.length)
          throw this.notFound(index, `index ${i} is out of range (length = ${value.length})`);
        return this.walk(value[i], index + 1);
      }
      for (const element of value) {
        if (this.walk(element, index)) return true;
      }
      return false;
    }
    if (typeof value === 'object') {
      if (Object.prototype.hasOwnProperty.call(value, segment)) {
        this.path.push(segment);
        const found = this.walk((value as Record<string, unknown>)[segment], index + 1);
        this.path.pop();
        return found;
      }
      // go-bexpr forgives only a missing last key whose parent is a map.
      const parentIsMap = index > 0 && this.isMap(this.path);
      if (parentIsMap && index === segments.length - 1) return this.visit(ABSENT);
      throw this.notFound(
        index,
        parentIsMap
          ? `couldn't find key ${JSON.stringify(segment)}`
          : `couldn't find struct field with name ${JSON.stringify(segment)}`,
      );
    }
    throw new FilterError(
      `error finding value in datum: ${pointerText(segments)}: at part ${index}, invalid value kind: ${goKind(value)} (selector ${this.selector.text})`,
      { selector: this.selector.text },
    );
  }

  private notFound(index: number, problem: string): FilterError {
    return new FilterError(
      `error finding value in datum: ${pointerText(this.selector.segments.slice(0, index + 1))} at part ${index}: ${problem} (selector ${this.selector.text})`,
      { selector: this.selector.text },
    );
  }
}

function pointerText(segments: readonly string[]): string {
  return '/' + segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** Go's reflect kind names for JSON values, as they appear in go-bexpr's messages. */
function goKind(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'slice';
  if (value !== null && typeof value === 'object') return 'map';
  return 'invalid';
}

function matchLeaf(expr: MatchExpr, operator: MatchOperator, leaf: Leaf): boolean {
  // An absent value equals nothing, contains nothing, matches nothing and is empty (go-bexpr's
  // rule for missing map keys, applied to JSON null as well).
  if (leaf === ABSENT) return operator === 'isEmpty';
  switch (operator) {
    case 'equal':
      return equals(expr, leaf);
    case 'in':
      return contains(expr, leaf);
    case 'isEmpty':
      return isEmpty(expr, leaf);
    case 'matches':
      return matches(expr, leaf);
    default:
      throw new FilterError(`invalid match operation ${operator}`);
  }
}

function raw(expr: MatchExpr): string {
  return expr.value?.raw ?? '';
}

function evaluationError(expr: MatchExpr, message: string): FilterError {
  return new FilterError(`${message} (selector ${expr.selector.text})`, { selector: expr.selector.text });
}

function conversionError(expr: MatchExpr, type: string, reason: string): FilterError {
  return evaluationError(
    expr,
    `error getting match value in expression: cannot convert ${JSON.stringify(raw(expr))} to ${type}: ${reason}`,
  );
}

function equals(expr: MatchExpr, value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return raw(expr) === value;
    case 'number': {
      const n = parseGoFloat(raw(expr));
      if (!n.ok) throw conversionError(expr, 'float64', n.reason);
      return n.value === value;
    }
    case 'boolean': {
      const b = parseGoBool(raw(expr));
      if (!b.ok) throw conversionError(expr, 'bool', b.reason);
      return b.value === value;
    }
    default:
      throw evaluationError(
        expr,
        `unable to find suitable primitive comparison function for matching: the value is a ${goKind(value)}`,
      );
  }
}

/** Element membership for arrays, key membership for objects, substring for strings. */
function contains(expr: MatchExpr, value: unknown): boolean {
  const needle = raw(expr);
  if (typeof value === 'string') return value.includes(needle);
  if (Array.isArray(value)) return value.some((element) => elementEquals(expr, needle, element));
  if (value !== null && typeof value === 'object') return Object.prototype.hasOwnProperty.call(value, needle);
  throw evaluationError(expr, `Cannot perform in/contains operations on type ${goKind(value)}`);
}

/**
 * go-bexpr converts the value to each element's type in turn and skips elements it cannot be
 * converted to, so `"1" in Mixed` finds the number 1 and "true" finds the boolean true.
 */
function elementEquals(expr: MatchExpr, needle: string, element: unknown): boolean {
  switch (typeof element) {
    case 'string':
      return element === needle;
    case 'number': {
      const n = parseGoFloat(needle);
      if (!n.ok && n.reason === 'value out of range') throw conversionError(expr, 'float64', n.reason);
      return n.ok && n.value === element;
    }
    case 'boolean': {
      const b = parseGoBool(needle);
      return b.ok && b.value === element;
    }
    case 'undefined':
      return false;
    default:
      if (element === null) return false;
      throw evaluationError(
        expr,
        `unable to find suitable primitive comparison function for "in" comparison in interface slice: ${goKind(element)}`,
      );
  }
}

function isEmpty(expr: MatchExpr, value: unknown): boolean {
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0;
  throw evaluationError(expr, `cannot check whether a value of type ${goKind(value)} is empty`);
}

function matches(expr: MatchExpr, value: unknown): boolean {
  if (typeof value !== 'string') {
    throw evaluationError(expr, `Value of type ${goKind(value)} is not convertible to []byte`);
  }
  return regexFor(expr).test(value);
}

function regexFor(expr: MatchExpr): Re2 {
  let re = regexCache.get(expr);
  if (!re) {
    try {
      re = compileRe2(raw(expr));
    } catch (err) {
      if (!(err instanceof Re2SyntaxError)) throw err;
      throw evaluationError(
        expr,
        `Failed to compile regular expression ${JSON.stringify(raw(expr))}: ${err.message}`,
      );
    }
    regexCache.set(expr, re);
  }
  return re;
}
