/** Discovery targets: the concrete service/subset/namespace/datacenter a resolver node sends traffic to. */
import type { MeshGatewayConfig, ResolverSubset, TargetOpts } from '../config/types';

export interface Target {
  ID: string;
  Service: string;
  ServiceSubset: string;
  Namespace: string;
  Datacenter: string;
  Peer: string;
  MeshGateway: MeshGatewayConfig;
  Subset: ResolverSubset;
  ConnectTimeoutMs: number;
  External: boolean;
  SNI: string;
  Name: string;
}

export interface ResolvedOpts {
  Service: string;
  ServiceSubset: string;
  Namespace: string;
  Datacenter: string;
  Peer: string;
}

/**
 * The agent serves one admin partition, `default`, as Consul CE does; target IDs carry it since
 * Consul 1.11.
 */
export const PARTITION = 'default';

/**
 * Consul's ChainID: `[<subset>.]<service>.<namespace>.<partition>.<datacenter>`; peered targets name
 * the peer instead of a datacenter.
 */
export function targetId(o: ResolvedOpts): string {
  const head = o.ServiceSubset ? `${o.ServiceSubset}.${o.Service}` : o.Service;
  return o.Peer
    ? `${head}.${o.Namespace}.${PARTITION}.external.${o.Peer}`
    : `${head}.${o.Namespace}.${PARTITION}.${o.Datacenter}`;
}

/** Consul's connect SNI: `[<subset>.]<service>.<namespace>.<datacenter>.internal.<trust domain>`. */
export function targetSni(o: ResolvedOpts, trustDomain: string): string {
  const head = o.ServiceSubset ? `${o.ServiceSubset}.${o.Service}` : o.Service;
  return `${head}.${o.Namespace}.${o.Datacenter}.internal.${trustDomain}`;
}

export function optsOf(t: Target): ResolvedOpts {
  return {
    Service: t.Service,
    ServiceSubset: t.ServiceSubset,
    Namespace: t.Namespace,
    Datacenter: t.Datacenter,
    Peer: t.Peer,
  };
}

/** Applies a redirect or failover definition to a target, as Consul's rewriteTarget does. */
export function rewrite(t: ResolvedOpts, by: TargetOpts): Partial<ResolvedOpts> & { Service: string } {
  const out: Partial<ResolvedOpts> & { Service: string } = { ...t };
  if (by.Service && by.Service !== out.Service) {
    out.Service = by.Service;
    out.ServiceSubset = '';
  }
  if (by.ServiceSubset) out.ServiceSubset = by.ServiceSubset;
  if (by.Namespace || by.Peer) out.Namespace = by.Namespace ?? '';
  if (by.Datacenter) out.Datacenter = by.Datacenter;
  out.Peer = by.Peer ?? '';
  return out;
}

export function renderTarget(t: Target, goDuration: (ms: number) => string): Record<string, unknown> {
  const out: Record<string, unknown> = { ID: t.ID, Service: t.Service };
  if (t.ServiceSubset) out['ServiceSubset'] = t.ServiceSubset;
  out['Namespace'] = t.Namespace;
  out['Partition'] = PARTITION;
  // Consul omits empty strings here: a peered target has no datacenter.
  if (t.Datacenter) out['Datacenter'] = t.Datacenter;
  if (t.Peer) out['Peer'] = t.Peer;
  out['MeshGateway'] = t.MeshGateway.Mode ? { Mode: t.MeshGateway.Mode } : {};
  out['Subset'] = { ...t.Subset };
  out['ConnectTimeout'] = goDuration(t.ConnectTimeoutMs);
  out['External'] = t.External;
  out['SNI'] = t.SNI;
  out['Name'] = t.Name;
  return out;
}
