import { z } from 'zod';
import { DurationSchema, maybe } from './common';
import { ServiceResolverSubsetSchema, configEntryBase } from './config-entry-common';

export const ServiceResolverRedirectSchema = z.looseObject({
  Service: maybe(z.string()),
  ServiceSubset: maybe(z.string()),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  Datacenter: maybe(z.string()),
  Peer: maybe(z.string()),
});
export type ServiceResolverRedirect = z.infer<typeof ServiceResolverRedirectSchema>;

export const ServiceResolverFailoverTargetSchema = z.looseObject({
  Service: maybe(z.string()),
  ServiceSubset: maybe(z.string()),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  Datacenter: maybe(z.string()),
  Peer: maybe(z.string()),
});
export type ServiceResolverFailoverTarget = z.infer<typeof ServiceResolverFailoverTargetSchema>;

/** Keyed by subset name, or `*` for any subset. */
export const ServiceResolverFailoverSchema = z.looseObject({
  Service: maybe(z.string()),
  ServiceSubset: maybe(z.string()),
  Namespace: maybe(z.string()),
  Datacenters: maybe(z.array(z.string())),
  Targets: maybe(z.array(ServiceResolverFailoverTargetSchema)),
});
export type ServiceResolverFailover = z.infer<typeof ServiceResolverFailoverSchema>;

export const LoadBalancerSchema = z.looseObject({
  Policy: maybe(z.string()),
  RingHashConfig: maybe(
    z.looseObject({ MinimumRingSize: maybe(z.number()), MaximumRingSize: maybe(z.number()) }),
  ),
  LeastRequestConfig: maybe(z.looseObject({ ChoiceCount: maybe(z.number()) })),
  HashPolicies: maybe(z.array(z.looseObject({}))),
});
export type LoadBalancer = z.infer<typeof LoadBalancerSchema>;

export const ServiceResolverConfigEntrySchema = z.looseObject({
  Kind: z.literal('service-resolver'),
  ...configEntryBase,
  DefaultSubset: maybe(z.string()),
  Subsets: maybe(z.record(z.string(), ServiceResolverSubsetSchema)),
  Redirect: maybe(ServiceResolverRedirectSchema),
  Failover: maybe(z.record(z.string(), ServiceResolverFailoverSchema)),
  ConnectTimeout: maybe(DurationSchema),
  RequestTimeout: maybe(DurationSchema),
  LoadBalancer: maybe(LoadBalancerSchema),
});
export type ServiceResolverConfigEntry = z.infer<typeof ServiceResolverConfigEntrySchema>;
