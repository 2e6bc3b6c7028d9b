/**
 * Decides, per task group, what must change for the cluster to match the job: placements (new,
 * canary, destructive replacement, reschedule), stops, in-place updates and the deployment that tracks
 * a rolling update. Pure: it reads a snapshot and returns the decisions; the evaluator places and
 * commits them, and the plan endpoint only reports them.
 */
import { classifyGroupUpdate } from '../diff';
import type { AllocRecord, DeploymentGroupState, DeploymentRecord, Job } from '../model';
import { isClientTerminal } from '../state';
import { reschedulePolicy, rescheduleDelay } from './policies';
import type { Group } from './resources';

export interface GroupUpdates {
  Ignore: number;
  Place: number;
  Migrate: number;
  Stop: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
  Canary: number;
  Preemptions: number;
}

export interface Placement {
  group: string;
  name: string;
  canary: boolean;
  /** The allocation this one replaces (destructive update or reschedule). */
  previous?: AllocRecord;
  reschedule?: boolean;
  /** Sysbatch/system placements are pinned to one node. */
  nodeId?: string;
}

export interface Stop {
  alloc: AllocRecord;
  description: string;
}

export interface Followup {
  /** When the delayed reschedule may happen (ms since epoch). */
  atMs: number;
  allocIds: string[];
}

export interface Reconciled {
  place: Placement[];
  stop: Stop[];
  inplace: AllocRecord[];
  updates: Record<string, GroupUpdates>;
  /** A new deployment to create (its TaskGroups already count this plan's placements as planned). */
  newDeployment?: DeploymentRecord;
  /** The current deployment (this job version), if one exists and is active. */
  deployment?: DeploymentRecord;
  cancelDeployment?: { deployment: DeploymentRecord; description: string };
  followups: Followup[];
}

export interface ReconcileInput {
  job: Job | undefined;
  namespace: string;
  jobId: string;
  allocs: AllocRecord[];
  latestDeployment: DeploymentRecord | undefined;
  nowMs: number;
  forceReschedule?: boolean;
  /** IDs of eligible ready nodes, for system and sysbatch jobs. */
  systemNodes?: string[];
  newDeploymentId: () => string;
  /** Multiplies every job duration the agent waits on (reschedule delays, progress deadlines). */
  timeScale?: number;
  /** Deployments of this job that failed: their failed allocations are not rescheduled (as Nomad does). */
  failedDeployments?: ReadonlySet<string>;
}

export const DESC = {
  notNeeded: 'alloc not needed due to job update',
  updating: 'alloc is being updated due to job update',
  rescheduled: 'alloc was rescheduled because it failed',
  jobStopped: 'alloc not needed due to job update',
  groupRemoved: 'alloc not needed due to job update',
};

const ACTIVE_DEPLOYMENT = new Set(['running', 'paused', 'pending', 'blocked', 'unblocking']);

export function emptyUpdates(): GroupUpdates {
  return {
    Ignore: 0,
    Place: 0,
    Migrate: 0,
    Stop: 0,
    InPlaceUpdate: 0,
    DestructiveUpdate: 0,
    Canary: 0,
    Preemptions: 0,
  };
}

function nameIndex(name: string): number {
  const m = /\[(\d+)\]$/.exec(name);
  return m ? Number(m[1]) : 0;
}

export function allocName(jobId: string, group: string, index: number): string {
  return `${jobId}.${group}[${index}]`;
}

function isCurrent(a: AllocRecord, job: Job): boolean {
  return a.Job.Version === job.Version && a.Job.JobModifyIndex === job.JobModifyIndex;
}

