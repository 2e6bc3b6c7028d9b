import { z } from 'zod';
import { OptBool, OptNumber, OptString, StringList, list, map } from './common';
import { AffinitySchema, ConstraintSchema } from './constraints';

export const PortSchema = z.looseObject({
  Label: OptString,
  Value: OptNumber,
  To: OptNumber,
  HostNetwork: OptString,
});
export type Port = z.infer<typeof PortSchema>;

export const DNSConfigSchema = z.looseObject({
  Servers: StringList,
  Searches: StringList,
  Options: StringList,
});
export type DNSConfig = z.infer<typeof DNSConfigSchema>;

/** Mode: `host` or `bridge` in Nomad, `cni/<name>` for CNI networks; open string. */
export const NetworkSchema = z.looseObject({
  Mode: OptString,
  Device: OptString,
  CIDR: OptString,
  IP: OptString,
  Hostname: OptString,
  MBits: z.number().nullish(),
  DNS: DNSConfigSchema.nullish(),
  ReservedPorts: list(PortSchema),
  DynamicPorts: list(PortSchema),
});
export type Network = z.infer<typeof NetworkSchema>;

export const RequestedDeviceSchema = z.looseObject({
  Name: OptString,
  Count: z.number().nullish(),
  Constraints: list(ConstraintSchema),
  Affinities: list(AffinitySchema),
});
export type RequestedDevice = z.infer<typeof RequestedDeviceSchema>;

/** Task resources as requested in a job (and the legacy allocation `Resources`). */
export const ResourcesSchema = z.looseObject({
  CPU: z.number().nullish(),
  Cores: z.number().nullish(),
  MemoryMB: z.number().nullish(),
  MemoryMaxMB: z.number().nullish(),
  DiskMB: z.number().nullish(),
  IOPS: z.number().nullish(),
  Networks: list(NetworkSchema),
  Devices: list(RequestedDeviceSchema),
});
export type Resources = z.infer<typeof ResourcesSchema>;

/* Allocated resources (the scheduler's view of what an allocation holds). */

export const AllocatedCpuResourcesSchema = z.looseObject({
  CpuShares: OptNumber,
  ReservedCores: z.array(z.number()).nullish(),
});
export const AllocatedMemoryResourcesSchema = z.looseObject({
  MemoryMB: OptNumber,
  MemoryMaxMB: OptNumber,
});
export const AllocatedDeviceResourceSchema = z.looseObject({
  Vendor: OptString,
  Type: OptString,
  Name: OptString,
  DeviceIDs: StringList,
});

export const AllocatedTaskResourcesSchema = z.looseObject({
  Cpu: AllocatedCpuResourcesSchema.nullish(),
  Memory: AllocatedMemoryResourcesSchema.nullish(),
  Networks: list(NetworkSchema),
  Devices: list(AllocatedDeviceResourceSchema),
});
export type AllocatedTaskResources = z.infer<typeof AllocatedTaskResourcesSchema>;

export const PortMappingSchema = z.looseObject({
  Label: OptString,
  Value: OptNumber,
  To: OptNumber,
  HostIP: OptString,
});

export const AllocatedSharedResourcesSchema = z.looseObject({
  DiskMB: OptNumber,
  Networks: list(NetworkSchema),
  Ports: list(PortMappingSchema),
});

export const AllocatedResourcesSchema = z.looseObject({
  Tasks: map(AllocatedTaskResourcesSchema),
  TaskLifecycles: map(z.looseObject({ Hook: OptString, Sidecar: OptBool }).nullable()),
  Shared: AllocatedSharedResourcesSchema.nullish(),
});
export type AllocatedResources = z.infer<typeof AllocatedResourcesSchema>;
