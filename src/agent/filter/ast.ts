/**
 * The parsed form of a filter expression. Plain data (no class instances, no compiled regular
 * expressions) so that it can be logged, compared in tests and cached.
 */

/**
 * Match operators after the go-bexpr normalisation: `contains` is `in` with the operands swapped
 * and `not contains` is `notIn`, so both spellings evaluate identically.
 */
export type MatchOperator =
  'equal' | 'notEqual' | 'in' | 'notIn' | 'isEmpty' | 'isNotEmpty' | 'matches' | 'notMatches';

export interface Selector {
  /** `path`: `A.B["c d"].0` form; `pointer`: a double-quoted JSON pointer such as `"/Meta/a~1b"`. */
  readonly kind: 'path' | 'pointer';
  /** Keys (and array indexes, as decimal strings) from the datum's root. */
  readonly segments: readonly string[];
  /** The selector exactly as written in the expression, for error messages. */
  readonly text: string;
}

export interface MatchValue {
  /**
   * How the value was written. Whatever the kind, go-bexpr keeps only the text (`raw`) and converts
   * it to the type of the field it is compared with; a bare selector is never looked up.
   */
  readonly kind: 'string' | 'number' | 'selector';
  readonly raw: string;
}

export interface MatchExpr {
  readonly type: 'match';
  readonly operator: MatchOperator;
  readonly selector: Selector;
  /** Absent for `isEmpty` / `isNotEmpty`. */
  readonly value?: MatchValue;
  /** Offset of the expression's first character, for error messages. */
  readonly offset: number;
}

export interface NotExpr {
  readonly type: 'not';
  readonly operand: FilterExpr;
}

export interface BinaryExpr {
  readonly type: 'and' | 'or';
  readonly left: FilterExpr;
  readonly right: FilterExpr;
}

export type FilterExpr = MatchExpr | NotExpr | BinaryExpr;

const NEGATIONS: Readonly<Record<MatchOperator, MatchOperator>> = {
  equal: 'notEqual',
  notEqual: 'equal',
  in: 'notIn',
  notIn: 'in',
  isEmpty: 'isNotEmpty',
  isNotEmpty: 'isEmpty',
  matches: 'notMatches',
  notMatches: 'matches',
};

export function isNegatedOperator(op: MatchOperator): boolean {
  return op === 'notEqual' || op === 'notIn' || op === 'isNotEmpty' || op === 'notMatches';
}

/** The positive operator of a pair: `notIn` -> `in`; positive operators map to themselves. */
export function positiveOperator(op: MatchOperator): MatchOperator {
  return isNegatedOperator(op) ? NEGATIONS[op] : op;
}
