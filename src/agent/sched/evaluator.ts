/**
 * Processes one evaluation: reconcile, place, and commit the result in one write (allocations,
 * stops, in-place updates, deployment changes, the evaluation's outcome, blocked and follow-up
 * evaluations). The plan endpoint runs the same steps without the commit.
 */
import type { Txn } from '../store';
import { newId } from '../ids';
import type { SchedContext } from './context';
import { refreshJob } from './derived';
import type { AllocMetricRecord, AllocRecord, DeploymentRecord, EvalRecord, Job } from './model';
import { usageOf } from './scheduler/node-usage';
import { Placer, type Placed } from './scheduler/placement';
import { reconcile, type GroupUpdates, type Placement, type Reconciled } from './scheduler/reconcile';
import { findGroup, groupAsk } from './scheduler/resources';
import { getJob, isTerminalAlloc, jobAllocs, jobDeployments, latestDeployment, listNodes } from './state';
import { T, childKey } from './tables';
import { checkConstraint, globMatch } from './scheduler/constraints';

type Reader = Pick<Txn, 'get' | 'list'>;
/** What an evaluation reads: committed state, or a transaction's view of it. */
type EvalReader = Pick<Txn, 'get' | 'list' | 'wrote'>;

/** A placement that found its node. */
interface PlacedAlloc extends Placed {
  placement: Placement;
}

export interface EvalOutcome {
  reconciled: Reconciled;
  /** The placements that found a node: the allocations a commit makes (a plan only counts them). */
  placed: PlacedAlloc[];
  failed: Record<string, AllocMetricRecord>;
  queued: Record<string, number>;
  updates: Record<string, GroupUpdates>;
  deployment?: DeploymentRecord;
  /** When the evaluation ran (ms since the epoch). */
  nowMs: number;
}

export function newEval(
  fields: Partial<EvalRecord> & Pick<EvalRecord, 'Namespace' | 'JobID' | 'TriggeredBy'>,
  nowNs: number,
): EvalRecord {
  return {
    ID: newId(),
    Priority: 50,
    Type: 'service',
    JobModifyIndex: 0,
    NodeID: '',
    NodeModifyIndex: 0,
    DeploymentID: '',
    Status: 'pending',
    StatusDescription: '',
    Wait: 0,
    WaitUntil: '0001-01-01T00:00:00Z',
    NextEval: '',
    PreviousEval: '',
    BlockedEval: '',
    RelatedEvals: null,
    FailedTGAllocs: null,
    ClassEligibility: null,
    EscapedComputedClass: false,
    QuotaLimitReached: '',
    AnnotatePlan: false,
    QueuedAllocations: null,
    LeaderACL: '',
    SnapshotIndex: 0,
    CreateIndex: 0,
    ModifyIndex: 0,
    CreateTime: nowNs,
    ModifyTime: nowNs,
    ...fields,
  };
}

function systemNodes(r: Reader, job: Job): string[] {
  const dcs = job.Datacenters && job.Datacenters.length > 0 ? job.Datacenters : ['*'];
  const constraints = [...(job.Constraints ?? [])];
  return listNodes(r)
    .filter(
      (n) =>
        n.Status === 'ready' &&
        n.SchedulingEligibility === 'eligible' &&
        (job.NodePool === 'all' || (job.NodePool ?? 'default') === n.NodePool) &&
        dcs.some((dc) => globMatch(dc, n.Datacenter)) &&
        constraints.every((c) => checkConstraint(c, n)),
    )
    .map((n) => n.ID);
}

