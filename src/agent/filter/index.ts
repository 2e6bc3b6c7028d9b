/**
 * The filter expression language of the `filter` query parameter (HashiCorp go-bexpr, as used by
 * Nomad and Consul). Shared by the scheduler and the registry, so nothing here knows their objects.
 */
import type { FilterExpr } from './ast';
import { evaluateFilter } from './evaluate';
import type { FilterOptions } from './evaluate';
import { parseFilter } from './parser';

export type { BinaryExpr, FilterExpr, MatchExpr, MatchOperator, MatchValue, NotExpr, Selector } from './ast';
export { FilterError } from './errors';
export type { FilterErrorDetails, FilterPosition } from './errors';
export { evaluateFilter } from './evaluate';
export type { FilterOptions } from './evaluate';
export { parseFilter } from './parser';

/** Parses once (throwing FilterError on bad syntax) and returns a predicate to apply to many data. */
export function compileFilter(expression: string, options: FilterOptions = {}): (datum: unknown) => boolean {
  const expr: FilterExpr = parseFilter(expression);
  return (datum: unknown) => evaluateFilter(expr, datum, options);
}
