import { z } from 'zod';
import { MeshGatewayConfigSchema, maybe } from './common';
import { configEntryBase } from './config-entry-common';

export const TransparentProxyConfigSchema = z.looseObject({
  OutboundListenerPort: maybe(z.number()),
  DialedDirectly: maybe(z.boolean()),
});
export type TransparentProxyConfig = z.infer<typeof TransparentProxyConfigSchema>;

export const ExposeConfigSchema = z.looseObject({
  Checks: maybe(z.boolean()),
  Paths: maybe(
    z.array(
      z.looseObject({
        ListenerPort: maybe(z.number()),
        Path: maybe(z.string()),
        LocalPathPort: maybe(z.number()),
        Protocol: maybe(z.string()),
      }),
    ),
  ),
});
export type ExposeConfig = z.infer<typeof ExposeConfigSchema>;

export const ServiceDefaultsConfigEntrySchema = z.looseObject({
  Kind: z.literal('service-defaults'),
  ...configEntryBase,
  /** `tcp` (default), `http`, `http2` or `grpc`; decides whether routers and splitters apply. */
  Protocol: maybe(z.string()),
  Mode: maybe(z.string()),
  TransparentProxy: maybe(TransparentProxyConfigSchema),
  MeshGateway: maybe(MeshGatewayConfigSchema),
  Expose: maybe(ExposeConfigSchema),
  ExternalSNI: maybe(z.string()),
  UpstreamConfig: maybe(z.looseObject({})),
  Destination: maybe(z.looseObject({ Addresses: maybe(z.array(z.string())), Port: maybe(z.number()) })),
  MaxInboundConnections: maybe(z.number()),
  LocalConnectTimeoutMs: maybe(z.number()),
  LocalRequestTimeoutMs: maybe(z.number()),
});
export type ServiceDefaultsConfigEntry = z.infer<typeof ServiceDefaultsConfigEntrySchema>;

/** There is one proxy-defaults entry and Consul requires its Name to be `global`. */
export const PROXY_DEFAULTS_NAME = 'global';

export const ProxyDefaultsConfigEntrySchema = z.looseObject({
  Kind: z.literal('proxy-defaults'),
  ...configEntryBase,
  /** Opaque proxy configuration; `protocol` here is the mesh-wide default protocol. */
  Config: maybe(z.record(z.string(), z.unknown())),
  Mode: maybe(z.string()),
  TransparentProxy: maybe(TransparentProxyConfigSchema),
  MeshGateway: maybe(MeshGatewayConfigSchema),
  Expose: maybe(ExposeConfigSchema),
});
export type ProxyDefaultsConfigEntry = z.infer<typeof ProxyDefaultsConfigEntrySchema>;
