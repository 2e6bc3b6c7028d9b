/** Store tables of the scheduler's ACL system: tokens by AccessorID, policies by name. */
export const ACL_T = {
  tokens: 'sched/acl_tokens',
  policies: 'sched/acl_policies',
  /** One row, `state`: whether and at which index the cluster was bootstrapped. */
  bootstrap: 'sched/acl_bootstrap',
} as const;

export const BOOTSTRAP_KEY = 'state';
