/**
 * Launches periodic jobs on their cron schedule (wall-clock time, in the job's time zone), honouring
 * ProhibitOverlap; the force endpoint launches at once regardless.
 */
import type { Commit, Txn } from '../../store';
import { badRequest, notFound } from '../../http/errors';
import type { SchedContext } from '../context';
import type { Job } from '../model';
import { getJob, listJobs } from '../state';
import { T, jobKey } from '../tables';
import { parseCron } from './cron';
import { registerJob } from './register';

export function isPeriodic(job: Job): boolean {
  return !!job.Periodic && job.Periodic.Enabled !== false && !job.Stop && !job.ParentID;
}

/** The next launch time after `after`, or undefined when the job is not periodic. */
export function nextLaunch(job: Job, after: Date): Date | undefined {
  if (!isPeriodic(job)) return undefined;
  const specs =
    job.Periodic!.Specs && job.Periodic!.Specs.length > 0 ? job.Periodic!.Specs : [job.Periodic!.Spec ?? ''];
  let best: Date | undefined;
  for (const s of specs) {
    const next = parseCron(s, job.Periodic!.TimeZone ?? undefined).next(after);
    if (!best || next < best) best = next;
  }
  return best;
}

export function launchPeriodic(
  ctx: SchedContext,
  tx: Txn,
  ns: string,
  id: string,
  force: boolean,
): { EvalID: string; EvalCreateIndex: number; Index: number } {
  const parent = getJob(tx, ns, id);
  if (!parent) throw notFound(`job "${id}" not found`);
  if (!parent.Periodic || parent.Periodic.Enabled === false) throw badRequest(`job "${id}" is not periodic`);
  if (parent.Stop) throw badRequest(`job "${id}" is stopped`);
  if (!force && parent.Periodic.ProhibitOverlap) {
    const running = listJobs(tx, ns).some((j) => j.ParentID === id && j.Status !== 'dead');
    if (running) return { EvalID: '', EvalCreateIndex: 0, Index: tx.index };
  }
  const unix = Math.floor(Date.now() / 1000);
  let childId = `${id}/periodic-${unix}`;
  for (let n = 1; getJob(tx, ns, childId); n++) childId = `${id}/periodic-${unix}-${n}`;
  const child = {
    ...parent,
    ID: childId,
    Name: childId,
    ParentID: id,
    Periodic: null,
    Status: 'pending',
    Version: undefined,
    CreateIndex: undefined,
    ModifyIndex: undefined,
    JobModifyIndex: undefined,
  } as Job;
  const res = registerJob(ctx, tx, child, { triggeredBy: 'periodic-job' });
  tx.put(T.periodicLaunches, jobKey(ns, id), { ID: id, Namespace: ns, Launch: new Date().toISOString() });
  return { EvalID: res.EvalID, EvalCreateIndex: res.EvalCreateIndex, Index: res.Index };
}

export class PeriodicDispatcher {
  private readonly timers = new Map<string, () => void>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(private readonly ctx: SchedContext) {
    this.unsubscribe = ctx.store.onCommit((c) => this.onCommit(c));
  }

  start(): void {
    for (const j of this.ctx.store.list<Job>(T.jobs)) {
      this.track(j);
      this.catchUp(j);
    }
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  private onCommit(c: Commit): void {
    for (const ch of c.changes) {
      if (ch.table !== T.jobs) continue;
      if (ch.op === 'delete') this.untrack(ch.key);
      else this.track(ch.value as Job);
    }
  }

  private untrack(key: string): void {
    this.timers.get(key)?.();
    this.timers.delete(key);
  }

  private track(job: Job): void {
    const key = jobKey(job.Namespace ?? 'default', job.ID!);
    this.untrack(key);
    if (this.stopped || !isPeriodic(job)) return;
    const next = nextLaunch(job, new Date());
    if (!next) return;
    const cancel = this.ctx.clock.at(next.getTime(), () => {
      this.timers.delete(key);
      this.launch(job);
    });
    this.timers.set(key, cancel);
  }

  /**
   * As Nomad's leader does when it restores the dispatcher: a launch that fell due while the agent
   * was down (after the last launch, or the registration when there was none) runs once, now.
   */
  private catchUp(job: Job): void {
    if (!isPeriodic(job)) return;
    const ns = job.Namespace ?? 'default';
    const last = this.ctx.store.get<{ Launch: string }>(T.periodicLaunches, jobKey(ns, job.ID!));
    const since = last ? Date.parse(last.Launch) : (job.SubmitTime ?? 0) / 1e6;
    if (!Number.isFinite(since) || since <= 0) return;
    const missed = nextLaunch(job, new Date(since));
    if (missed && missed.getTime() <= Date.now()) setImmediate(() => this.launch(job));
  }

  private launch(job: Job): void {
    if (this.stopped) return;
    const ns = job.Namespace ?? 'default';
    const key = jobKey(ns, job.ID!);
    try {
      this.ctx.store.write((tx) => launchPeriodic(this.ctx, tx, ns, job.ID!, false));
    } catch (err) {
      this.ctx.log(`periodic launch of ${job.ID} failed: ${(err as Error).message}`);
    }
    const cur = this.ctx.store.get<Job>(T.jobs, key);
    if (cur) this.track(cur);
  }
}
