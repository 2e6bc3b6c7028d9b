/**
 * The registry half of the dev agent: ACL auth methods and the ACL objects around them, namespaces,
 * cluster peering, config entries and the compiled discovery chain, over the shared store.
 */
import type { Clock } from '../clock';
import { Router, type RequestContext, type RouteMeta } from '../http/router';
import type { Store } from '../store';
import { AclGate } from './acl/gate';
import { addAclRoutes } from './acl/routes';
import { addAuthMethodRoutes } from './auth-methods/routes';
import { addChainRoutes } from './chain/routes';
import { addConfigRoutes } from './config/routes';
import type { RegContext, RegistryTls } from './context';
import { initRegistryState } from './init';
import { addLoginRoutes } from './login/routes';
import type { StoredNamespace } from './model';
import { addNamespaceRoutes, scheduleNamespacePurge } from './namespaces/routes';
import { addPeeringRoutes, resumePeeringWork } from './peering/routes';
import { T } from './tables';

export interface RegistryServiceOptions {
  store: Store;
  clock: Clock;
  datacenter: string;
  nodeName?: string;
  acl?: { enabled: boolean; bootstrapToken?: string };
  /** The registry's own base URL once listening (peering tokens carry the server address). */
  selfAddress: () => string;
  tls?: RegistryTls;
  log?: (line: string) => void;
}

export interface RegistryService {
  router: Router;
  authorize: (ctx: RequestContext, meta: RouteMeta) => void | Promise<void>;
  /** Cancels background work (namespace and peering cleanup). The store stays open. */
  stop(): void;
}

export function createRegistryService(opts: RegistryServiceOptions): RegistryService {
  const { store, clock } = opts;
  const aclEnabled = opts.acl?.enabled === true;
  const clusterId = initRegistryState(store, opts.acl?.bootstrapToken);
  const log = opts.log ?? (() => undefined);
  const cancels = new Set<() => void>();
  let stopped = false;

  const rc: RegContext = {
    store,
    clock,
    datacenter: opts.datacenter,
    nodeName: opts.nodeName ?? 'dev',
    aclEnabled,
    clusterId,
    trustDomain: `${clusterId}.consul`,
    selfAddress: opts.selfAddress,
    tls: opts.tls,
    log,
    gate: new AclGate(store, aclEnabled),
    later(delayNs, fn) {
      if (stopped) return;
      const cancel = clock.after(delayNs, () => {
        cancels.delete(cancel);
        if (stopped) return;
        Promise.resolve()
          .then(fn)
          .catch((err: unknown) =>
            log(`registry: background task failed: ${err instanceof Error ? err.message : String(err)}`),
          );
      });
      cancels.add(cancel);
    },
  };

  const router = new Router();
  addAuthMethodRoutes(router, rc);
  addAclRoutes(router, rc);
  addLoginRoutes(router, rc);
  addNamespaceRoutes(router, rc);
  addConfigRoutes(router, rc);
  addChainRoutes(router, rc);
  addPeeringRoutes(router, rc);

  // Work that a previous run of this data dir left half done.
  for (const ns of store.list<StoredNamespace>(T.namespaces))
    if (ns.DeletedAt) scheduleNamespacePurge(rc, ns.Name);
  resumePeeringWork(rc);

  return {
    router,
    authorize: rc.gate.authorize,
    stop() {
      stopped = true;
      for (const c of cancels) c();
      cancels.clear();
    },
  };
}
