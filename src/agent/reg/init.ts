/** What a registry's store holds before the first request: identity, builtin namespace and ACL objects. */
import { newId } from '../ids';
import type { Store } from '../store';
import { BOOTSTRAP_KEY } from './acl/bootstrap';
import {
  anonymousToken,
  ANONYMOUS_TOKEN_ID,
  globalManagementPolicy,
  GLOBAL_MANAGEMENT_POLICY_ID,
  managementToken,
} from './acl/builtins';
import type { StoredNamespace, StoredToken } from './model';
import { DEFAULT_NAMESPACE, T } from './tables';

const CLUSTER_KEY = 'cluster';

/** Idempotent: a restarted agent on the same data dir keeps its cluster ID and objects. Returns the cluster ID. */
export function initRegistryState(store: Store, bootstrapToken: string | undefined): string {
  const { result } = store.write((tx) => {
    let cluster = tx.get<{ ID: string }>(T.meta, CLUSTER_KEY);
    if (!cluster) {
      cluster = { ID: newId() };
      tx.putRaw(T.meta, CLUSTER_KEY, cluster);
    }
    if (!tx.get(T.namespaces, DEFAULT_NAMESPACE)) {
      const ns: StoredNamespace = { Name: DEFAULT_NAMESPACE, Description: 'Builtin Default Namespace' };
      tx.put(T.namespaces, DEFAULT_NAMESPACE, ns);
    }
    if (!tx.get(T.policies, GLOBAL_MANAGEMENT_POLICY_ID))
      tx.put(T.policies, GLOBAL_MANAGEMENT_POLICY_ID, globalManagementPolicy());
    if (!tx.get(T.tokens, ANONYMOUS_TOKEN_ID))
      tx.put(T.tokens, ANONYMOUS_TOKEN_ID, anonymousToken(Date.now()));
    if (bootstrapToken && !tx.list<StoredToken>(T.tokens).some((t) => t.SecretID === bootstrapToken)) {
      const accessor = newId();
      tx.put(
        T.tokens,
        accessor,
        managementToken(accessor, bootstrapToken, 'Initial Management Token', Date.now()),
      );
      if (!tx.get(T.meta, BOOTSTRAP_KEY)) tx.putRaw(T.meta, BOOTSTRAP_KEY, { Index: tx.index });
    }
    return cluster.ID;
  });
  return result;
}
