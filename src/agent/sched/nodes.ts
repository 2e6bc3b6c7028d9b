/**
 * The simulated client nodes of the dev agent. They report the drivers a real dev agent reports, all
 * backed by the mock driver, so jobs written for docker or exec also run here.
 */
import { createHash } from 'node:crypto';
import type { NodeRecord } from './model';
import { rfc3339 } from '../clock';

export interface NodeSpec {
  count: number;
  cpu: number;
  memoryMB: number;
  diskMB: number;
  datacenter: string;
  region: string;
  nodePool: string;
}

export const SIMULATED_DRIVERS = ['mock', 'docker', 'exec', 'raw_exec', 'java', 'qemu'] as const;

/** Stable IDs across restarts of the same agent, derived from the node's name. */
function nodeId(name: string): string {
  const h = createHash('sha256').update(`cdktf-sched-node:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function makeNode(spec: NodeSpec, i: number, nowMs: number): NodeRecord {
  const name = `dev-node-${i + 1}`;
  const id = nodeId(name);
  const drivers: NodeRecord['Drivers'] = {};
  const attributes: Record<string, string> = {
    'kernel.name': 'linux',
    'kernel.arch': 'x86_64',
    'cpu.arch': 'amd64',
    'cpu.numcores': String(Math.max(1, Math.round(spec.cpu / 1000))),
    'cpu.totalcompute': String(spec.cpu),
    'memory.totalbytes': String(spec.memoryMB * 1024 * 1024),
    'os.name': 'debian',
    'os.version': '12',
    'unique.hostname': name,
    'unique.network.ip-address': `127.0.0.${i + 1}`,
    'nomad.version': '1.9.0',
    'sched.version': '0.1.0',
  };
  for (const d of SIMULATED_DRIVERS) {
    attributes[`driver.${d}`] = '1';
    drivers[d] = {
      Attributes: { [`driver.${d}`]: 'true' },
      Detected: true,
      Healthy: true,
      HealthDescription: 'Healthy',
      UpdateTime: rfc3339(nowMs),
    };
  }
  return {
    ID: id,
    Datacenter: spec.datacenter,
    Name: name,
    HTTPAddr: `127.0.0.${i + 1}:4646`,
    TLSEnabled: false,
    Attributes: attributes,
    NodeResources: {
      Cpu: { CpuShares: spec.cpu, TotalCpuCores: Math.max(1, Math.round(spec.cpu / 1000)) },
      Memory: { MemoryMB: spec.memoryMB },
      Disk: { DiskMB: spec.diskMB },
      Networks: [
        { Mode: 'host', Device: 'lo', CIDR: `127.0.0.${i + 1}/32`, IP: `127.0.0.${i + 1}`, MBits: 1000 },
      ],
      NodeNetworks: [],
      Devices: [],
      MinDynamicPort: 20000,
      MaxDynamicPort: 32000,
    },
    ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 } },
    Resources: { CPU: spec.cpu, MemoryMB: spec.memoryMB, DiskMB: spec.diskMB, Networks: [] },
    Reserved: { CPU: 0, MemoryMB: 0, DiskMB: 0, Networks: [] },
    Links: {},
    Meta: { 'connect.sidecar_image': 'envoyproxy/envoy:v1.29', rack: `r${(i % 2) + 1}` },
    NodeClass: '',
    NodePool: spec.nodePool,
    ComputedClass: `v1:${createHash('sha1')
      .update(spec.datacenter + spec.cpu + spec.memoryMB)
      .digest('hex')
      .slice(0, 19)}`,
    Drain: false,
    DrainStrategy: null,
    SchedulingEligibility: 'eligible',
    Status: 'ready',
    StatusDescription: '',
    StatusUpdatedAt: Math.floor(nowMs / 1000),
    Events: [
      {
        Message: 'Node registered',
        Subsystem: 'Cluster',
        Details: null,
        Timestamp: rfc3339(nowMs),
        CreateIndex: 0,
      },
    ],
    Drivers: drivers,
    CSIControllerPlugins: null,
    CSINodePlugins: null,
    HostVolumes: null,
    CreateIndex: 0,
    ModifyIndex: 0,
  };
}

export function nodeStub(n: NodeRecord): Record<string, unknown> {
  return {
    Address: n.HTTPAddr.split(':')[0],
    ID: n.ID,
    Attributes: n.Attributes,
    Datacenter: n.Datacenter,
    Name: n.Name,
    NodeClass: n.NodeClass,
    NodePool: n.NodePool,
    Version: n.Attributes['nomad.version'],
    Drain: n.Drain,
    SchedulingEligibility: n.SchedulingEligibility,
    Status: n.Status,
    StatusDescription: n.StatusDescription,
    Drivers: n.Drivers,
    NodeResources: n.NodeResources,
    ReservedResources: n.ReservedResources,
    LastDrain: null,
    CreateIndex: n.CreateIndex,
    ModifyIndex: n.ModifyIndex,
  };
}
