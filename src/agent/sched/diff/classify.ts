import type { Job } from './types';
import { asList, asObj, asObjList, isObj, semanticEqual, str, type Obj } from './json';

/*
 * Whether an existing allocation of a group can take a new job version in place, following Nomad's
 * scheduler tasksUpdated: a change to anything the running tasks were started with (driver, config,
 * env, resources, ports, artifacts, templates, volumes, interpolated meta, ...) needs new
 * allocations; anything else (count, update strategy, services, constraints, restart policy, kill
 * timeout, ...) is applied to the running allocations.
 */

export type GroupUpdateKind = 'none' | 'in-place' | 'destructive';

/**
 * Fields that change with every registration or tagging without the spec changing (Nomad's
 * Job.SpecChanged sets them aside too).
 */
const NON_SPEC_FIELDS = [
  'Status',
  'StatusDescription',
  'Stable',
  'Version',
  'VersionTag',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'SubmitTime',
  'SchedTokenID',
  'NomadTokenID',
];

function specOf(job: Obj): Obj {
  const copy: Obj = { ...job };
  for (const f of NON_SPEC_FIELDS) delete copy[f];
  return copy;
}

/** Whether a registration changes the job's spec (otherwise Nomad keeps the version and indexes). */
export function jobSpecChanged(oldJob: Job | null, newJob: Job | null): boolean {
  if (oldJob === null || newJob === null) return oldJob !== newJob;
  return !semanticEqual(specOf(oldJob), specOf(newJob));
}

/**
 * What happens to the existing allocations of `group` when `oldJob` is replaced by `newJob`:
 * 'destructive' when they must be replaced, 'in-place' when the job changed but they can keep running,
 * 'none' when the spec did not change at all. A group present on one side only is destructive (its
 * allocations are all created or all stopped).
 */
export function classifyGroupUpdate(oldJob: Job, newJob: Job, group: string): GroupUpdateKind {
  if (destructiveUpdateReason(oldJob, newJob, group) !== null) return 'destructive';
  return jobSpecChanged(oldJob, newJob) ? 'in-place' : 'none';
}

function lookupGroup(job: Obj, name: string): Obj | null {
  return asObjList(job.TaskGroups).find((g) => str(g.Name) === name) ?? null;
}

function lookupTask(group: Obj, name: string): Obj | null {
  return asObjList(group.Tasks).find((t) => str(t.Name) === name) ?? null;
}

/** Task meta over group meta over job meta: the map a task sees interpolated. */
function combinedTaskMeta(job: Obj, group: Obj, task: Obj): Record<string, unknown> {
  return { ...(asObj(job.Meta) ?? {}), ...(asObj(group.Meta) ?? {}), ...(asObj(task.Meta) ?? {}) };
}

type Check = () => string | null;

function first(checks: Check[]): string | null {
  for (const c of checks) {
    const reason = c();
    if (reason !== null) return reason;
  }
  return null;
}

function differs(label: string, a: unknown, b: unknown): Check {
  return () => (semanticEqual(a, b) ? null : label);
}

/**
 * The first change that forces the allocations of `group` to be replaced, as a short label (for
 * logs and tests), or null when none does.
 */
export function destructiveUpdateReason(oldJob: Job, newJob: Job, group: string): string | null {
  const a = lookupGroup(oldJob, group);
  const b = lookupGroup(newJob, group);
  if (a === null && b === null) return null;
  if (a === null) return 'group added';
  if (b === null) return 'group removed';

  const tasksA = asObjList(a.Tasks);
  return first([
    differs('number of tasks', tasksA.length, asObjList(b.Tasks).length),
    differs('ephemeral disk', a.EphemeralDisk, b.EphemeralDisk),
    () => networkUpdated(a.Networks, b.Networks),
    () => (setEqual(combinedAffinities(oldJob, a), combinedAffinities(newJob, b)) ? null : 'affinities'),
    differs(
      'spreads',
      [...asList(oldJob.Spreads), ...asList(a.Spreads)],
      [...asList(newJob.Spreads), ...asList(b.Spreads)],
    ),
    () => registryUpdated(a, b),
    () => connectServiceUpdated(a.Services, b.Services),
    differs('volume request', a.Volumes, b.Volumes),
    () => renderTemplatesUpdated(a.RestartPolicy, b.RestartPolicy, 'group restart render_templates'),
    ...tasksA.map((at) => () => taskUpdated(oldJob, newJob, a, b, at)),
  ]);
}

