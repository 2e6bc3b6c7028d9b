/**
 * The deployment watcher, as Nomad's leader runs it: it counts healthy and unhealthy allocations of
 * each running deployment, promotes canaries when allowed, triggers the next rolling batch, marks the
 * deployment successful (and the job version stable), or fails it on unhealthy allocations or a
 * missed progress deadline and then auto-reverts to the last stable version.
 */
import type { Commit, Txn } from '../../store';
import { badRequest, notFound } from '../../http/errors';
import type { SchedContext } from '../context';
import { newEval } from '../evaluator';
import type { AllocRecord, DeploymentRecord, Job } from '../model';
import { getJob, jobAllocs } from '../state';
import { T, childKey, jobKey, versionKey } from '../tables';
import { listVersions, registerJob } from '../jobs/register';
import { specChanged } from '../jobs/spec';

export const DESCRIPTIONS = {
  running: 'Deployment is running',
  needsPromotion: 'Deployment is running but requires manual promotion',
  autoPromotion: 'Deployment is running pending automatic promotion',
  successful: 'Deployment completed successfully',
  unhealthy: 'Failed due to unhealthy allocations',
  progressDeadline: 'Failed due to progress deadline',
  failedByUser: 'Deployment marked as failed',
};

export class DeploymentWatcher {
  private readonly deadlines = new Map<string, () => void>();
  private readonly pending = new Set<string>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(private readonly ctx: SchedContext) {
    this.unsubscribe = ctx.store.onCommit((c) => this.onCommit(c));
  }

