/** What every registry route module gets: the store, time, identity of this registry, and the ACL gate. */
import type { Clock } from '../clock';
import type { RequestContext } from '../http/router';
import type { Store } from '../store';
import type { AclGate, RequestAuth } from './acl/gate';

export interface RegContext {
  store: Store;
  clock: Clock;
  datacenter: string;
  nodeName: string;
  aclEnabled: boolean;
  /** Stable per data dir; the trust domain is `<clusterId>.consul`, as in Consul's SNI names. */
  clusterId: string;
  trustDomain: string;
  selfAddress: () => string;
  /** Set when the registry serves HTTPS: what peers are told to trust, and the identity shown to them. */
  tls: RegistryTls | undefined;
  log: (line: string) => void;
  gate: AclGate;
  /** Background work (namespace and peering cleanup); cancelled by stop(). */
  later(delayNs: number, fn: () => void | Promise<void>): void;
}

export interface RegistryTls {
  /** CA certificates (PEM) a peer needs to trust this registry; peering tokens carry them. */
  caPems: string[];
  cert: string;
  key: string;
}

export function authOf(rc: RegContext, ctx: RequestContext): RequestAuth {
  return rc.gate.auth(ctx);
}
