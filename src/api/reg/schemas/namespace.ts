import { z } from 'zod';
import { ACLLinkSchema, StringMapSchema, maybe } from './common';

export const NamespaceACLConfigSchema = z.looseObject({
  PolicyDefaults: maybe(z.array(ACLLinkSchema)),
  RoleDefaults: maybe(z.array(ACLLinkSchema)),
});
export type NamespaceACLConfig = z.infer<typeof NamespaceACLConfigSchema>;

export const NamespaceSchema = z.looseObject({
  Name: z.string(),
  Description: maybe(z.string()),
  ACLs: maybe(NamespaceACLConfigSchema),
  Meta: maybe(StringMapSchema),
  Partition: maybe(z.string()),
  /** Set once the namespace is marked for deletion; it stays readable until background deletion ends. */
  DeletedAt: maybe(z.string()),
  // Consul lists the built-in `default` namespace without indexes.
  CreateIndex: maybe(z.number()),
  ModifyIndex: maybe(z.number()),
});
export type Namespace = z.infer<typeof NamespaceSchema>;

const ACLLinkRequestSchema = z.looseObject({ ID: z.string().optional(), Name: z.string().optional() });

export const NamespaceCreateRequestSchema = z.looseObject({
  Name: z.string(),
  Description: z.string().optional(),
  ACLs: z
    .looseObject({
      PolicyDefaults: z.array(ACLLinkRequestSchema).optional(),
      RoleDefaults: z.array(ACLLinkRequestSchema).optional(),
    })
    .optional(),
  Meta: StringMapSchema.optional(),
});
export type NamespaceCreateRequest = z.infer<typeof NamespaceCreateRequestSchema>;

export const NamespaceUpdateRequestSchema = NamespaceCreateRequestSchema.extend({
  Name: z.string().optional(),
});
export type NamespaceUpdateRequest = z.infer<typeof NamespaceUpdateRequestSchema>;
