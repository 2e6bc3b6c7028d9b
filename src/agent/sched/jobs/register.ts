/**
 * Writing jobs: register (with check-and-set), deregister, revert and stability, as Nomad's job
 * endpoint does them. Each runs inside the caller's store transaction so a rejected request changes
 * nothing.
 */
import type { Txn } from '../../store';
import { conflict, badRequest, notFound } from '../../http/errors';
import { canonicalizeJob } from '../../../api/sched/canonicalize';
import type { SchedContext } from '../context';
import { refreshJob } from '../derived';
import { newEval } from '../evaluator';
import type { EvalRecord, Job, SubmissionRecord } from '../model';
import { getJob, getNamespace } from '../state';
import { T, jobKey, versionKey } from '../tables';
import { withFastShapes } from './fast-shape';
import { specChanged } from './spec';
import { validateJob } from './validate';

export const MAX_TRACKED_VERSIONS = 6;
export const MAX_SUBMISSIONS = 6;

export interface RegisterOptions {
  enforceIndex?: boolean;
  jobModifyIndex?: number;
  preserveCounts?: boolean;
  evalPriority?: number;
  submission?: Omit<SubmissionRecord, 'Namespace' | 'JobID' | 'Version' | 'JobModifyIndex'> | null;
  triggeredBy?: string;
  /** Keep the version number (stability updates). */
  keepVersion?: boolean;
}

export interface RegisterResult {
  EvalID: string;
  EvalCreateIndex: number;
  JobModifyIndex: number;
  Warnings: string;
  Index: number;
  job: Job;
}