export function reconcile(input: ReconcileInput): Reconciled {
  const { job } = input;
  const out: Reconciled = { place: [], stop: [], inplace: [], updates: {}, followups: [] };
  // Periodic and parameterized parents never run themselves; their children do.
  const parent =
    !!job &&
    ((!!job.ParameterizedJob && !job.Dispatched) || (!!job.Periodic && job.Periodic.Enabled !== false));
  const stopped = !job || job.Stop === true || parent;
  // Allocations of an earlier registration of the same ID (before a purge) are not ours to manage.
  const allocs = job
    ? input.allocs.filter((a) => a.Job.CreateIndex === job.CreateIndex || !isClientTerminal(a))
    : input.allocs;

  const latest = input.latestDeployment;
  let deployment: DeploymentRecord | undefined;
  if (latest && ACTIVE_DEPLOYMENT.has(latest.Status)) {
    if (stopped)
      out.cancelDeployment = { deployment: latest, description: 'Cancelled because job is stopped' };
    else if (job && (latest.JobVersion !== job.Version || latest.JobCreateIndex !== job.CreateIndex)) {
      out.cancelDeployment = { deployment: latest, description: 'Cancelled due to newer version of job' };
    } else deployment = latest;
  }
  const versionDeployment =
    job && latest && latest.JobVersion === job.Version && latest.JobCreateIndex === job.CreateIndex
      ? latest
      : undefined;
  out.deployment = deployment;

  const groups = new Map<string, Group>();
  for (const g of job?.TaskGroups ?? []) if (g.Name) groups.set(g.Name, g);

  // Groups that no longer exist, or a stopped job: stop what runs.
  for (const a of allocs) {
    if (a.DesiredStatus !== 'run' || isClientTerminal(a)) continue;
    if (stopped || !groups.has(a.TaskGroup)) {
      out.stop.push({ alloc: a, description: stopped ? DESC.jobStopped : DESC.groupRemoved });
      (out.updates[a.TaskGroup] ??= emptyUpdates()).Stop++;
    }
  }
  if (stopped || !job) return out;

  const depGroups: Record<string, DeploymentGroupState> = {};
  let deploymentWork = false;

  for (const [name, group] of groups) {
    const upd = (out.updates[name] ??= emptyUpdates());
    const mine = allocs.filter((a) => a.TaskGroup === name);
    const result =
      job.Type === 'system' || job.Type === 'sysbatch'
        ? reconcileSystemGroup(input, job, group, mine, upd, out)
        : reconcileGroup(input, job, group, mine, upd, out, deployment, versionDeployment);
    if (result) {
      depGroups[name] = result.state;
      deploymentWork ||= result.work;
    }
  }

  if (!deployment && !versionDeployment && deploymentWork && job.Type === 'service') {
    const nowNs = input.nowMs * 1e6;
    out.newDeployment = {
      ID: input.newDeploymentId(),
      Namespace: input.namespace,
      JobID: job.ID!,
      JobVersion: job.Version ?? 0,
      JobModifyIndex: job.JobModifyIndex ?? 0,
      JobSpecModifyIndex: job.JobModifyIndex ?? 0,
      JobCreateIndex: job.CreateIndex ?? 0,
      IsMultiregion: false,
      TaskGroups: depGroups,
      Status: 'running',
      StatusDescription: Object.values(depGroups).some((g) => g.DesiredCanaries > 0 && !g.AutoPromote)
        ? 'Deployment is running but requires manual promotion'
        : 'Deployment is running',
      EvalPriority: job.Priority ?? 50,
      CreateIndex: 0,
      ModifyIndex: 0,
      CreateTime: nowNs,
      ModifyTime: nowNs,
    };
  }
  return out;
}