/** Reconciles and places against a snapshot; writes nothing. */
export function computeEval(
  ctx: SchedContext,
  r: EvalReader,
  ns: string,
  jobId: string,
  job: Job | undefined,
  evalRec: Pick<EvalRecord, 'ID'> & { forceReschedule?: boolean },
): EvalOutcome {
  const nowMs = Date.now();
  const allocs = jobAllocs(r, ns, jobId);
  const reconciled = reconcile({
    job,
    namespace: ns,
    jobId,
    allocs,
    latestDeployment: latestDeployment(r, ns, jobId),
    nowMs,
    forceReschedule: evalRec.forceReschedule,
    systemNodes: job && (job.Type === 'system' || job.Type === 'sysbatch') ? systemNodes(r, job) : undefined,
    newDeploymentId: newId,
    timeScale: ctx.clock.scale,
    failedDeployments: new Set(
      jobDeployments(r, ns, jobId)
        .filter((d) => d.Status === 'failed')
        .map((d) => d.ID),
    ),
  });
  const nodes = listNodes(r);
  // The index holds committed state: a transaction that already wrote allocations needs the scan.
  const usage =
    (r.wrote(T.allocs) ? undefined : ctx.nodeUsage.current()) ??
    usageOf(
      nodes.map((n) => n.ID),
      r.list<AllocRecord>(T.allocs).filter((a) => !isTerminalAlloc(a)),
    );
  const placer = new Placer(nodes, usage);
  for (const s of reconciled.stop) placer.release(s.alloc);
  const deployment = reconciled.newDeployment ?? reconciled.deployment;
  const out: EvalOutcome = {
    reconciled,
    placed: [],
    failed: {},
    queued: {},
    updates: reconciled.updates,
    deployment,
    nowMs,
  };
  for (const p of reconciled.place) {
    const placed = placer.place(job!, p.group, {
      onlyNode: p.nodeId,
      avoidNode: p.reschedule ? p.previous?.NodeID : undefined,
    });
    if ('failed' in placed) {
      // A pinned (system) placement that no longer fits its node is not a failure of the job.
      const f = out.failed[p.group];
      if (f) f.CoalescedFailures++;
      else out.failed[p.group] = placed.failed;
      out.queued[p.group] = (out.queued[p.group] ?? 0) + 1;
      continue;
    }
    out.queued[p.group] ??= 0;
    out.placed.push({ placement: p, ...placed });
  }
  return out;
}

/**
 * The allocations a commit makes of an evaluation's placements. Only a commit needs them: a plan
 * reports counts and failures, so its dry run makes none (nor mints their IDs).
 */
function newAllocs(
  ns: string,
  jobId: string,
  job: Job | undefined,
  evalId: string,
  o: EvalOutcome,
): AllocRecord[] {
  const nowNs = o.nowMs * 1e6;
  const deployment = o.deployment;
  return o.placed.map(({ placement: p, node, metrics }): AllocRecord => {
    const group = findGroup(job!, p.group)!;
    const ask = groupAsk(group);
    const tasks: AllocRecord['AllocatedResources']['Tasks'] = {};
    const taskResources: AllocRecord['TaskResources'] = {};
    for (const t of group.Tasks ?? []) {
      const cpu = t.Resources?.CPU ?? 100;
      const mem = t.Resources?.MemoryMB ?? 300;
      tasks[t.Name!] = { Cpu: { CpuShares: cpu }, Memory: { MemoryMB: mem }, Networks: [] };
      taskResources[t.Name!] = { CPU: cpu, MemoryMB: mem, DiskMB: 0, Networks: [] };
    }
    const prevTracker = p.previous?.RescheduleTracker?.Events ?? [];
    const inDeployment =
      deployment && job!.Type === 'service' && deployment.TaskGroups[p.group] !== undefined;
    return {
      ID: newId(),
      Namespace: ns,
      EvalID: evalId,
      Name: p.name,
      NodeID: node.ID,
      NodeName: node.Name,
      JobID: jobId,
      Job: job!,
      TaskGroup: p.group,
      Resources: { CPU: ask.cpu, MemoryMB: ask.memoryMB, DiskMB: ask.diskMB, Networks: [] },
      SharedResources: { CPU: 0, MemoryMB: 0, DiskMB: ask.diskMB, Networks: [] },
      TaskResources: taskResources,
      AllocatedResources: { Tasks: tasks, Shared: { DiskMB: ask.diskMB, Networks: [] } },
      Metrics: metrics,
      DesiredStatus: 'run',
      DesiredDescription: '',
      DesiredTransition: { Migrate: null, Reschedule: null, ForceReschedule: null },
      ClientStatus: 'pending',
      ClientDescription: '',
      TaskStates: {},
      DeploymentID: inDeployment ? deployment!.ID : '',
      DeploymentStatus:
        inDeployment && p.canary
          ? { Healthy: null, Timestamp: '0001-01-01T00:00:00Z', Canary: true, ModifyIndex: 0 }
          : null,
      RescheduleTracker:
        p.reschedule && p.previous
          ? {
              Events: [
                ...prevTracker,
                {
                  RescheduleTime: nowNs,
                  PrevAllocID: p.previous.ID,
                  PrevNodeID: p.previous.NodeID,
                  Delay: 0,
                },
              ],
            }
          : prevTracker.length > 0 && p.previous
            ? { Events: prevTracker }
            : null,
      PreviousAllocation: p.previous?.ID ?? '',
      NextAllocation: '',
      FollowupEvalID: '',
      PreemptedAllocations: null,
      PreemptedByAllocation: '',
      JobVersion: job!.Version ?? 0,
      CreateIndex: 0,
      ModifyIndex: 0,
      AllocModifyIndex: 0,
      CreateTime: nowNs,
      ModifyTime: nowNs,
    };
  });
}

