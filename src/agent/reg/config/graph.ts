/**
 * Consul refuses a config entry write (or delete) that would leave some discovery chain uncompilable:
 * a router or splitter on a TCP service, a split to a subset that does not exist, a redirect loop,
 * services of one chain with different protocols. This compiles every chain the entries define, as the
 * transaction sees them, and turns the first failure into a 400.
 */
import { badRequest } from '../../http/errors';
import type { Txn } from '../../store';
import { ChainError, compileChain } from '../chain/compile';
import { entryReader } from '../chain/entries';
import type { StoredConfigEntry } from '../model';
import { T } from '../tables';

export function validateEntryGraph(tx: Txn, datacenter: string, trustDomain: string): void {
  const entries = entryReader(tx);
  const chains = new Map<string, { ns: string; name: string }>();
  for (const e of tx.list<StoredConfigEntry>(T.configEntries)) {
    if (e.Kind === 'proxy-defaults') continue;
    chains.set(`${e.Namespace}/${e.Name}`, { ns: e.Namespace, name: e.Name });
  }
  for (const { ns, name } of chains.values()) {
    try {
      compileChain({ serviceName: name, namespace: ns, datacenter, trustDomain, entries });
    } catch (err) {
      if (err instanceof ChainError)
        throw badRequest(`config entry graph: ${err.message} (rule: discovery-chain)`);
      throw err;
    }
  }
}