/** Canonicalizes and validates; throws HttpError 400 naming every problem. */
export function prepareJob(raw: Job, namespaceParam: string | undefined): Job {
  const job = canonicalizeJob({ ...raw, Namespace: raw.Namespace || namespaceParam || 'default' });
  try {
    validateJob(job);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
  return withFastShapes(job);
}

export function requireNamespace(tx: Pick<Txn, 'get'>, ns: string): void {
  if (!getNamespace(tx as Txn, ns)) throw badRequest(`job namespace "${ns}" does not exist`);
}

function isPeriodicOrParameterized(job: Job): boolean {
  return !!(job.ParameterizedJob && !job.Dispatched) || !!(job.Periodic && job.Periodic.Enabled !== false);
}

export function registerJob(
  ctx: SchedContext,
  tx: Txn,
  incoming: Job,
  opts: RegisterOptions = {},
): RegisterResult {
  const ns = incoming.Namespace ?? 'default';
  const id = incoming.ID!;
  requireNamespace(tx, ns);
  const existing = getJob(tx, ns, id);
  if (opts.enforceIndex) {
    const want = opts.jobModifyIndex ?? 0;
    if (want === 0 && existing) {
      throw conflict(
        `Enforcing job modify index 0: job already exists with job modify index ${existing.JobModifyIndex}`,
      );
    }
    if (want !== 0 && !existing) throw conflict(`Enforcing job modify index ${want}: job does not exist`);
    if (existing && want !== 0 && existing.JobModifyIndex !== want) {
      throw conflict(
        `Enforcing job modify index ${want}: job exists with conflicting job modify index: ${existing.JobModifyIndex}`,
      );
    }
  }
  // Never changed in place: a count kept from the existing job makes a new one.
  let job: Job = incoming;
  if (opts.preserveCounts && existing) {
    job = {
      ...job,
      TaskGroups: (job.TaskGroups ?? []).map((g) => {
        const prev = (existing.TaskGroups ?? []).find((x) => x.Name === g.Name);
        return prev ? { ...g, Count: prev.Count } : g;
      }),
    };
  }
  const nowNs = ctx.clock.nowNs();
  let stored: Job;
  const changed = !existing || specChanged(existing, job) || existing.Stop !== job.Stop;
  if (changed) {
    const version = existing ? (opts.keepVersion ? (existing.Version ?? 0) : (existing.Version ?? 0) + 1) : 0;
    stored = tx.put<Job>(T.jobs, jobKey(ns, id), {
      ...job,
      Version: version,
      Stable: false,
      Status: existing?.Status ?? 'pending',
      StatusDescription: '',
      SubmitTime: nowNs,
      JobModifyIndex: tx.index,
      CreateIndex: existing?.CreateIndex,
    });
    tx.put(T.versions, versionKey(ns, id, version), stored);
    pruneVersions(tx, ns, id);
    if (!existing) {
      tx.put(T.summaries, jobKey(ns, id), {
        JobID: id,
        Namespace: ns,
        Summary: Object.fromEntries(
          (job.TaskGroups ?? []).map((g) => [
            g.Name!,
            { Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 },
          ]),
        ),
        Children: { Pending: 0, Running: 0, Dead: 0 },
      });
    }
  } else {
    stored = existing!;
  }
  if (opts.submission && changed) {
    tx.put(T.submissions, versionKey(ns, id, stored.Version ?? 0), {
      ...opts.submission,
      Namespace: ns,
      JobID: id,
      Version: stored.Version ?? 0,
      JobModifyIndex: stored.JobModifyIndex ?? 0,
    });
    pruneSubmissions(tx, ns, id);
  }
  let evalId = '';
  let evalIndex = 0;
  if (!isPeriodicOrParameterized(stored)) {
    const ev = newEval(
      {
        Namespace: ns,
        JobID: id,
        Priority: opts.evalPriority || stored.Priority || 50,
        Type: stored.Type ?? 'service',
        TriggeredBy: opts.triggeredBy ?? 'job-register',
        JobModifyIndex: stored.JobModifyIndex ?? 0,
      },
      nowNs,
    );
    tx.put(T.evals, `${jobKey(ns, id)}\u0000${ev.ID}`, ev);
    evalId = ev.ID;
    evalIndex = tx.index;
  }
  refreshJob(tx, ns, id);
  return {
    EvalID: evalId,
    EvalCreateIndex: evalIndex,
    JobModifyIndex: stored.JobModifyIndex ?? 0,
    Warnings: '',
    Index: tx.index,
    job: stored,
  };
}

function pruneVersions(tx: Txn, ns: string, id: string): void {
  const all = tx.list<Job>(T.versions, { prefix: `${jobKey(ns, id)}\u0000` });
  // Keep the newest versions, and never drop the newest stable one: auto-revert needs it.
  const newestStable = [...all].reverse().find((j) => j.Stable);
  const excess = all.length - MAX_TRACKED_VERSIONS;
  for (const v of all.slice(0, Math.max(0, excess))) {
    if (newestStable && v.Version === newestStable.Version) continue;
    tx.delete(T.versions, versionKey(ns, id, v.Version ?? 0));
  }
}

function pruneSubmissions(tx: Txn, ns: string, id: string): void {
  const all = tx.list<SubmissionRecord>(T.submissions, { prefix: `${jobKey(ns, id)}\u0000` });
  for (const s of all.slice(0, Math.max(0, all.length - MAX_SUBMISSIONS))) {
    tx.delete(T.submissions, versionKey(ns, id, s.Version));
  }
}

export function listVersions(tx: Pick<Txn, 'list'>, ns: string, id: string): Job[] {
  return tx.list<Job>(T.versions, { prefix: `${jobKey(ns, id)}\u0000` }).reverse();
}

export interface DeregisterResult {
  EvalID: string;
  EvalCreateIndex: number;
  JobModifyIndex: number;
  Index: number;
}

export function deregisterJob(
  ctx: SchedContext,
  tx: Txn,
  ns: string,
  id: string,
  purge: boolean,
  evalPriority?: number,
): DeregisterResult {
  const existing = getJob(tx, ns, id);
  if (!existing) throw notFound('job not found');
  const nowNs = ctx.clock.nowNs();
  let jobModifyIndex = existing.JobModifyIndex ?? 0;
  if (purge) {
    tx.delete(T.jobs, jobKey(ns, id));
    tx.delete(T.summaries, jobKey(ns, id));
    for (const v of listVersions(tx, ns, id)) tx.delete(T.versions, versionKey(ns, id, v.Version ?? 0));
    for (const s of tx.list<SubmissionRecord>(T.submissions, { prefix: `${jobKey(ns, id)}\u0000` })) {
      tx.delete(T.submissions, versionKey(ns, id, s.Version));
    }
  } else if (!existing.Stop) {
    const stopped = tx.put<Job>(T.jobs, jobKey(ns, id), {
      ...existing,
      Stop: true,
      Version: (existing.Version ?? 0) + 1,
      Stable: false,
      SubmitTime: nowNs,
      JobModifyIndex: tx.index,
    });
    tx.put(T.versions, versionKey(ns, id, stopped.Version ?? 0), stopped);
    pruneVersions(tx, ns, id);
    jobModifyIndex = tx.index;
  }
  let evalId = '';
  let evalIndex = 0;
  if (!isPeriodicOrParameterized(existing)) {
    const ev: EvalRecord = newEval(
      {
        Namespace: ns,
        JobID: id,
        Priority: evalPriority || existing.Priority || 50,
        Type: existing.Type ?? 'service',
        TriggeredBy: 'job-deregister',
        JobModifyIndex: jobModifyIndex,
      },
      nowNs,
    );
    tx.put(T.evals, `${jobKey(ns, id)}\u0000${ev.ID}`, ev);
    evalId = ev.ID;
    evalIndex = tx.index;
  }
  if (!purge) refreshJob(tx, ns, id);
  return { EvalID: evalId, EvalCreateIndex: evalIndex, JobModifyIndex: jobModifyIndex, Index: tx.index };
}

/** Re-registers an older version as a new version (revert endpoint and auto-revert). */
export function revertJob(
  ctx: SchedContext,
  tx: Txn,
  ns: string,
  id: string,
  target: { version?: number; tag?: string },
  enforcePriorVersion?: number,
): RegisterResult {
  const current = getJob(tx, ns, id);
  if (!current) throw notFound('job not found');
  if (
    enforcePriorVersion !== undefined &&
    enforcePriorVersion !== null &&
    current.Version !== enforcePriorVersion
  ) {
    throw conflict(`Current job has version ${current.Version}; enforcing version ${enforcePriorVersion}`);
  }
  const versions = listVersions(tx, ns, id);
  let old: Job | undefined;
  if (target.tag) {
    old = versions.find((v) => (v as { VersionTag?: { Name?: string } }).VersionTag?.Name === target.tag);
    if (!old) throw notFound(`version tag "${target.tag}" not found`);
  } else {
    old = versions.find((v) => v.Version === target.version);
    if (!old) throw notFound(`job version ${target.version} not found`);
  }
  if (old.Version === current.Version) {
    throw badRequest(`can't revert to current version ${current.Version}`);
  }
  return registerJob(ctx, tx, { ...old, Stop: false }, { triggeredBy: 'job-register' });
}

export function setStability(tx: Txn, ns: string, id: string, version: number, stable: boolean): number {
  const current = getJob(tx, ns, id);
  if (!current) throw notFound('job not found');
  const vk = versionKey(ns, id, version);
  const v = tx.get<Job>(T.versions, vk);
  if (!v) throw notFound(`job version ${version} not found`);
  tx.put(T.versions, vk, { ...v, Stable: stable });
  if (current.Version === version) {
    const updated = tx.put<Job>(T.jobs, jobKey(ns, id), { ...current, Stable: stable });
    return updated.JobModifyIndex ?? 0;
  }
  return current.JobModifyIndex ?? 0;
}