/** Runs a pending evaluation and commits its outcome. */
export function processEval(ctx: SchedContext, evalId: string): void {
  const key = ctx.state.keyOf(evalId);
  if (!key) return;
  ctx.store.write((tx) => {
    const ev = tx.get<EvalRecord>(T.evals, key);
    if (!ev || (ev.Status !== 'pending' && ev.Status !== 'blocked')) return;
    const ns = ev.Namespace;
    const job = getJob(tx, ns, ev.JobID);
    const outcome = computeEval(ctx, tx, ns, ev.JobID, job, {
      ID: ev.ID,
      forceReschedule: ev.TriggeredBy === 'job-eval-force-reschedule',
    });
    commitOutcome(ctx, tx, ev, job, outcome);
  });
}

function commitOutcome(
  ctx: SchedContext,
  tx: Txn,
  ev: EvalRecord,
  job: Job | undefined,
  o: EvalOutcome,
): void {
  const ns = ev.Namespace;
  const nowNs = ctx.clock.nowNs();
  const r = o.reconciled;
  const allocs = newAllocs(ns, ev.JobID, job, ev.ID, o);
  if (r.cancelDeployment) {
    const d = r.cancelDeployment.deployment;
    tx.put(T.deployments, childKey(ns, d.JobID, d.ID), {
      ...d,
      Status: 'cancelled',
      StatusDescription: r.cancelDeployment.description,
      ModifyTime: nowNs,
    });
  }
  let deployment = o.deployment;
  if (deployment) {
    const groups = { ...deployment.TaskGroups };
    for (const a of allocs) {
      const g = groups[a.TaskGroup];
      if (!g || a.DeploymentID !== deployment.ID) continue;
      groups[a.TaskGroup] = {
        ...g,
        PlacedAllocs: g.PlacedAllocs + 1,
        PlacedCanaries: a.DeploymentStatus?.Canary ? [...(g.PlacedCanaries ?? []), a.ID] : g.PlacedCanaries,
      };
    }
    for (const a of r.inplace) {
      const g = groups[a.TaskGroup];
      if (!g) continue;
      // An in-place update joins the deployment as already placed.
      groups[a.TaskGroup] = { ...g, PlacedAllocs: g.PlacedAllocs + 1 };
    }
    const changed =
      r.newDeployment !== undefined || JSON.stringify(groups) !== JSON.stringify(deployment.TaskGroups);
    if (changed) {
      deployment = tx.put(T.deployments, childKey(ns, deployment.JobID, deployment.ID), {
        ...deployment,
        TaskGroups: groups,
        ModifyTime: nowNs,
      });
    }
  }
  for (const s of r.stop) {
    tx.put(T.allocs, childKey(ns, s.alloc.JobID, s.alloc.ID), {
      ...s.alloc,
      DesiredStatus: 'stop',
      DesiredDescription: s.description,
      ModifyTime: nowNs,
    });
  }
  for (const a of r.inplace) {
    const cur = tx.get<AllocRecord>(T.allocs, childKey(ns, a.JobID, a.ID)) ?? a;
    const inDep = deployment && deployment.TaskGroups[a.TaskGroup];
    tx.put(T.allocs, childKey(ns, a.JobID, a.ID), {
      ...cur,
      Job: job!,
      JobVersion: job!.Version ?? 0,
      EvalID: ev.ID,
      DeploymentID: inDep ? deployment!.ID : cur.DeploymentID,
      // A running allocation updated in place is as healthy as it was.
      DeploymentStatus: inDep
        ? { Healthy: null, Timestamp: '0001-01-01T00:00:00Z', Canary: false, ModifyIndex: 0 }
        : cur.DeploymentStatus,
      ModifyTime: nowNs,
      AllocModifyIndex: tx.index,
    });
  }
  for (const a of allocs) {
    tx.put(T.allocs, childKey(ns, a.JobID, a.ID), { ...a, AllocModifyIndex: tx.index });
    if (a.PreviousAllocation) {
      const prevKey = childKey(ns, a.JobID, a.PreviousAllocation);
      const prev = tx.get<AllocRecord>(T.allocs, prevKey);
      if (prev) tx.put(T.allocs, prevKey, { ...prev, NextAllocation: a.ID, ModifyTime: nowNs });
    }
  }
  const failed = Object.keys(o.failed).length > 0;
  let blockedId = '';
  if (failed && job && !job.Stop) {
    // Capacity may appear later (allocations stop, nodes join): a blocked evaluation waits for it.
    const existing = tx
      .list<EvalRecord>(T.evals, { prefix: childKey(ns, ev.JobID, '') })
      .find((e) => e.Status === 'blocked' && e.ID !== ev.ID);
    if (ev.Status === 'blocked') blockedId = '';
    else if (existing) blockedId = existing.ID;
    else {
      const blocked = newEval(
        {
          Namespace: ns,
          JobID: ev.JobID,
          Priority: ev.Priority,
          Type: ev.Type,
          TriggeredBy: 'queued-allocs',
          JobModifyIndex: ev.JobModifyIndex,
          Status: 'blocked',
          StatusDescription: 'created to place remaining allocations',
          PreviousEval: ev.ID,
          QueuedAllocations: o.queued,
          FailedTGAllocs: null,
          ClassEligibility: {},
        },
        nowNs,
      );
      tx.put(T.evals, childKey(ns, ev.JobID, blocked.ID), blocked);
      blockedId = blocked.ID;
    }
  }
  for (const f of r.followups) {
    const follow = newEval(
      {
        Namespace: ns,
        JobID: ev.JobID,
        Priority: ev.Priority,
        Type: ev.Type,
        TriggeredBy: 'alloc-failure',
        JobModifyIndex: ev.JobModifyIndex,
        Status: 'pending',
        StatusDescription: 'created for delayed rescheduling',
        PreviousEval: ev.ID,
        WaitUntil: new Date(f.atMs).toISOString(),
      },
      nowNs,
    );
    tx.put(T.evals, childKey(ns, ev.JobID, follow.ID), follow);
    for (const id of f.allocIds) {
      const k = childKey(ns, ev.JobID, id);
      const a = tx.get<AllocRecord>(T.allocs, k);
      if (a && !a.FollowupEvalID) tx.put(T.allocs, k, { ...a, FollowupEvalID: follow.ID });
    }
  }
  const stillBlocked = ev.Status === 'blocked' && failed;
  tx.put(T.evals, childKey(ns, ev.JobID, ev.ID), {
    ...ev,
    Status: stillBlocked ? 'blocked' : 'complete',
    StatusDescription: stillBlocked ? ev.StatusDescription : '',
    FailedTGAllocs:
      failed && ev.Status !== 'blocked' ? o.failed : ev.Status === 'blocked' ? ev.FailedTGAllocs : null,
    QueuedAllocations: o.queued,
    BlockedEval: blockedId || ev.BlockedEval,
    DeploymentID: deployment?.ID ?? ev.DeploymentID,
    SnapshotIndex: tx.index - 1,
    ModifyTime: nowNs,
  });
  refreshJob(tx, ns, ev.JobID);
}
