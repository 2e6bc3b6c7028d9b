import type { z } from 'zod';

/**
 * `schema.safeParse(value)` for a document that a command reads once (cdktf.json, the manifest, a
 * stack's configuration, a backend block, a lock file), without zod's JIT: on an object schema's first
 * parse zod writes and compiles code for it, which costs far more than the one parse it speeds up
 * (these five cost every plan about 13 M instructions). Same result and messages: `jitless` only
 * takes zod's other path.
 */
export function safeParseOnce<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(value, { jitless: true });
}
