/**
 * Waiting for a registered job to come up, the way `nomad job run` monitors it: follow the evaluation
 * chain, then the deployment (or, for jobs without one, the allocations of the new version), with
 * blocking queries only. The deadline aborts the query in flight, so nothing polls on a timer.
 */
import { ValidationError } from '../../../api/errors';
import type { Result } from '../../../api/transport';
import { formatDuration } from '../../../api/duration';
import { watch } from '../../../api/watch';
import type { AllocationStub, Deployment, EvaluationOutcome, Job } from '../../../api/sched/schemas';
import type { ProgressEvent } from '../../resource';
import type { Deadline } from '../../common/timeouts';
import type { SchedProviderContext } from '../context';
import type { JobRef } from './state';
import { abortError } from './destroy';
import {
  canaryState,
  deploymentProgress,
  describeAllocations,
  describePlacementFailures,
  revertedVersion,
  short,
  unhealthyAllocations,
} from './failure';

/** How long one blocking query may wait before it is renewed (the deadline cuts it short anyway). */
const BLOCK = '30s';
/** How long the first read of a deployment waits for its first change (see deploymentOfEvaluation). */
const FIRST_DEPLOYMENT_WAIT = '2s';

export type WaitFailureKind = 'evaluation' | 'placement' | 'deployment' | 'allocations' | 'timeout';

export class JobWaitError extends Error {
  constructor(
    message: string,
    readonly kind: WaitFailureKind,
    /** The version an auto-revert rolled back to, when it did. */
    readonly revertedTo?: number,
  ) {
    super(message);
    this.name = 'JobWaitError';
  }
}

export interface WaitOptions {
  ctx: SchedProviderContext;
  ref: JobRef;
  /** The evaluation the registration created ('' for periodic and parameterized jobs). */
  evalId: string;
  /**
   * The index the registration created that evaluation at, when the server said: the first read of
   * the evaluation then blocks until it moves on instead of first returning it still pending.
   */
  evalCreateIndex?: number;
  /** The job as registered, and the version the cluster gave it. */
  job: Job;
  version: number;
  autoPromoteCanaries: boolean;
  failOnPlacementFailure: boolean;
  deadline: Deadline;
  /** What the operation is called in a timeout message ("create of job web"). */
  operation: string;
  onProgress?: (e: ProgressEvent) => void;
}

interface Seen {
  deployment?: Deployment;
  /** The deployment the evaluation named, before it was read. */
  deploymentId?: string;
  allocations?: AllocationStub[];
  placementFailures?: string;
  awaitingPromotion?: boolean;
}

/** What waitForJob needs besides the stored job, which it takes as a read still in flight. */
export interface WaitRequest extends Omit<WaitOptions, 'job' | 'version'> {
  /**
   * The read of the job as the cluster stored it (its version), started right after the registration:
   * the evaluation is followed meanwhile, so that read costs no round trip of its own on the way to
   * the deployment. Whatever the wait reports comes after this read resolved.
   */
  stored: Promise<Job>;
}

/** Resolves with the deployment it followed to success, if it followed one. */
export async function waitForJob(req: WaitRequest): Promise<{ deployment?: Deployment }> {
  const seen: Seen = {};
  const report = (e: ProgressEvent): void => {
    req.onProgress?.({ ...e, message: req.ctx.redact(e.message) });
  };
  try {
    if (!req.evalId) {
      await req.stored;
      report({ message: `job ${req.ref.id} registered; it runs when launched (no evaluation to follow)` });
      return {};
    }
    // Reports of the evaluations wait for the stored job, so the registration is reported first.
    let held: ProgressEvent[] | undefined = [];
    const evaluations = followEvaluations(req, seen, (e) => (held ? held.push(e) : report(e)));
    evaluations.catch(() => undefined); // awaited below, once the stored job is known
    const job = await req.stored;
    const o: WaitOptions = { ...req, job, version: job.Version ?? 0 };
    held.forEach(report);
    held = undefined;
    const ev = await evaluations;
    const first = await deploymentFor(o, ev, seen);
    if (first) await followDeployment(o, first, seen, report);
    else await followAllocations(o, seen, report);
  } catch (e) {
    if (req.deadline.expired()) throw await timeoutError(req, seen);
    throw e;
  }
  if (req.deadline.expired()) throw await timeoutError(req, seen);
  if (req.deadline.signal.aborted) throw abortError(req.deadline.signal);
  return seen.deployment ? { deployment: seen.deployment } : {};
}

