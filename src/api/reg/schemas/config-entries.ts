import { z } from 'zod';
import { ProxyDefaultsConfigEntrySchema, ServiceDefaultsConfigEntrySchema } from './config-entry-defaults';
import { ServiceResolverConfigEntrySchema } from './config-entry-resolver';
import { ServiceRouterConfigEntrySchema } from './config-entry-router';
import { ServiceSplitterConfigEntrySchema } from './config-entry-splitter';

export const ConfigEntrySchema = z.discriminatedUnion('Kind', [
  ServiceDefaultsConfigEntrySchema,
  ProxyDefaultsConfigEntrySchema,
  ServiceResolverConfigEntrySchema,
  ServiceSplitterConfigEntrySchema,
  ServiceRouterConfigEntrySchema,
]);
export type ConfigEntry = z.infer<typeof ConfigEntrySchema>;
export type ConfigEntryKind = ConfigEntry['Kind'];
export type ConfigEntryOf<K extends ConfigEntryKind> = Extract<ConfigEntry, { Kind: K }>;

export const CONFIG_ENTRY_KINDS = [
  'service-defaults',
  'proxy-defaults',
  'service-resolver',
  'service-splitter',
  'service-router',
] as const satisfies readonly ConfigEntryKind[];

export const configEntrySchemas: { [K in ConfigEntryKind]: z.ZodType<ConfigEntryOf<K>> } = {
  'service-defaults': ServiceDefaultsConfigEntrySchema,
  'proxy-defaults': ProxyDefaultsConfigEntrySchema,
  'service-resolver': ServiceResolverConfigEntrySchema,
  'service-splitter': ServiceSplitterConfigEntrySchema,
  'service-router': ServiceRouterConfigEntrySchema,
};

export function isConfigEntryKind(kind: string): kind is ConfigEntryKind {
  return (CONFIG_ENTRY_KINDS as readonly string[]).includes(kind);
}
