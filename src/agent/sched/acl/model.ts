/** ACL records as the scheduler stores and (without secrets where noted) returns them, as Nomad shapes them. */

export interface AclTokenRecord {
  AccessorID: string;
  /** The credential. Never logged, never in events, never in token lists. */
  SecretID: string;
  Name: string;
  Type: 'client' | 'management';
  Policies: string[] | null;
  Roles: null;
  Global: boolean;
  /** base64 SHA-256 over the token's contents, as Nomad uses to spot changes. */
  Hash: string;
  CreateTime: string;
  /** RFC 3339, or null when the token does not expire. */
  ExpirationTime: string | null;
  /** Nanoseconds; 0 when the token does not expire. */
  ExpirationTTL: number;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface AclPolicyRecord {
  Name: string;
  Description: string;
  /** The rules as submitted (HCL or JSON). */
  Rules: string;
  JobACL: { Namespace: string; JobID: string; Group: string; Task: string } | null;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface BootstrapState {
  /** Index of the bootstrap; a second bootstrap is refused with this index in the message. */
  ResetIndex: number;
}

/** The list form of a token: everything but the secret. */
export function tokenStub(t: AclTokenRecord): Omit<AclTokenRecord, 'SecretID'> {
  const { SecretID: _secret, ...stub } = t;
  return stub;
}

/** The list form of a policy: no rules. */
export function policyStub(p: AclPolicyRecord): Record<string, unknown> {
  return {
    Name: p.Name,
    Description: p.Description,
    JobACL: p.JobACL,
    Hash: p.Hash,
    CreateIndex: p.CreateIndex,
    ModifyIndex: p.ModifyIndex,
  };
}