async function timeoutError(o: Omit<WaitOptions, 'job' | 'version'>, seen: Seen): Promise<JobWaitError> {
  await lookAtUnreadDeployment(o, seen);
  const parts = [`${o.operation} timed out after ${formatDuration(o.deadline.timeoutMs)}`];
  const d = seen.deployment;
  if (seen.awaitingPromotion && d) {
    parts.push(
      `deployment ${short(d.ID)} is awaiting promotion of its canaries (groups ${canaryState(d).waiting.join(', ')}); promote it or set auto_promote_canaries`,
    );
  } else if (d) {
    parts.push(`deployment ${short(d.ID)} still ${d.Status}: ${d.StatusDescription ?? ''}`);
    for (const [name, g] of Object.entries(d.TaskGroups ?? {})) {
      parts.push(
        `  group "${name}": ${g.HealthyAllocs ?? 0}/${g.DesiredTotal ?? 0} healthy, ${g.PlacedAllocs ?? 0} placed, ${g.UnhealthyAllocs ?? 0} unhealthy`,
      );
    }
  }
  if (seen.placementFailures) parts.push(`placement failures:\n${seen.placementFailures}`);
  const bad = unhealthyAllocations(seen.allocations ?? []);
  if (bad.length > 0) parts.push(`unhealthy allocations:\n${describeAllocations(bad)}`);
  return new JobWaitError(o.ctx.redact(parts.join('\n')), 'timeout');
}

/** How long the timeout message may wait for its look at a deployment the wait had not read yet. */
const LAST_LOOK_MS = 5_000;

/** The deadline ended the wait before the deployment the evaluation named was read: one last look. */
async function lookAtUnreadDeployment(o: Omit<WaitOptions, 'job' | 'version'>, seen: Seen): Promise<void> {
  if (seen.deployment || !seen.deploymentId) return;
  try {
    const { value } = await o.ctx.client.deployments.read(seen.deploymentId, {
      namespace: o.ref.namespace,
      signal: AbortSignal.timeout(LAST_LOOK_MS),
    });
    seen.deployment = value;
    seen.awaitingPromotion = value.Status === 'running' && canaryState(value).waiting.length > 0;
  } catch {
    // The message goes without it.
  }
}

/**
 * Blocking reads of one object until `done` says so; undefined when the deadline ended the wait.
 * With `startIndex` the first read already blocks: the caller knows the object as of that index.
 */
async function until<T>(
  o: Pick<WaitOptions, 'deadline'>,
  read: (index: number, signal: AbortSignal | undefined) => Promise<Result<T>>,
  done: (value: T) => boolean | Promise<boolean>,
  startIndex?: number,
): Promise<T | undefined> {
  for await (const { value } of watch(read, { signal: o.deadline.signal, startIndex })) {
    if (await done(value)) return value;
  }
  return undefined;
}

async function followEvaluations(
  o: Omit<WaitOptions, 'job' | 'version'>,
  seen: Seen,
  report: (e: ProgressEvent) => void,
): Promise<EvaluationOutcome | undefined> {
  const { client } = o.ctx;
  let id = o.evalId;
  let last: EvaluationOutcome | undefined;
  const visited = new Set<string>();
  while (id && !visited.has(id)) {
    visited.add(id);
    const evalId = id;
    // An evaluation is created pending and only ever written again by the scheduler, so the one the
    // registration created can be waited on from its creation index.
    const from = evalId === o.evalId && o.evalCreateIndex ? o.evalCreateIndex : undefined;
    const ev = await until(
      o,
      (index, signal) => client.evaluations.readOutcome(evalId, { index, wait: BLOCK, signal }),
      (e) => e.Status !== 'pending',
      from,
    );
    if (!ev) return last;
    last = ev;
    report({ message: `evaluation ${short(ev.ID)} ${ev.Status ?? ''}` });
    if (ev.Status === 'failed') {
      throw new JobWaitError(
        o.ctx.redact(`evaluation ${short(ev.ID)} failed: ${ev.StatusDescription || 'no reason given'}`),
        'evaluation',
      );
    }
    const failures = describePlacementFailures(ev.FailedTGAllocs);
    if (failures) {
      seen.placementFailures = failures;
      if (o.failOnPlacementFailure) {
        throw new JobWaitError(
          o.ctx.redact(
            `job ${o.ref.id} was registered but the scheduler could not place all allocations (a blocked evaluation ${short(ev.BlockedEval)} waits for capacity):\n${failures}`,
          ),
          'placement',
        );
      }
      report({ message: `placement failures; a blocked evaluation waits for capacity:\n${failures}` });
    }
    id = ev.NextEval ?? '';
  }
  return last;
}

