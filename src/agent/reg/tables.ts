/**
 * Table names and keys of the registry's records in the shared store. Namespaced records are keyed
 * `<ns>/<name>` so a list of one namespace is a prefix scan and namespace deletion finds its data.
 */
export const T = {
  meta: 'reg/meta',
  namespaces: 'reg/namespaces',
  authMethods: 'reg/auth_methods',
  bindingRules: 'reg/acl_binding_rules',
  policies: 'reg/acl_policies',
  roles: 'reg/acl_roles',
  tokens: 'reg/acl_tokens',
  configEntries: 'reg/config_entries',
  peerings: 'reg/peerings',
  /** One-time establishment secrets and stream secrets of peerings; never served. */
  peeringSecrets: 'reg/peering_secrets',
} as const;

export const DEFAULT_NAMESPACE = 'default';
export const DEFAULT_PARTITION = 'default';

export const nsKey = (ns: string, name: string): string => `${ns}/${name}`;
export const nsPrefix = (ns: string): string => `${ns}/`;
export const configKey = (ns: string, kind: string, name: string): string => `${ns}/${kind}/${name}`;
export const configKindPrefix = (ns: string, kind: string): string => `${ns}/${kind}/`;
export const peeringKey = (partition: string, name: string): string => `${partition}/${name}`;

/** Tables whose records carry a Namespace and go away with it. */
export const NAMESPACED_TABLES = [
  T.authMethods,
  T.bindingRules,
  T.policies,
  T.roles,
  T.tokens,
  T.configEntries,
] as const;
