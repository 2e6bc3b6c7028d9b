import { z } from 'zod';
import { FreeMap, OptBool, OptNumber, OptString, Rfc3339, StringMap, list, map } from './common';
import { NetworkSchema, ResourcesSchema } from './resources';

export const NodeEventSchema = z.looseObject({
  Message: OptString,
  Subsystem: OptString,
  Details: StringMap,
  Timestamp: Rfc3339,
  CreateIndex: OptNumber,
});
export type NodeEvent = z.infer<typeof NodeEventSchema>;

export const DriverInfoSchema = z.looseObject({
  Attributes: StringMap,
  Detected: OptBool,
  Healthy: OptBool,
  HealthDescription: OptString,
  UpdateTime: Rfc3339,
});
export type DriverInfo = z.infer<typeof DriverInfoSchema>;

export const NodeResourcesSchema = z.looseObject({
  Cpu: z
    .looseObject({
      CpuShares: OptNumber,
      TotalCpuCores: OptNumber,
      ReservableCpuCores: z.array(z.number()).nullish(),
    })
    .nullish(),
  Memory: z.looseObject({ MemoryMB: OptNumber }).nullish(),
  Disk: z.looseObject({ DiskMB: OptNumber }).nullish(),
  Networks: list(NetworkSchema),
  NodeNetworks: list(FreeMap),
  Devices: list(FreeMap),
  MinDynamicPort: OptNumber,
  MaxDynamicPort: OptNumber,
});
export type NodeResources = z.infer<typeof NodeResourcesSchema>;

export const NodeReservedResourcesSchema = z.looseObject({
  Cpu: z.looseObject({ CpuShares: OptNumber }).nullish(),
  Memory: z.looseObject({ MemoryMB: OptNumber }).nullish(),
  Disk: z.looseObject({ DiskMB: OptNumber }).nullish(),
  Networks: z.looseObject({ ReservedHostPorts: OptString }).nullish(),
});

export const DrainStrategySchema = z.looseObject({
  Deadline: OptNumber,
  IgnoreSystemJobs: OptBool,
  ForceDeadline: Rfc3339,
  StartedAt: Rfc3339,
});

/**
 * Status: seen `initializing` (Nomad also has `ready`, `down`, `disconnected`).
 * SchedulingEligibility: seen `eligible` (Nomad also has `ineligible`). Open strings.
 */
export const NodeSchema = z.looseObject({
  ID: z.string(),
  Datacenter: OptString,
  Name: OptString,
  HTTPAddr: OptString,
  TLSEnabled: OptBool,
  Attributes: StringMap,
  NodeResources: NodeResourcesSchema.nullish(),
  ReservedResources: NodeReservedResourcesSchema.nullish(),
  Resources: ResourcesSchema.nullish(),
  Reserved: ResourcesSchema.nullish(),
  Links: StringMap,
  Meta: StringMap,
  NodeClass: OptString,
  NodePool: OptString,
  ComputedClass: OptString,
  Drain: OptBool,
  DrainStrategy: DrainStrategySchema.nullish(),
  SchedulingEligibility: OptString,
  Status: OptString,
  StatusDescription: OptString,
  StatusUpdatedAt: OptNumber,
  Events: list(NodeEventSchema),
  Drivers: map(DriverInfoSchema),
  CSIControllerPlugins: FreeMap,
  CSINodePlugins: FreeMap,
  HostVolumes: map(z.looseObject({ Name: OptString, Path: OptString, ReadOnly: OptBool })),
  HostNetworks: FreeMap,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type Node = z.infer<typeof NodeSchema>;

/** Element of the node list: carries `Address` where the full node carries `HTTPAddr`. */
export const NodeStubSchema = z.looseObject({
  ID: z.string(),
  Address: OptString,
  Datacenter: OptString,
  Name: OptString,
  NodeClass: OptString,
  NodePool: OptString,
  Version: OptString,
  Drain: OptBool,
  SchedulingEligibility: OptString,
  Status: OptString,
  StatusDescription: OptString,
  Attributes: StringMap,
  Drivers: map(DriverInfoSchema),
  HostVolumes: FreeMap,
  NodeResources: NodeResourcesSchema.nullish(),
  ReservedResources: NodeReservedResourcesSchema.nullish(),
  LastDrain: FreeMap,
  CreateIndex: OptNumber,
  ModifyIndex: OptNumber,
});
export type NodeStub = z.infer<typeof NodeStubSchema>;