function taskUpdated(jobA: Obj, jobB: Obj, groupA: Obj, groupB: Obj, at: Obj): string | null {
  const bt = lookupTask(groupB, str(at.Name));
  if (bt === null) return 'task deleted';
  const ra = asObj(at.Resources) ?? {};
  const rb = asObj(bt.Resources) ?? {};
  return first([
    differs('task driver', at.Driver, bt.Driver),
    differs('task user', at.User, bt.User),
    differs('task config', at.Config, bt.Config),
    differs('task env', at.Env, bt.Env),
    differs('task artifacts', at.Artifacts, bt.Artifacts),
    differs('task secrets', at.Secrets, bt.Secrets),
    differs('task vault', at.Vault, bt.Vault),
    () => registryUpdated(at, bt),
    differs('task templates', at.Templates, bt.Templates),
    differs('task csi config', at.CSIPluginConfig, bt.CSIPluginConfig),
    differs('task volume mount', at.VolumeMounts, bt.VolumeMounts),
    differs('task meta', combinedTaskMeta(jobA, groupA, at), combinedTaskMeta(jobB, groupB, bt)),
    () => networkUpdated(ra.Networks, rb.Networks),
    differs('task cpu', ra.CPU, rb.CPU),
    differs('task cores', ra.Cores, rb.Cores),
    differs('task memory', ra.MemoryMB, rb.MemoryMB),
    differs('task memory max', ra.MemoryMaxMB, rb.MemoryMaxMB),
    // Nomad sizes disk through the group's ephemeral disk; a task-level DiskMB is honoured the same way.
    differs('task disk', ra.DiskMB, rb.DiskMB),
    differs('task devices', ra.Devices, rb.Devices),
    differs('numa', ra.NUMA, rb.NUMA),
    differs('task secrets size', ra.SecretsMB, rb.SecretsMB),
    differs('task identity', at.Identity, bt.Identity),
    differs('task identities', at.Identities, bt.Identities),
    // Turning log collection on or off changes the task's stdout/stderr, so it needs a restart.
    differs('task log disabled', asObj(at.LogConfig)?.Disabled, asObj(bt.LogConfig)?.Disabled),
    () => renderTemplatesUpdated(at.RestartPolicy, bt.RestartPolicy, 'task restart render_templates'),
    // A task cannot move between lifecycle phases of a running allocation.
    differs('task lifecycle', at.Lifecycle, bt.Lifecycle),
  ]);
}

/** Ports compared by label, static value, mapping and host network; dynamic values are ignored. */
function portMap(net: Obj): unknown[] {
  const ports: unknown[] = [];
  for (const p of asObjList(net.ReservedPorts))
    ports.push([str(p.Label), p.Value ?? 0, p.To ?? 0, str(p.HostNetwork)]);
  for (const p of asObjList(net.DynamicPorts)) ports.push([str(p.Label), -1, p.To ?? 0, str(p.HostNetwork)]);
  return ports;
}

function networkUpdated(netsA: unknown, netsB: unknown): string | null {
  const a = asObjList(netsA);
  const b = asObjList(netsB);
  if (a.length !== b.length) return 'network lengths';
  for (let i = 0; i < a.length; i++) {
    const na = a[i]!;
    const nb = b[i]!;
    const reason = first([
      differs('network mode', na.Mode, nb.Mode),
      differs('network mbits', na.MBits, nb.MBits),
      differs('network hostname', na.Hostname, nb.Hostname),
      differs('network dns', na.DNS, nb.DNS),
      differs('network cni', na.CNI, nb.CNI),
      differs('network port map', portMap(na), portMap(nb)),
    ]);
    if (reason !== null) return reason;
  }
  return null;
}

function combinedAffinities(job: Obj, group: Obj): unknown[] {
  return [
    ...asList(job.Affinities),
    ...asList(group.Affinities),
    ...asObjList(group.Tasks).flatMap((t) => asList(t.Affinities)),
  ];
}

function setEqual(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => semanticEqual(x, y)));
}

/** The registry namespace, cluster or partition moves the workload between service meshes. */
function registryUpdated(a: Obj, b: Obj): string | null {
  const ra = asObj(a.Registry) ?? asObj(a.Consul);
  const rb = asObj(b.Registry) ?? asObj(b.Consul);
  if (str(ra?.Namespace) !== str(rb?.Namespace)) return 'registry namespace';
  if (ra !== null && rb !== null) {
    if (str(ra.Cluster) !== str(rb.Cluster)) return 'registry cluster';
    if (str(ra.Partition) !== str(rb.Partition)) return 'registry partition';
  }
  return null;
}

/**
 * Ordinary service changes are applied by re-registering; service mesh (Connect) plumbing is built
 * into the allocation, so most changes to it need new allocations.
 */
function connectServiceUpdated(servicesA: unknown, servicesB: unknown): string | null {
  const bs = asObjList(servicesB);
  for (const sa of asObjList(servicesA)) {
    if (!isObj(sa.Connect)) continue;
    const sb = bs.find((s) => str(s.Name) === str(sa.Name));
    if (sb === undefined) continue;
    const reason = first([
      () => connectUpdated(asObj(sa.Connect), asObj(sb.Connect)),
      differs('connect service port label', sa.PortLabel, sb.PortLabel),
      differs('connect service cluster', sa.Cluster, sb.Cluster),
    ]);
    if (reason !== null) return reason;
  }
  return null;
}

function connectUpdated(a: Obj | null, b: Obj | null): string | null {
  if (a === null && b === null) return null;
  if (a === null) return 'connect added';
  if (b === null) return 'connect removed';
  return first([
    differs('connect native', a.Native, b.Native),
    differs('connect gateway', a.Gateway, b.Gateway),
    differs('connect sidecar task', a.SidecarTask, b.SidecarTask),
    () => {
      const sa = asObj(a.SidecarService);
      const sb = asObj(b.SidecarService);
      if (sa === null && sb === null) return null;
      if (sa === null) return 'connect service add';
      if (sb === null) return 'connect service delete';
      // Tags and proxy settings are pushed through the registry; only the port is fixed at placement.
      return semanticEqual(sa.Port, sb.Port) ? null : 'connect port';
    },
  ]);
}

function renderTemplatesUpdated(a: unknown, b: unknown, label: string): string | null {
  const ra = asObj(a)?.RenderTemplates === true;
  const rb = asObj(b)?.RenderTemplates === true;
  return ra === rb ? null : label;
}
