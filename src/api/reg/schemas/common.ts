import { z } from 'zod';

/**
 * An optional response field that the service may send as `null` (Go nil slices, maps and pointers).
 * Null is read as absent so callers deal with one "missing" value instead of two.
 */
export function maybe<S extends z.ZodType>(schema: S) {
  return schema
    .nullish()
    .transform((v): z.output<S> | undefined => v ?? undefined)
    .optional();
}

/** Go time.Duration on the wire: a duration string (`5s`) or, from a bare encoding/json, nanoseconds. */
export const DurationSchema = z.union([z.string(), z.number()]);
export type Duration = z.infer<typeof DurationSchema>;

export const StringMapSchema = z.record(z.string(), z.string());
export type StringMap = z.infer<typeof StringMapSchema>;

export const MeshGatewayModeSchema = z.enum(['', 'none', 'local', 'remote']);
export type MeshGatewayMode = z.infer<typeof MeshGatewayModeSchema>;

/** Loose on purpose: a real cluster may send modes newer than ours. */
export const MeshGatewayConfigSchema = z.looseObject({ Mode: maybe(z.string()) });
export type MeshGatewayConfig = z.infer<typeof MeshGatewayConfigSchema>;

/** A reference to a policy or role by ID and/or Name; responses carry both. */
export const ACLLinkSchema = z.looseObject({ ID: maybe(z.string()), Name: maybe(z.string()) });
export type ACLLink = z.infer<typeof ACLLinkSchema>;

/** Write responses of some endpoints are a bare JSON boolean (delete of an auth method, config entry apply). */
export const BooleanResultSchema = z.boolean();

/** Endpoints that answer with no body or `{}`; success is the status code. */
export const EmptyResultSchema = z.unknown();
