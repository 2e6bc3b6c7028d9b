import { z } from 'zod';
import type { QueryOptions, WriteOptions } from '../transport';

export type { QueryOptions, WriteOptions, Result, QueryMeta } from '../transport';

/** Reads of one object take the read options without list-only settings. */
export type ReadOptions = Omit<QueryOptions, 'filter' | 'perPage' | 'nextToken' | 'reverse'>;

/** List endpoints that filter by ID prefix. */
export interface PrefixListOptions extends QueryOptions {
  prefix?: string;
}

/** Writes never carry `idempotent` from the caller except where the endpoint has an idempotency token. */
export type PlainWriteOptions = Omit<WriteOptions, 'idempotent'>;

/** Endpoints that answer `{}` or nothing: the value carries no information. */
export const AckSchema = z.unknown().transform((): void => undefined);

/** Merges endpoint parameters into the caller's extra `params`, endpoint names winning. */
export function withParams<T extends { params?: QueryOptions['params'] }>(
  opts: T,
  params: NonNullable<QueryOptions['params']>,
): T {
  return { ...opts, params: { ...(opts.params ?? {}), ...params } };
}

/** Removes keys that are endpoint settings, so they do not leak into transport options by accident. */
export function omit<T extends object, K extends keyof T>(obj: T, ...keys: K[]): Omit<T, K> {
  const out = { ...obj };
  for (const k of keys) delete out[k];
  return out;
}
