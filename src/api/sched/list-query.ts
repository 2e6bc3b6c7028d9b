import type { QueryOptions } from '../transport';
import { type PrefixListOptions, omit, withParams } from './options';
import { checkListOptions, requireHexPrefix } from './validate';

type Params = NonNullable<QueryOptions['params']>;

export interface PrefixListEndpoint<O> {
  /** The IDs are UUIDs, which the server decodes a prefix of to bytes: it must be even-length hex. */
  hexPrefix?: boolean;
  /** Options of this endpoint (not transport settings): left out of the transport options. */
  keys?: Array<Exclude<keyof O, 'prefix'>>;
  /** Query parameters that narrow the list as `prefix` does, so `filter` may not be combined with them. */
  filters?: Params;
  /** Other query parameters of the endpoint (what to include in each item). */
  params?: Params;
}

/**
 * The transport options of a list endpoint that filters by ID prefix, checked first so that a bad prefix or
 * a `filter` combined with another filtering parameter is refused before anything is sent.
 */
export function prefixListQuery<O extends PrefixListOptions>(
  opts: O,
  endpoint: PrefixListEndpoint<O> = {},
): QueryOptions {
  const { hexPrefix = false, keys = [], filters = {}, params = {} } = endpoint;
  if (hexPrefix) requireHexPrefix('prefix', opts.prefix);
  checkListOptions(opts, { prefix: opts.prefix, ...filters });
  return withParams(omit<O, keyof O>(opts, 'prefix', ...keys), {
    prefix: opts.prefix || undefined,
    ...filters,
    ...params,
  });
}
