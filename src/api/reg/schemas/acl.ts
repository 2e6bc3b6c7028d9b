import { z } from 'zod';
import { ACLLinkSchema, DurationSchema, maybe } from './common';

export const ACLServiceIdentitySchema = z.looseObject({
  ServiceName: z.string(),
  Datacenters: maybe(z.array(z.string())),
});
export type ACLServiceIdentity = z.infer<typeof ACLServiceIdentitySchema>;

export const ACLNodeIdentitySchema = z.looseObject({ NodeName: z.string(), Datacenter: z.string() });
export type ACLNodeIdentity = z.infer<typeof ACLNodeIdentitySchema>;

const scoped = {
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  Hash: maybe(z.string()),
  CreateIndex: maybe(z.number()),
  ModifyIndex: maybe(z.number()),
};

export const ACLPolicySchema = z.looseObject({
  ID: z.string(),
  Name: z.string(),
  Description: maybe(z.string()),
  /** HCL or JSON rules text. */
  Rules: maybe(z.string()),
  Datacenters: maybe(z.array(z.string())),
  ...scoped,
});
export type ACLPolicy = z.infer<typeof ACLPolicySchema>;

/** The list form omits Rules. */
export const ACLPolicyListEntrySchema = ACLPolicySchema.omit({ Rules: true });
export type ACLPolicyListEntry = z.infer<typeof ACLPolicyListEntrySchema>;

export const ACLRoleSchema = z.looseObject({
  ID: z.string(),
  Name: z.string(),
  Description: maybe(z.string()),
  Policies: maybe(z.array(ACLLinkSchema)),
  ServiceIdentities: maybe(z.array(ACLServiceIdentitySchema)),
  NodeIdentities: maybe(z.array(ACLNodeIdentitySchema)),
  ...scoped,
});
export type ACLRole = z.infer<typeof ACLRoleSchema>;

export const ACLTokenSchema = z.looseObject({
  AccessorID: z.string(),
  /** Secret; never log it. The list form may omit it or send a placeholder. */
  SecretID: maybe(z.string()),
  Description: maybe(z.string()),
  Policies: maybe(z.array(ACLLinkSchema)),
  Roles: maybe(z.array(ACLLinkSchema)),
  ServiceIdentities: maybe(z.array(ACLServiceIdentitySchema)),
  NodeIdentities: maybe(z.array(ACLNodeIdentitySchema)),
  Local: maybe(z.boolean()),
  /** Name of the auth method that minted the token; deleting that method deletes the token. */
  AuthMethod: maybe(z.string()),
  AuthMethodNamespace: maybe(z.string()),
  ExpirationTTL: maybe(DurationSchema),
  ExpirationTime: maybe(z.string()),
  CreateTime: maybe(z.string()),
  ...scoped,
});
export type ACLToken = z.infer<typeof ACLTokenSchema>;

export const ACLBindTypeSchema = z.enum(['service', 'node', 'role', 'policy', 'templated-policy']);
export type ACLBindType = z.infer<typeof ACLBindTypeSchema>;

export const ACLBindingRuleSchema = z.looseObject({
  ID: z.string(),
  Description: maybe(z.string()),
  AuthMethod: z.string(),
  Selector: maybe(z.string()),
  /** Loose string: a real cluster may know bind types newer than ours. */
  BindType: z.string(),
  BindName: z.string(),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  CreateIndex: maybe(z.number()),
  ModifyIndex: maybe(z.number()),
});
export type ACLBindingRule = z.infer<typeof ACLBindingRuleSchema>;

const linkRequest = z.looseObject({ ID: z.string().optional(), Name: z.string().optional() });

export const ACLPolicyWriteRequestSchema = z.looseObject({
  ID: z.string().optional(),
  Name: z.string(),
  Description: z.string().optional(),
  Rules: z.string().optional(),
  Datacenters: z.array(z.string()).optional(),
  Namespace: z.string().optional(),
});
export type ACLPolicyWriteRequest = z.infer<typeof ACLPolicyWriteRequestSchema>;

export const ACLRoleWriteRequestSchema = z.looseObject({
  ID: z.string().optional(),
  Name: z.string(),
  Description: z.string().optional(),
  Policies: z.array(linkRequest).optional(),
  ServiceIdentities: z
    .array(z.looseObject({ ServiceName: z.string(), Datacenters: z.array(z.string()).optional() }))
    .optional(),
  NodeIdentities: z.array(z.looseObject({ NodeName: z.string(), Datacenter: z.string() })).optional(),
  Namespace: z.string().optional(),
});
export type ACLRoleWriteRequest = z.infer<typeof ACLRoleWriteRequestSchema>;

export const ACLTokenWriteRequestSchema = z.looseObject({
  AccessorID: z.string().optional(),
  SecretID: z.string().optional(),
  Description: z.string().optional(),
  Policies: z.array(linkRequest).optional(),
  Roles: z.array(linkRequest).optional(),
  ServiceIdentities: z
    .array(z.looseObject({ ServiceName: z.string(), Datacenters: z.array(z.string()).optional() }))
    .optional(),
  NodeIdentities: z.array(z.looseObject({ NodeName: z.string(), Datacenter: z.string() })).optional(),
  Local: z.boolean().optional(),
  ExpirationTTL: z.string().optional(),
  ExpirationTime: z.string().optional(),
  Namespace: z.string().optional(),
});
export type ACLTokenWriteRequest = z.infer<typeof ACLTokenWriteRequestSchema>;

export const ACLBindingRuleWriteRequestSchema = z.looseObject({
  ID: z.string().optional(),
  Description: z.string().optional(),
  AuthMethod: z.string(),
  Selector: z.string().optional(),
  BindType: ACLBindTypeSchema,
  BindName: z.string(),
  Namespace: z.string().optional(),
});
export type ACLBindingRuleWriteRequest = z.infer<typeof ACLBindingRuleWriteRequestSchema>;
