/**
 * List conventions shared by both services (spec 4.1): `filter` evaluated on the full object before
 * stubs are made, `filter` refused beside another filtering parameter, `per_page` / `next_token`
 * pagination keyed by each item's sort key, and `reverse`.
 */
import { compileFilter, FilterError } from '../filter';
import { badRequest, invalidField } from './errors';
import { boolParam, intParam } from './query';

export interface ListOptions<T> {
  query: URLSearchParams;
  /** Sort key of an item; also the pagination token of the page that starts with it. */
  key: (item: T) => string;
  /** Query parameters present that filter by themselves (prefix, job, status...): refused with `filter`. */
  otherFilters?: string[];
  paginate?: boolean;
  /** Map the full object to what the endpoint returns. */
  stub?: (item: T) => unknown;
}

export interface ListResult {
  items: unknown[];
  nextToken?: string;
}

export function compileFilterParam(
  query: URLSearchParams,
  otherFilters: string[] = [],
): ((d: unknown) => boolean) | undefined {
  const expr = query.get('filter');
  if (!expr) return undefined;
  const clash = otherFilters.find((p) => query.get(p));
  if (clash)
    throw badRequest(`filter: cannot be combined with the "${clash}" parameter; use one or the other`);
  try {
    const pred = compileFilter(expr);
    return (d) => {
      try {
        return pred(d);
      } catch (e) {
        if (e instanceof FilterError) throw badRequest(`filter: ${e.message}`);
        throw e;
      }
    };
  } catch (e) {
    if (e instanceof FilterError) throw badRequest(`filter: ${e.message}`);
    throw e;
  }
}

export function listWith<T>(all: T[], opts: ListOptions<T>): ListResult {
  const q = opts.query;
  const pred = compileFilterParam(q, opts.otherFilters);
  const reverse = boolParam(q, 'reverse');
  let items = [...all].sort((a, b) => (opts.key(a) < opts.key(b) ? -1 : opts.key(a) > opts.key(b) ? 1 : 0));
  if (reverse) items.reverse();
  if (pred) items = items.filter(pred);
  let nextToken: string | undefined;
  if (opts.paginate !== false) {
    const perPage = intParam(q, 'per_page');
    if (perPage !== undefined && perPage <= 0)
      throw invalidField('per_page', `must be a positive integer, got ${perPage}`);
    const token = q.get('next_token');
    if (token) {
      const start = items.findIndex((i) => (reverse ? opts.key(i) <= token : opts.key(i) >= token));
      items = start < 0 ? [] : items.slice(start);
    }
    if (perPage !== undefined && items.length > perPage) {
      nextToken = opts.key(items[perPage]!);
      items = items.slice(0, perPage);
    }
  }
  return { items: opts.stub ? items.map(opts.stub) : items, nextToken };
}
