import { z } from 'zod';
import { DurationSchema, MeshGatewayConfigSchema, StringMapSchema, maybe } from './common';
import { ServiceResolverSubsetSchema } from './config-entry-common';
import { LoadBalancerSchema } from './config-entry-resolver';
import { ServiceRouteSchema } from './config-entry-router';

export const DiscoveryFailoverSchema = z.looseObject({
  /** Target IDs tried in order when the primary target has no healthy instances. */
  Targets: maybe(z.array(z.string())),
});
export type DiscoveryFailover = z.infer<typeof DiscoveryFailoverSchema>;

export const DiscoveryResolverSchema = z.looseObject({
  /** True when no service-resolver entry exists and the compiler synthesized one. */
  Default: maybe(z.boolean()),
  ConnectTimeout: maybe(DurationSchema),
  RequestTimeout: maybe(DurationSchema),
  Target: z.string(),
  Failover: maybe(DiscoveryFailoverSchema),
});
export type DiscoveryResolver = z.infer<typeof DiscoveryResolverSchema>;

export const DiscoverySplitSchema = z.looseObject({ Weight: z.number(), NextNode: z.string() });
export type DiscoverySplit = z.infer<typeof DiscoverySplitSchema>;

export const DiscoveryRouteSchema = z.looseObject({ Definition: ServiceRouteSchema, NextNode: z.string() });
export type DiscoveryRoute = z.infer<typeof DiscoveryRouteSchema>;

export const DiscoveryResolverNodeSchema = z.looseObject({
  Type: z.literal('resolver'),
  Name: z.string(),
  Resolver: DiscoveryResolverSchema,
  LoadBalancer: maybe(LoadBalancerSchema),
});
export const DiscoverySplitterNodeSchema = z.looseObject({
  Type: z.literal('splitter'),
  Name: z.string(),
  Splits: z.array(DiscoverySplitSchema),
  LoadBalancer: maybe(LoadBalancerSchema),
});
export const DiscoveryRouterNodeSchema = z.looseObject({
  Type: z.literal('router'),
  Name: z.string(),
  Routes: z.array(DiscoveryRouteSchema),
});

/** Node keys have the form `<type>:<name>`, e.g. `resolver:v1.web.default.dc1`. */
export const DiscoveryGraphNodeSchema = z.discriminatedUnion('Type', [
  DiscoveryResolverNodeSchema,
  DiscoverySplitterNodeSchema,
  DiscoveryRouterNodeSchema,
]);
export type DiscoveryGraphNode = z.infer<typeof DiscoveryGraphNodeSchema>;
export type DiscoveryResolverNode = z.infer<typeof DiscoveryResolverNodeSchema>;
export type DiscoverySplitterNode = z.infer<typeof DiscoverySplitterNodeSchema>;
export type DiscoveryRouterNode = z.infer<typeof DiscoveryRouterNodeSchema>;

/**
 * Target IDs have the form `[<subset>.]<service>.<namespace>.<partition>.<datacenter>` (Consul 1.11 and
 * later), or `<service>.<namespace>.<partition>.external.<peer>` for a peered target.
 */
export const DiscoveryTargetSchema = z.looseObject({
  ID: z.string(),
  Service: z.string(),
  ServiceSubset: maybe(z.string()),
  Namespace: z.string(),
  Partition: maybe(z.string()),
  // Consul omits it for a target in a peer (failover to a peered cluster).
  Datacenter: maybe(z.string()),
  Peer: maybe(z.string()),
  MeshGateway: maybe(MeshGatewayConfigSchema),
  Subset: maybe(ServiceResolverSubsetSchema),
  ConnectTimeout: maybe(DurationSchema),
  External: maybe(z.boolean()),
  SNI: maybe(z.string()),
  Name: maybe(z.string()),
});
export type DiscoveryTarget = z.infer<typeof DiscoveryTargetSchema>;

export const CompiledDiscoveryChainSchema = z.looseObject({
  ServiceName: z.string(),
  Namespace: z.string(),
  Partition: maybe(z.string()),
  Datacenter: z.string(),
  /** Present when overrides were given; proxies key customized resources by it. */
  CustomizationHash: maybe(z.string()),
  Default: maybe(z.boolean()),
  Protocol: z.string(),
  ServiceMeta: maybe(StringMapSchema),
  StartNode: z.string(),
  Nodes: z.record(z.string(), DiscoveryGraphNodeSchema),
  Targets: z.record(z.string(), DiscoveryTargetSchema),
});
export type CompiledDiscoveryChain = z.infer<typeof CompiledDiscoveryChainSchema>;

export const DiscoveryChainResponseSchema = z.looseObject({ Chain: CompiledDiscoveryChainSchema });
export type DiscoveryChainResponse = z.infer<typeof DiscoveryChainResponseSchema>;

/** POST body of /discovery-chain/<service>; every field optional. */
export const DiscoveryChainOverridesSchema = z.looseObject({
  OverrideConnectTimeout: z.string().optional(),
  OverrideProtocol: z.string().optional(),
  OverrideMeshGateway: z.looseObject({ Mode: z.string().optional() }).optional(),
});
export type DiscoveryChainOverrides = z.infer<typeof DiscoveryChainOverridesSchema>;
