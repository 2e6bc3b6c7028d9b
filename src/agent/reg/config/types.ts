/**
 * Config entries as stored after normalization (durations as Go strings, weights rounded to 0.01),
 * typed for the discovery chain compiler. Fields the registry does not interpret pass through untouched.
 */
export interface TargetOpts {
  Service?: string;
  ServiceSubset?: string;
  Namespace?: string;
  Partition?: string;
  Datacenter?: string;
  Peer?: string;
}

export interface EntryBase {
  Kind: string;
  Name: string;
  Namespace: string;
  Meta?: Record<string, string>;
  CreateIndex?: number;
  ModifyIndex?: number;
}

export interface MeshGatewayConfig {
  Mode?: string;
}

export interface ServiceDefaultsEntry extends EntryBase {
  Kind: 'service-defaults';
  Protocol?: string;
  MeshGateway?: MeshGatewayConfig;
  ExternalSNI?: string;
}

export interface ProxyDefaultsEntry extends EntryBase {
  Kind: 'proxy-defaults';
  Config?: Record<string, unknown>;
  MeshGateway?: MeshGatewayConfig;
}

export interface ResolverSubset {
  Filter?: string;
  OnlyPassing?: boolean;
}

export interface ResolverFailover extends TargetOpts {
  Datacenters?: string[];
  Targets?: TargetOpts[];
}

export interface ServiceResolverEntry extends EntryBase {
  Kind: 'service-resolver';
  DefaultSubset?: string;
  Subsets?: Record<string, ResolverSubset>;
  Redirect?: TargetOpts;
  Failover?: Record<string, ResolverFailover>;
  ConnectTimeout?: string;
  RequestTimeout?: string;
  LoadBalancer?: { Policy?: string } & Record<string, unknown>;
}

export interface ServiceSplit extends TargetOpts {
  Weight: number;
}

export interface ServiceSplitterEntry extends EntryBase {
  Kind: 'service-splitter';
  Splits: ServiceSplit[];
}

export interface RouteHttpMatch {
  PathExact?: string;
  PathPrefix?: string;
  PathRegex?: string;
  Header?: Record<string, unknown>[];
  QueryParam?: Record<string, unknown>[];
  Methods?: string[];
}

export interface RouteDestination extends TargetOpts {
  PrefixRewrite?: string;
  RequestTimeout?: string;
  NumRetries?: number;
  RetryOnConnectFailure?: boolean;
  RetryOnStatusCodes?: number[];
}

export interface ServiceRoute {
  Match?: { HTTP?: RouteHttpMatch };
  Destination?: RouteDestination;
}

export interface ServiceRouterEntry extends EntryBase {
  Kind: 'service-router';
  Routes: ServiceRoute[];
}

export type ChainEntry =
  | ServiceDefaultsEntry
  | ProxyDefaultsEntry
  | ServiceResolverEntry
  | ServiceSplitterEntry
  | ServiceRouterEntry;

export const PROXY_DEFAULTS_NAME = 'global';
export const L7_PROTOCOLS = ['http', 'http2', 'grpc'] as const;
export const isL7 = (protocol: string): boolean => (L7_PROTOCOLS as readonly string[]).includes(protocol);