  start(): void {
    for (const d of this.ctx.store.list<DeploymentRecord>(T.deployments)) {
      if (d.Status === 'running') {
        this.armDeadline(d);
        this.queue(d.ID);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const cancel of this.deadlines.values()) cancel();
    this.deadlines.clear();
  }

  private onCommit(c: Commit): void {
    if (this.stopped) return;
    for (const ch of c.changes) {
      if (ch.table === T.allocs && ch.op === 'put') {
        const a = ch.value as AllocRecord;
        if (a.DeploymentID) this.queue(a.DeploymentID);
      } else if (ch.table === T.deployments && ch.op === 'put') {
        const d = ch.value as DeploymentRecord;
        if (d.Status === 'running') this.armDeadline(d);
        else this.disarm(d.ID);
      }
    }
  }

  private queue(id: string): void {
    if (this.pending.has(id)) return;
    this.pending.add(id);
    setImmediate(() => {
      this.pending.delete(id);
      if (!this.stopped) this.review(id);
    });
  }

  private armDeadline(d: DeploymentRecord): void {
    const times = Object.values(d.TaskGroups)
      .map((g) => (g.RequireProgressBy ? Date.parse(g.RequireProgressBy) : NaN))
      .filter((t) => Number.isFinite(t));
    if (times.length === 0) return;
    const at = Math.min(...times);
    this.disarm(d.ID);
    const cancel = this.ctx.clock.at(at, () => {
      this.deadlines.delete(d.ID);
      this.review(d.ID, true);
    });
    this.deadlines.set(d.ID, cancel);
  }

  private disarm(id: string): void {
    this.deadlines.get(id)?.();
    this.deadlines.delete(id);
  }

  /** Recounts a deployment's health and moves it on. */
  review(id: string, deadlineCheck = false): void {
    const key = this.ctx.state.keyOf(id);
    if (!key) return;
    this.ctx.store.write((tx) => {
      const d = tx.get<DeploymentRecord>(T.deployments, key);
      if (!d || d.Status !== 'running') return;
      const allocs = jobAllocs(tx, d.Namespace, d.JobID).filter((a) => a.DeploymentID === d.ID);
      const nowMs = Date.now();
      const groups = { ...d.TaskGroups };
      let progressed = false;
      let unhealthy = 0;
      for (const [name, g] of Object.entries(groups)) {
        const mine = allocs.filter((a) => a.TaskGroup === name);
        const healthy = mine.filter((a) => a.DeploymentStatus?.Healthy === true).length;
        const bad = mine.filter((a) => a.DeploymentStatus?.Healthy === false).length;
        unhealthy += bad;
        let requireBy = g.RequireProgressBy;
        if (healthy > g.HealthyAllocs) {
          progressed = true;
          requireBy =
            g.ProgressDeadline > 0
              ? new Date(nowMs + this.ctx.clock.scaledMs(g.ProgressDeadline)).toISOString()
              : null;
        }
        groups[name] = { ...g, HealthyAllocs: healthy, UnhealthyAllocs: bad, RequireProgressBy: requireBy };
      }
      if (unhealthy > 0) {
        this.fail(tx, { ...d, TaskGroups: groups }, DESCRIPTIONS.unhealthy);
        return;
      }
      const complete = Object.values(groups).every(
        (g) => g.HealthyAllocs >= g.DesiredTotal && (g.DesiredCanaries === 0 || g.Promoted),
      );
      if (complete) {
        tx.put(T.deployments, key, {
          ...d,
          TaskGroups: groups,
          Status: 'successful',
          StatusDescription: DESCRIPTIONS.successful,
          ModifyTime: this.ctx.clock.nowNs(),
        });
        markStable(tx, d.Namespace, d.JobID, d.JobVersion);
        return;
      }
      const missed = Object.values(groups).some(
        (g) =>
          g.RequireProgressBy && Date.parse(g.RequireProgressBy) <= nowMs && g.HealthyAllocs < g.DesiredTotal,
      );
      if (deadlineCheck && missed) {
        this.fail(tx, { ...d, TaskGroups: groups }, DESCRIPTIONS.progressDeadline);
        return;
      }
      let description = DESCRIPTIONS.running;
      const waiting = Object.entries(groups).filter(([, g]) => g.DesiredCanaries > 0 && !g.Promoted);
      let promote = false;
      if (waiting.length > 0) {
        const ready = waiting.every(([, g]) => {
          const ids = new Set(g.PlacedCanaries ?? []);
          const healthyCanaries = allocs.filter(
            (a) => ids.has(a.ID) && a.DeploymentStatus?.Healthy === true,
          ).length;
          return healthyCanaries >= g.DesiredCanaries;
        });
        const auto = waiting.every(([, g]) => g.AutoPromote);
        if (ready && auto) promote = true;
        else description = auto ? DESCRIPTIONS.autoPromotion : DESCRIPTIONS.needsPromotion;
      }
      if (promote) for (const [name] of waiting) groups[name] = { ...groups[name]!, Promoted: true };
      const next = { ...d, TaskGroups: groups, StatusDescription: description };
      if (JSON.stringify(next) !== JSON.stringify(d)) {
        tx.put(T.deployments, key, { ...next, ModifyTime: this.ctx.clock.nowNs() });
      }
      if (progressed || promote) this.createEval(tx, d, 'deployment-watcher');
    });
  }

  /** Promotes canaries by hand (the promote endpoint). */
  promote(tx: Txn, d: DeploymentRecord, groups: string[] | 'all'): void {
    if (d.Status !== 'running') throw badRequest(`can't promote terminal deployment (status "${d.Status}")`);
    const next = { ...d.TaskGroups };
    const names = groups === 'all' ? Object.keys(next) : groups;
    let any = false;
    const allocs = jobAllocs(tx, d.Namespace, d.JobID);
    for (const name of names) {
      const g = next[name];
      if (!g) throw badRequest(`deployment has no task group "${name}"`);
      if (g.DesiredCanaries === 0 || g.Promoted) continue;
      const ids = new Set(g.PlacedCanaries ?? []);
      const healthy = allocs.filter((a) => ids.has(a.ID) && a.DeploymentStatus?.Healthy === true).length;
      if (healthy < g.DesiredCanaries) {
        throw badRequest(`Task group "${name}" has ${healthy}/${g.DesiredCanaries} healthy allocations`);
      }
      next[name] = { ...g, Promoted: true };
      any = true;
    }
    if (!any) throw badRequest('no canaries to promote');
    tx.put(T.deployments, childKey(d.Namespace, d.JobID, d.ID), {
      ...d,
      TaskGroups: next,
      StatusDescription: DESCRIPTIONS.running,
      ModifyTime: this.ctx.clock.nowNs(),
    });
    this.createEval(tx, d, 'deployment-watcher');
  }

  /** Fails a deployment, rolling back when a group asks for auto_revert. */
  fail(tx: Txn, d: DeploymentRecord, description: string): void {
    let desc = description;
    const autoRevert = Object.values(d.TaskGroups).some((g) => g.AutoRevert);
    const job = getJob(tx, d.Namespace, d.JobID);
    let rollback: Job | undefined;
    if (autoRevert && job && description !== DESCRIPTIONS.failedByUser) {
      const stable = listVersions(tx, d.Namespace, d.JobID).find(
        (v) => v.Stable && (v.Version ?? 0) < d.JobVersion,
      );
      if (!stable) desc = `${description} - no stable job version to auto revert to`;
      else if (!specChanged(stable, job)) {
        desc = `${description} - not rolling back to stable job version ${stable.Version} as current job has same specification`;
      } else {
        rollback = stable;
        desc = `${description} - rolling back to job version ${stable.Version}`;
      }
    }
    tx.put(T.deployments, childKey(d.Namespace, d.JobID, d.ID), {
      ...d,
      Status: 'failed',
      StatusDescription: desc,
      ModifyTime: this.ctx.clock.nowNs(),
    });
    if (rollback) registerJob(this.ctx, tx, { ...rollback, Stop: false }, { triggeredBy: 'rollback' });
    else this.createEval(tx, d, 'deployment-watcher');
  }

  private createEval(tx: Txn, d: DeploymentRecord, trigger: string): void {
    const job = getJob(tx, d.Namespace, d.JobID);
    if (!job) return;
    const ev = newEval(
      {
        Namespace: d.Namespace,
        JobID: d.JobID,
        Priority: d.EvalPriority || job.Priority || 50,
        Type: job.Type ?? 'service',
        TriggeredBy: trigger,
        JobModifyIndex: job.JobModifyIndex ?? 0,
        DeploymentID: d.ID,
      },
      this.ctx.clock.nowNs(),
    );
    tx.put(T.evals, childKey(d.Namespace, d.JobID, ev.ID), ev);
  }
}

function markStable(tx: Txn, ns: string, jobId: string, version: number): void {
  const vk = versionKey(ns, jobId, version);
  const v = tx.get<Job>(T.versions, vk);
  if (v && !v.Stable) tx.put(T.versions, vk, { ...v, Stable: true });
  const job = getJob(tx, ns, jobId);
  if (job && job.Version === version && !job.Stable)
    tx.put(T.jobs, jobKey(ns, jobId), { ...job, Stable: true });
}

export function requireDeployment(
  tx: Pick<Txn, 'get'>,
  key: string | undefined,
  id: string,
): DeploymentRecord {
  const d = key ? tx.get<DeploymentRecord>(T.deployments, key) : undefined;
  if (!d) throw notFound(`deployment ${id} not found`);
  return d;
}
