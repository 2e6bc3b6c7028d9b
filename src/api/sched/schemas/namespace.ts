import { z } from 'zod';
import { OptNumber, OptString, StringList, StringMap } from './common';

export const NamespaceCapabilitiesSchema = z.looseObject({
  EnabledTaskDrivers: StringList,
  DisabledTaskDrivers: StringList,
  EnabledNetworkModes: StringList,
  DisabledNetworkModes: StringList,
});
export type NamespaceCapabilities = z.infer<typeof NamespaceCapabilitiesSchema>;

export const NamespaceNodePoolConfigurationSchema = z.looseObject({
  Default: OptString,
  Allowed: StringList,
  Denied: StringList,
});
export type NamespaceNodePoolConfiguration = z.infer<typeof NamespaceNodePoolConfigurationSchema>;

/** Which clusters of an integration (secrets, registry) jobs of the namespace may use. */
export const NamespaceClusterConfigurationSchema = z.looseObject({
  Default: OptString,
  Allowed: StringList,
  Denied: StringList,
});

/** Nomad's `VaultConfiguration` / `ConsulConfiguration` use the neutral names here. */
export const NamespaceSchema = z.looseObject({
  Name: z.string(),
  Description: OptString,
  Quota: OptString,
  Capabilities: NamespaceCapabilitiesSchema.nullish(),
  NodePoolConfiguration: NamespaceNodePoolConfigurationSchema.nullish(),
  SecretsConfiguration: NamespaceClusterConfigurationSchema.nullish(),
  RegistryConfiguration: NamespaceClusterConfigurationSchema.nullish(),
  Meta: StringMap,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type Namespace = z.infer<typeof NamespaceSchema>;
