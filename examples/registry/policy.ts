/** The ACL policy the example's namespace links by name, shared by main.ts and create-policy.ts. */
export const DEFAULT_POLICY = 'apps-catalog-read';

/** Read access to services and nodes: what a workload needs to discover its dependencies. */
export const DEFAULT_POLICY_RULES = `service_prefix "" {
  policy = "read"
}
node_prefix "" {
  policy = "read"
}
`;
