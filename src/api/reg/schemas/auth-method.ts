import { z } from 'zod';
import { DurationSchema, maybe } from './common';

export const NamespaceRuleSchema = z.looseObject({
  Selector: maybe(z.string()),
  BindNamespace: z.string(),
});
export type NamespaceRule = z.infer<typeof NamespaceRuleSchema>;

export const TokenLocalitySchema = z.enum(['', 'local', 'global']);
export type TokenLocality = z.infer<typeof TokenLocalitySchema>;

/**
 * Config values depend on Type. The spec shows strings only, but Consul's jwt/oidc types carry lists and maps
 * (BoundAudiences, ClaimMappings), so values are left unknown.
 */
export const AuthMethodConfigSchema = z.record(z.string(), z.unknown());
export type AuthMethodConfig = z.infer<typeof AuthMethodConfigSchema>;

export const AuthMethodSchema = z.looseObject({
  Name: z.string(),
  Type: z.string(),
  Description: maybe(z.string()),
  DisplayName: maybe(z.string()),
  MaxTokenTTL: maybe(DurationSchema),
  TokenLocality: maybe(z.string()),
  Config: maybe(AuthMethodConfigSchema),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  NamespaceRules: maybe(z.array(NamespaceRuleSchema)),
  CreateIndex: z.number(),
  ModifyIndex: z.number(),
});
export type AuthMethod = z.infer<typeof AuthMethodSchema>;

/** The list form is the auth method without Config and NamespaceRules. */
export const AuthMethodListStubSchema = AuthMethodSchema.omit({ Config: true, NamespaceRules: true });
export type AuthMethodListStub = z.infer<typeof AuthMethodListStubSchema>;

/** Body of PUT /acl/auth-method. Durations are sent as Go duration strings (`5m`). */
export const AuthMethodCreateRequestSchema = z.looseObject({
  Name: z.string(),
  Type: z.string(),
  Description: z.string().optional(),
  DisplayName: z.string().optional(),
  MaxTokenTTL: z.string().optional(),
  TokenLocality: TokenLocalitySchema.optional(),
  Config: AuthMethodConfigSchema,
  Namespace: z.string().optional(),
  NamespaceRules: z
    .array(z.looseObject({ Selector: z.string().optional(), BindNamespace: z.string() }))
    .optional(),
});
export type AuthMethodCreateRequest = z.infer<typeof AuthMethodCreateRequestSchema>;

/** Body of PUT /acl/auth-method/<name>: Name and Type optional (Type is filled from the stored method). */
export const AuthMethodUpdateRequestSchema = AuthMethodCreateRequestSchema.extend({
  Name: z.string().optional(),
  Type: z.string().optional(),
});
export type AuthMethodUpdateRequest = z.infer<typeof AuthMethodUpdateRequestSchema>;
