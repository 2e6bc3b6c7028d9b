/** ACL objects every registry has, with Consul's well-known IDs. */
import type { StoredPolicy, StoredToken } from '../model';
import { DEFAULT_NAMESPACE } from '../tables';

export const GLOBAL_MANAGEMENT_POLICY_ID = '00000000-0000-0000-0000-000000000001';
export const ANONYMOUS_TOKEN_ID = '00000000-0000-0000-0000-000000000002';
export const ANONYMOUS_TOKEN_SECRET = 'anonymous';

export function globalManagementPolicy(): StoredPolicy {
  return {
    ID: GLOBAL_MANAGEMENT_POLICY_ID,
    Name: 'global-management',
    Description: 'Builtin Policy that grants unlimited access',
    Rules:
      'acl = "write"\noperator = "write"\nmesh = "write"\npeering = "write"\nnamespace_prefix "" {\n  policy = "write"\n  acl = "write"\n  service_prefix "" { policy = "write" }\n}\nservice_prefix "" { policy = "write" }\n',
    Datacenters: [],
    Namespace: DEFAULT_NAMESPACE,
  };
}

/** Both builtin tokens are global, in the default namespace, with no roles or identities. */
function builtinToken(
  accessorId: string,
  secretId: string,
  description: string,
  policies: StoredToken['Policies'],
  nowMs: number,
): StoredToken {
  return {
    AccessorID: accessorId,
    SecretID: secretId,
    Description: description,
    Policies: policies,
    Roles: [],
    ServiceIdentities: [],
    NodeIdentities: [],
    Local: false,
    CreateTimeMs: nowMs,
    Namespace: DEFAULT_NAMESPACE,
  };
}

export function anonymousToken(nowMs: number): StoredToken {
  return builtinToken(ANONYMOUS_TOKEN_ID, ANONYMOUS_TOKEN_SECRET, 'Anonymous Token', [], nowMs);
}

export function managementToken(
  accessorId: string,
  secretId: string,
  description: string,
  nowMs: number,
): StoredToken {
  return builtinToken(accessorId, secretId, description, [{ ID: GLOBAL_MANAGEMENT_POLICY_ID }], nowMs);
}