/** A deployment as read, with the index of that read (the watch goes on from there). */
interface DeploymentSeen {
  deployment: Deployment;
  index: number;
}

/** The deployment of the registered version, if the job has one. */
async function deploymentFor(
  o: WaitOptions,
  ev: EvaluationOutcome | undefined,
  seen: Seen,
): Promise<DeploymentSeen | undefined> {
  if (o.job.Type && o.job.Type !== 'service') return undefined;
  const named = await deploymentOfEvaluation(o, ev, seen);
  if (named) return named;
  const { value: latest, meta } = await o.ctx.client.jobs.latestDeployment(o.ref.id, {
    namespace: o.ref.namespace,
    signal: o.deadline.signal,
  });
  if (latest && latest.JobVersion === o.version) return { deployment: latest, index: meta.index };
  if (!latest) return undefined;
  // The version's deployment may already have ended and been followed by another (an auto-revert
  // registers the old spec as a newer version at once): look for it among all of the job's deployments.
  const { value: all, meta: listed } = await o.ctx.client.jobs.deployments(o.ref.id, {
    namespace: o.ref.namespace,
    signal: o.deadline.signal,
  });
  const found = all.find(
    (d) => d.JobVersion === o.version && (!ev?.DeploymentID || d.ID === ev.DeploymentID),
  );
  return found ? { deployment: found, index: listed.index } : undefined;
}

/**
 * The deployment the evaluation names (as `nomad job run` monitors it), read once it moved past the
 * evaluation's own index: the scheduler wrote the deployment no later than the evaluation, so the
 * usual first answer is its next change (often its end) rather than the state it was created in.
 * The wait is short, so a deployment still running reports soon, and a change made between the
 * deployment and the evaluation (which a blocking read from there would not see) costs at most that.
 */
async function deploymentOfEvaluation(
  o: WaitOptions,
  ev: EvaluationOutcome | undefined,
  seen: Seen,
): Promise<DeploymentSeen | undefined> {
  if (!ev?.DeploymentID || !ev.ModifyIndex) return undefined;
  seen.deploymentId = ev.DeploymentID;
  const { value, meta } = await o.ctx.client.deployments.read(ev.DeploymentID, {
    namespace: o.ref.namespace,
    index: ev.ModifyIndex,
    wait: FIRST_DEPLOYMENT_WAIT,
    signal: o.deadline.signal,
  });
  // Another registration in between can have moved the job on: then look for the version's own.
  return value.JobVersion === o.version ? { deployment: value, index: meta.index } : undefined;
}

/**
 * Follows the deployment from the copy deploymentFor read: one that already ended returns at once, and
 * the blocking reads go on from that read's index, so none of them returns a state already seen.
 */
async function followDeployment(
  o: WaitOptions,
  first: DeploymentSeen,
  seen: Seen,
  report: (e: ProgressEvent) => void,
): Promise<void> {
  const { client } = o.ctx;
  const ns = o.ref.namespace;
  let promotedAt = -1;
  /** Takes in one state of the deployment; true once it succeeded. */
  const step = async (d: Deployment): Promise<boolean> => {
    seen.deployment = d;
    const { waiting, ready } = canaryState(d);
    seen.awaitingPromotion = d.Status === 'running' && waiting.length > 0;
    report(deploymentProgress(d, `deployment ${short(d.ID)} ${d.Status}: ${d.StatusDescription ?? ''}`));
    if (d.Status === 'successful') return true;
    if (d.Status === 'failed') throw await deploymentFailure(o, d);
    if (d.Status === 'cancelled') {
      throw new JobWaitError(
        o.ctx.redact(`deployment ${short(d.ID)} was cancelled: ${d.StatusDescription ?? ''}`),
        'deployment',
      );
    }
    if (o.autoPromoteCanaries && ready && (d.ModifyIndex ?? 0) !== promotedAt) {
      promotedAt = d.ModifyIndex ?? 0;
      try {
        await client.deployments.promote(d.ID, { all: true }, { namespace: ns, signal: o.deadline.signal });
        report({ message: `promoted the canaries of ${waiting.map((g) => `"${g}"`).join(', ')}` });
      } catch (e) {
        // Health can change between the read and the promote; the next change of the deployment retries.
        if (!(e instanceof ValidationError)) throw e;
      }
    }
    return false;
  };
  if (await step(first.deployment)) return;
  for await (const { value: d } of client.deployments.watch(first.deployment.ID, {
    namespace: ns,
    wait: BLOCK,
    signal: o.deadline.signal,
    startIndex: first.index,
  })) {
    if (await step(d)) return;
  }
}

