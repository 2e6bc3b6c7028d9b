/**
 * Refresh from listings: list endpoints (the registry's objects, the scheduler's namespaces) answer for
 * many objects in one request, so a plan refreshes every object of a type with one listing per scope
 * (namespace, partition) instead of a read each. What a listing cannot settle (an object it does not
 * carry, which may be hidden from this token rather than gone, an index that moved, a listing that
 * fails) is left to the object's own read, so drift and deletions are still found.
 */
import type { State } from '../resource';

/** Below this many objects a listing saves nothing over reading each one. */
const MIN_BATCH = 2;

export interface ListRefresh<T> {
  /** The scope an object is listed in (its namespace or partition; '' for the default). */
  scopeOf(state: State): string;
  /** The key an object has in its scope's listing, or undefined when the state names none. */
  keyOf(state: State): string | undefined;
  /** One listing of a scope, by key. */
  list(scope: string): Promise<Map<string, T>>;
  /** The refreshed state from the listed item, or undefined when only a read can tell. */
  refresh(item: T, prior: State): State | undefined;
}

/** Per state: its refreshed form, or undefined (read it on its own). */
export async function refreshFromList<T>(
  states: readonly State[],
  how: ListRefresh<T>,
): Promise<Array<State | undefined>> {
  if (states.length < MIN_BATCH) return states.map(() => undefined);
  const listings = new Map<string, Promise<Map<string, T>>>();
  const listingOf = (scope: string): Promise<Map<string, T>> => {
    let l = listings.get(scope);
    if (!l) listings.set(scope, (l = how.list(scope).catch(() => new Map<string, T>())));
    return l;
  };
  return Promise.all(
    states.map(async (s) => {
      const key = how.keyOf(s);
      if (key === undefined) return undefined;
      const item = (await listingOf(how.scopeOf(s))).get(key);
      return item === undefined ? undefined : how.refresh(item, s);
    }),
  );
}

/** The state's string attribute, or '' when it has none. */
export const scopeAttr =
  (name: string) =>
  (s: State): string =>
    typeof s[name] === 'string' ? (s[name] as string) : '';

/** The state's string attribute as a listing key. */
export const keyAttr =
  (name: string) =>
  (s: State): string | undefined =>
    typeof s[name] === 'string' ? (s[name] as string) : undefined;
