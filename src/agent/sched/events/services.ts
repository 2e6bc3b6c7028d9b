/**
 * Service registrations of the scheduler's built-in service discovery (provider `sched`, Nomad's
 * `nomad`): a running allocation registers the services of its group and tasks; leaving `running`
 * deregisters them. Services of the registry provider belong to the registry and raise no event here.
 */
import type { AllocRecord, NodeRecord } from '../model';
import { findGroup } from '../scheduler/resources';
import type { SchedEvent } from './types';

const BUILT_IN = new Set(['sched', 'nomad']);

interface ServiceDef {
  Name?: string | null;
  PortLabel?: string | null;
  Tags?: string[] | null;
  Provider?: string | null;
}

interface PortDef {
  Label?: string | null;
  Value?: number | null;
}

function portOf(a: AllocRecord, label: string): number {
  const group = findGroup(a.Job, a.TaskGroup);
  for (const net of (group?.Networks ?? []) as {
    ReservedPorts?: PortDef[] | null;
    DynamicPorts?: PortDef[] | null;
  }[]) {
    for (const p of [...(net.ReservedPorts ?? []), ...(net.DynamicPorts ?? [])]) {
      if (p.Label === label && p.Value) return p.Value;
    }
  }
  return 0;
}

export function serviceRegistrations(
  a: AllocRecord,
  node: NodeRecord | undefined,
): Record<string, unknown>[] {
  const group = findGroup(a.Job, a.TaskGroup);
  if (!group) return [];
  const defs: { owner: string; svc: ServiceDef }[] = [];
  for (const svc of (group.Services ?? []) as ServiceDef[]) defs.push({ owner: `group-${a.TaskGroup}`, svc });
  for (const task of group.Tasks ?? []) {
    for (const svc of (task.Services ?? []) as ServiceDef[]) defs.push({ owner: task.Name ?? '', svc });
  }
  return defs
    .filter(({ svc }) => BUILT_IN.has(svc.Provider ?? ''))
    .map(({ owner, svc }) => ({
      ID: `_nomad-task-${a.ID}-${owner}-${svc.Name ?? ''}-${svc.PortLabel ?? ''}`,
      ServiceName: svc.Name ?? '',
      Namespace: a.Namespace,
      NodeID: a.NodeID,
      Datacenter: node?.Datacenter ?? '',
      JobID: a.JobID,
      AllocID: a.ID,
      Tags: svc.Tags ?? null,
      Address: node ? node.HTTPAddr.split(':')[0] : '',
      Port: svc.PortLabel ? portOf(a, svc.PortLabel) : 0,
      CreateIndex: a.ModifyIndex,
      ModifyIndex: a.ModifyIndex,
    }));
}

export function serviceEvents(
  prev: AllocRecord | undefined,
  a: AllocRecord,
  node: NodeRecord | undefined,
): Omit<SchedEvent, 'Index'>[] {
  const was = prev?.ClientStatus === 'running' && prev.DesiredStatus === 'run';
  const is = a.ClientStatus === 'running' && a.DesiredStatus === 'run';
  if (was === is) return [];
  const source = is ? a : prev!;
  return serviceRegistrations(source, node).map((s) => ({
    Topic: 'Service',
    Type: is ? 'ServiceRegistration' : 'ServiceDeregistration',
    Key: s['ID'] as string,
    Namespace: a.Namespace,
    FilterKeys: [a.JobID, s['ServiceName'] as string],
    Payload: { Service: s },
  }));
}