function reconcileGroup(
  input: ReconcileInput,
  job: Job,
  group: Group,
  mine: AllocRecord[],
  upd: GroupUpdates,
  out: Reconciled,
  deployment: DeploymentRecord | undefined,
  versionDeployment: DeploymentRecord | undefined,
): { state: DeploymentGroupState; work: boolean } | undefined {
  const name = group.Name!;
  const desired = group.Count ?? 1;
  const update = group.Update ?? job.Update ?? undefined;
  const rolling = job.Type === 'service' && !!update && (update.MaxParallel ?? 0) > 0;
  const depState = deployment?.TaskGroups[name];
  const depFailed = versionDeployment !== undefined && versionDeployment.Status === 'failed';

  const live = mine.filter((a) => a.DesiredStatus === 'run' && !isClientTerminal(a));
  const complete = mine.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'complete');
  const failed = mine.filter(
    (a) =>
      a.DesiredStatus === 'run' &&
      (a.ClientStatus === 'failed' || a.ClientStatus === 'lost') &&
      !a.NextAllocation,
  );

  const current: AllocRecord[] = [];
  const old: AllocRecord[] = [];
  // Allocations of an older version that can take the new one in place; counted once stops are known.
  const inplace = new Set<AllocRecord>();
  for (const a of live) {
    if (isCurrent(a, job)) {
      current.push(a);
      continue;
    }
    const kind = classifyGroupUpdate(a.Job, job, name);
    if (kind === 'destructive') old.push(a);
    else {
      inplace.add(a);
      current.push(a);
    }
  }

  const canaryCount = update?.Canary ?? 0;
  const promoted = depState?.Promoted ?? false;
  const existingCanaries = current.filter(
    (a) => deployment && a.DeploymentID === deployment.ID && a.DeploymentStatus?.Canary,
  );
  const canaryPhase = rolling && canaryCount > 0 && old.length > 0 && !promoted && !depFailed;
  const usedNames = new Set(live.map((a) => a.Name));
  let placedForDeployment = 0;
  const placedCanaries: string[] = [...(depState?.PlacedCanaries ?? [])];

  if (canaryPhase) {
    const need = Math.max(0, canaryCount - existingCanaries.length);
    // Canaries take the names of the allocations they would replace, as Nomad names them.
    const names = old.map((a) => a.Name).sort((x, y) => nameIndex(x) - nameIndex(y));
    for (let i = 0; i < need; i++) {
      const n =
        names[(existingCanaries.length + i) % Math.max(1, names.length)] ?? allocName(job.ID!, name, i);
      out.place.push({ group: name, name: n, canary: true });
      upd.Canary++;
      placedForDeployment++;
    }
    upd.Ignore += old.length;
  }

  // Too many: stop old versions first, then the highest indexes.
  const stoppable = [...old, ...current.filter((a) => !existingCanaries.includes(a) || promoted)];
  let total = current.length + old.length;
  const stoppedIds = new Set<string>();
  if (!canaryPhase && total > desired) {
    const order = stoppable.sort((a, b) => {
      const ao = old.includes(a) ? 0 : 1;
      const bo = old.includes(b) ? 0 : 1;
      return ao - bo || nameIndex(b.Name) - nameIndex(a.Name);
    });
    for (const a of order) {
      if (total <= desired) break;
      out.stop.push({ alloc: a, description: DESC.notNeeded });
      stoppedIds.add(a.ID);
      upd.Stop++;
      total--;
    }
  }

  for (const a of current) {
    if (stoppedIds.has(a.ID)) continue;
    if (inplace.has(a)) {
      out.inplace.push(a);
      upd.InPlaceUpdate++;
    } else upd.Ignore++;
  }

  if (!canaryPhase) {
    const remainingOld = old.filter((a) => !stoppedIds.has(a.ID));
    let limit = Number.POSITIVE_INFINITY;
    if (rolling) {
      const inFlight = current.filter(
        (a) =>
          !stoppedIds.has(a.ID) &&
          deployment !== undefined &&
          a.DeploymentID === deployment.ID &&
          a.DeploymentStatus?.Healthy !== true,
      ).length;
      limit = depFailed ? 0 : Math.max(0, (update?.MaxParallel ?? 1) - inFlight);
    }
    const sortedOld = remainingOld.sort((a, b) => nameIndex(a.Name) - nameIndex(b.Name));
    for (const a of sortedOld) {
      if (limit <= 0) {
        upd.Ignore++;
        continue;
      }
      limit--;
      out.stop.push({ alloc: a, description: DESC.updating });
      out.place.push({ group: name, name: a.Name, canary: false, previous: a });
      upd.DestructiveUpdate++;
      placedForDeployment++;
    }
  }

  // Failed allocations: reschedule now, later (follow-up evaluation), or never (policy exhausted).
  const policy = reschedulePolicy(job, group);
  let waiting = 0;
  for (const a of failed) {
    // A failed deployment's allocations stay failed; the rollback or the next version replaces them.
    if (a.DeploymentID && input.failedDeployments?.has(a.DeploymentID) && !input.forceReschedule) continue;
    const events = a.RescheduleTracker?.Events ?? [];
    const nowNs = input.nowMs * 1e6;
    const recent = events.filter(
      (e) => policy.Unlimited || nowNs - e.RescheduleTime <= policy.Interval,
    ).length;
    const eligible = input.forceReschedule || policy.Unlimited || recent < policy.Attempts;
    if (!eligible) {
      waiting++;
      continue;
    }
    const failedAtMs = a.ModifyTime / 1e6;
    const delayMs = input.forceReschedule
      ? 0
      : (rescheduleDelay(policy, events.length) / 1e6) * (input.timeScale ?? 1);
    const atMs = failedAtMs + delayMs;
    if (atMs > input.nowMs + 1) {
      // One follow-up evaluation per allocation: later evaluations must not pile up more of them.
      if (!a.FollowupEvalID) out.followups.push({ atMs, allocIds: [a.ID] });
      waiting++;
      continue;
    }
    out.place.push({ group: name, name: a.Name, canary: false, previous: a, reschedule: true });
    usedNames.add(a.Name);
    upd.Place++;
    placedForDeployment++;
  }

  // Too few: place the missing ones under the lowest free names.
  const done = job.Type === 'batch' ? complete.length : 0;
  const have = total + done + waiting + out.place.filter((p) => p.group === name && p.reschedule).length;
  let missing = canaryPhase ? Math.max(0, desired - (current.length + old.length)) : desired - have;
  let idx = 0;
  while (missing > 0) {
    const n = allocName(job.ID!, name, idx++);
    if (usedNames.has(n) && idx <= desired + mine.length) continue;
    usedNames.add(n);
    out.place.push({ group: name, name: n, canary: false });
    upd.Place++;
    placedForDeployment++;
    missing--;
  }

  if (!rolling || depFailed) return undefined;
  const progressDeadline = update?.ProgressDeadline ?? 10 * 60 * 1e9;
  const state: DeploymentGroupState = depState
    ? {
        ...depState,
        DesiredTotal: desired,
        DesiredCanaries: canaryPhase || promoted ? canaryCount : depState.DesiredCanaries,
      }
    : {
        AutoRevert: update?.AutoRevert ?? false,
        AutoPromote: update?.AutoPromote ?? false,
        ProgressDeadline: progressDeadline,
        RequireProgressBy:
          progressDeadline > 0
            ? new Date(input.nowMs + (progressDeadline / 1e6) * (input.timeScale ?? 1)).toISOString()
            : null,
        Promoted: false,
        PlacedCanaries: placedCanaries.length ? placedCanaries : null,
        DesiredCanaries: canaryPhase ? canaryCount : 0,
        DesiredTotal: desired,
        PlacedAllocs: 0,
        HealthyAllocs: 0,
        UnhealthyAllocs: 0,
      };
  return { state, work: placedForDeployment > 0 || upd.InPlaceUpdate > 0 };
}

