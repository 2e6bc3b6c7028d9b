import { z } from 'zod';

/*
 * Building blocks shared by the scheduler schemas.
 *
 * Nomad serialises Go structs: strings, numbers and booleans are always present (zero values), while
 * pointers, slices and maps are `null` when unset. Job specs sent by users omit almost everything. The
 * schemas therefore accept both omission and `null` for containers and omission for scalars, so one
 * schema serves requests and responses.
 *
 * Integers are `z.number()`, not `z.int()`: nanosecond timestamps (about 1.7e18) exceed
 * Number.MAX_SAFE_INTEGER and `z.int()` would refuse them. JSON.parse already rounds them; callers
 * that need exact nanoseconds must not rely on the low digits.
 */

export const OptString = z.string().nullish();
export const OptNumber = z.number().nullish();
export const OptBool = z.boolean().nullish();

/** A map of string to string that Nomad sends as `null` when empty. */
export const StringMap = z.record(z.string(), z.string()).nullish();

/** A list of strings that Nomad sends as `null` when empty. */
export const StringList = z.array(z.string()).nullish();

/** Durations are integers in nanoseconds. */
export const Duration = z.number().nullish();

/** Unix nanoseconds. */
export const NanoTime = z.number().nullish();

/** RFC 3339 string; the zero time is `0001-01-01T00:00:00Z`. */
export const Rfc3339 = z.string().nullish();

/** Free-form JSON object (driver config, plugin config, ...). */
export const FreeMap = z.record(z.string(), z.unknown()).nullish();

/** A nullable list of `item`. */
export function list<T extends z.ZodType>(item: T) {
  return z.array(item).nullish();
}

/** A nullable map of string to `item`. */
export function map<T extends z.ZodType>(item: T) {
  return z.record(z.string(), item).nullish();
}
