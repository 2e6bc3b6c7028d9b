/**
 * Background deletion of a namespace marked with DeletedAt: its auth methods, binding rules, policies,
 * roles, tokens and config entries go in one transaction, and the namespace with them.
 */
import type { Store } from '../../store';
import type { StoredNamespace } from '../model';
import { NAMESPACED_TABLES, T } from '../tables';

/** Cluster time between marking a namespace for deletion and removing it (scaled by the clock). */
export const NAMESPACE_PURGE_DELAY_NS = 2e9;

export function purgeNamespace(store: Store, name: string): boolean {
  const { result } = store.write((tx) => {
    const ns = tx.get<StoredNamespace>(T.namespaces, name);
    if (!ns?.DeletedAt) return false;
    for (const table of NAMESPACED_TABLES) {
      for (const row of tx.list<{ Namespace?: string } & Record<string, unknown>>(table)) {
        if (row.Namespace !== name) continue;
        tx.delete(table, keyOf(table, row));
      }
    }
    tx.delete(T.namespaces, name);
    return true;
  });
  return result;
}

function keyOf(table: string, row: Record<string, unknown>): string {
  switch (table) {
    case T.authMethods:
      return `${String(row['Namespace'])}/${String(row['Name'])}`;
    case T.configEntries:
      return `${String(row['Namespace'])}/${String(row['Kind'])}/${String(row['Name'])}`;
    case T.tokens:
      return String(row['AccessorID']);
    default:
      return String(row['ID']);
  }
}