function reconcileSystemGroup(
  input: ReconcileInput,
  job: Job,
  group: Group,
  mine: AllocRecord[],
  upd: GroupUpdates,
  out: Reconciled,
): undefined {
  const name = group.Name!;
  const nodes = input.systemNodes ?? [];
  const live = mine.filter((a) => a.DesiredStatus === 'run' && !isClientTerminal(a));
  const finished = mine.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'complete');
  const byNode = new Map<string, AllocRecord>();
  for (const a of live) byNode.set(a.NodeID, a);
  const doneNodes = new Set(job.Type === 'sysbatch' ? finished.map((a) => a.NodeID) : []);
  nodes.forEach((nodeId, i) => {
    const a = byNode.get(nodeId);
    if (a) {
      if (isCurrent(a, job)) upd.Ignore++;
      else if (classifyGroupUpdate(a.Job, job, name) === 'destructive') {
        out.stop.push({ alloc: a, description: DESC.updating });
        out.place.push({ group: name, name: a.Name, canary: false, previous: a, nodeId });
        upd.DestructiveUpdate++;
      } else {
        out.inplace.push(a);
        upd.InPlaceUpdate++;
      }
      return;
    }
    if (doneNodes.has(nodeId)) return;
    out.place.push({ group: name, name: allocName(job.ID!, name, i), canary: false, nodeId });
    upd.Place++;
  });
  for (const a of live) {
    if (!nodes.includes(a.NodeID)) {
      out.stop.push({ alloc: a, description: DESC.notNeeded });
      upd.Stop++;
    }
  }
  return undefined;
}
