import { z } from 'zod';
import { DurationSchema, maybe } from './common';
import { configEntryBase } from './config-entry-common';

export const ServiceRouteHTTPMatchHeaderSchema = z.looseObject({
  Name: z.string(),
  Present: maybe(z.boolean()),
  Exact: maybe(z.string()),
  Prefix: maybe(z.string()),
  Suffix: maybe(z.string()),
  Regex: maybe(z.string()),
  Invert: maybe(z.boolean()),
});
export type ServiceRouteHTTPMatchHeader = z.infer<typeof ServiceRouteHTTPMatchHeaderSchema>;

export const ServiceRouteHTTPMatchQueryParamSchema = z.looseObject({
  Name: z.string(),
  Present: maybe(z.boolean()),
  Exact: maybe(z.string()),
  Regex: maybe(z.string()),
});
export type ServiceRouteHTTPMatchQueryParam = z.infer<typeof ServiceRouteHTTPMatchQueryParamSchema>;

export const ServiceRouteHTTPMatchSchema = z.looseObject({
  PathExact: maybe(z.string()),
  PathPrefix: maybe(z.string()),
  PathRegex: maybe(z.string()),
  Header: maybe(z.array(ServiceRouteHTTPMatchHeaderSchema)),
  QueryParam: maybe(z.array(ServiceRouteHTTPMatchQueryParamSchema)),
  Methods: maybe(z.array(z.string())),
});
export type ServiceRouteHTTPMatch = z.infer<typeof ServiceRouteHTTPMatchSchema>;

export const ServiceRouteMatchSchema = z.looseObject({ HTTP: maybe(ServiceRouteHTTPMatchSchema) });
export type ServiceRouteMatch = z.infer<typeof ServiceRouteMatchSchema>;

export const ServiceRouteDestinationSchema = z.looseObject({
  Service: maybe(z.string()),
  ServiceSubset: maybe(z.string()),
  Namespace: maybe(z.string()),
  Partition: maybe(z.string()),
  PrefixRewrite: maybe(z.string()),
  RequestTimeout: maybe(DurationSchema),
  IdleTimeout: maybe(DurationSchema),
  NumRetries: maybe(z.number()),
  RetryOnConnectFailure: maybe(z.boolean()),
  RetryOnStatusCodes: maybe(z.array(z.number())),
  RetryOn: maybe(z.array(z.string())),
});
export type ServiceRouteDestination = z.infer<typeof ServiceRouteDestinationSchema>;

/** One route of a service-router; also the `Definition` of a compiled router node. */
export const ServiceRouteSchema = z.looseObject({
  Match: maybe(ServiceRouteMatchSchema),
  Destination: maybe(ServiceRouteDestinationSchema),
});
export type ServiceRoute = z.infer<typeof ServiceRouteSchema>;

export const ServiceRouterConfigEntrySchema = z.looseObject({
  Kind: z.literal('service-router'),
  ...configEntryBase,
  Routes: maybe(z.array(ServiceRouteSchema)),
});
export type ServiceRouterConfigEntry = z.infer<typeof ServiceRouterConfigEntrySchema>;