async function deploymentFailure(o: WaitOptions, d: Deployment): Promise<JobWaitError> {
  const { value: allocs } = await o.ctx.client.deployments.allocations(d.ID, { namespace: o.ref.namespace });
  const bad = unhealthyAllocations(allocs);
  const reverted = revertedVersion(d);
  const autoRevert = Object.values(d.TaskGroups ?? {}).some((g) => g.AutoRevert);
  const lines = [
    `deployment ${short(d.ID)} of job ${o.ref.id} version ${o.version} failed: ${d.StatusDescription ?? ''}`,
  ];
  if (bad.length > 0) lines.push(`unhealthy allocations:\n${describeAllocations(bad)}`);
  if (reverted !== undefined) lines.push(`auto_revert rolled the job back to version ${reverted}`);
  else if (autoRevert) lines.push('auto_revert did not roll the job back (see the deployment status above)');
  else lines.push('auto_revert is off: the failed version stays registered');
  return new JobWaitError(o.ctx.redact(lines.join('\n')), 'deployment', reverted);
}

const BATCH = new Set(['batch', 'sysbatch']);

/** Jobs without a deployment: the allocations of the new version must run (or complete, for batch). */
async function followAllocations(
  o: WaitOptions,
  seen: Seen,
  report: (e: ProgressEvent) => void,
): Promise<void> {
  const { client } = o.ctx;
  const type = o.job.Type || 'service';
  const batch = BATCH.has(type);
  const perNode = type === 'system' || type === 'sysbatch';
  const groups = o.job.TaskGroups ?? [];
  const expected = groups.reduce((n, g) => n + (g.Count ?? 1), 0);
  let outcome: 'done' | AllocationStub[] | undefined;
  await until(
    o,
    (index, signal) =>
      client.jobs.allocations(o.ref.id, { namespace: o.ref.namespace, index, wait: BLOCK, signal }),
    async (all) => {
      const mine = all.filter((a) => a.JobVersion === o.version && a.DesiredStatus === 'run');
      seen.allocations = mine;
      const ok = mine.filter((a) => a.ClientStatus === (batch ? 'complete' : 'running'));
      const progress: NonNullable<ProgressEvent['groups']> = {};
      for (const g of groups) {
        const name = g.Name ?? '';
        const inGroup = mine.filter((a) => a.TaskGroup === name);
        progress[name] = {
          desired: perNode ? inGroup.length : (g.Count ?? 1),
          placed: inGroup.length,
          healthy: ok.filter((a) => a.TaskGroup === name).length,
          unhealthy: unhealthyAllocations(inGroup).length,
          canaries: 0,
        };
      }
      report({
        message: `allocations of version ${o.version}: ${ok.length} ${batch ? 'complete' : 'running'} of ${perNode ? mine.length : expected}`,
        groups: progress,
      });
      const final = mine.filter(
        (a) =>
          (a.ClientStatus === 'failed' || a.ClientStatus === 'lost') &&
          !a.NextAllocation &&
          !a.FollowupEvalID,
      );
      if (final.length > 0 && !(await replacementPending(o))) {
        outcome = final;
        return true;
      }
      const target = perNode ? mine.length : expected;
      if (ok.length >= target && (!perNode || mine.every((a) => ok.includes(a)))) {
        outcome = 'done';
        return true;
      }
      return false;
    },
  );
  if (Array.isArray(outcome)) {
    throw new JobWaitError(
      o.ctx.redact(
        `allocations of job ${o.ref.id} version ${o.version} failed:\n${describeAllocations(outcome)}`,
      ),
      'allocations',
    );
  }
}

/** Whether the scheduler still has work queued for the job (a reschedule may follow a failure). */
async function replacementPending(o: WaitOptions): Promise<boolean> {
  const { value } = await o.ctx.client.jobs.evaluations(o.ref.id, {
    namespace: o.ref.namespace,
    signal: o.deadline.signal,
  });
  return value.some((e) => e.Status === 'pending');
}
