import { z } from 'zod';
import { OptBool, OptNumber, OptString, Rfc3339, StringList } from './common';

/** Type: `client` or `management`. SecretID is a credential: never log it. */
export const ACLTokenSchema = z.looseObject({
  AccessorID: OptString,
  SecretID: OptString,
  Name: OptString,
  Type: OptString,
  Policies: StringList,
  Roles: z.array(z.looseObject({ ID: OptString, Name: OptString })).nullish(),
  Global: OptBool,
  CreateTime: Rfc3339,
  ExpirationTime: Rfc3339,
  ExpirationTTL: OptNumber,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type ACLToken = z.infer<typeof ACLTokenSchema>;

export const ACLPolicySchema = z.looseObject({
  Name: z.string(),
  Description: OptString,
  /** The policy text (HCL). */
  Rules: OptString,
  JobACL: z
    .looseObject({ Namespace: OptString, JobID: OptString, Group: OptString, Task: OptString })
    .nullish(),
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type ACLPolicy = z.infer<typeof ACLPolicySchema>;
