/** The config entries a chain compilation reads, from the store or from a transaction in flight. */
import type { Store, Txn } from '../../store';
import type {
  ProxyDefaultsEntry,
  ServiceDefaultsEntry,
  ServiceResolverEntry,
  ServiceRouterEntry,
  ServiceSplitterEntry,
} from '../config/types';
import { PROXY_DEFAULTS_NAME } from '../config/types';
import { DEFAULT_NAMESPACE, T, configKey } from '../tables';

export interface EntryReader {
  serviceDefaults(ns: string, name: string): ServiceDefaultsEntry | undefined;
  proxyDefaults(): ProxyDefaultsEntry | undefined;
  resolver(ns: string, name: string): ServiceResolverEntry | undefined;
  splitter(ns: string, name: string): ServiceSplitterEntry | undefined;
  router(ns: string, name: string): ServiceRouterEntry | undefined;
}

export function entryReader(r: Pick<Store, 'get'> | Pick<Txn, 'get'>): EntryReader {
  const get = <E>(ns: string, kind: string, name: string): E | undefined =>
    r.get<E>(T.configEntries, configKey(ns, kind, name));
  return {
    serviceDefaults: (ns, name) => get(ns, 'service-defaults', name),
    proxyDefaults: () => get(DEFAULT_NAMESPACE, 'proxy-defaults', PROXY_DEFAULTS_NAME),
    resolver: (ns, name) => get(ns, 'service-resolver', name),
    splitter: (ns, name) => get(ns, 'service-splitter', name),
    router: (ns, name) => get(ns, 'service-router', name),
  };
}
