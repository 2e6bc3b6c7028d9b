/**
 * Applying a planned job change: register with check-and-set on the index the plan saw, then (unless
 * detached) wait for the rollout. A failed rollout records what the cluster now runs (the failed
 * version, or the version auto_revert restored) but never the new spec as applied.
 */
import { formatDuration } from '../../../api/duration';
import { ConflictError, NotFoundError, ValidationError } from '../../../api/errors';
import type { Deployment } from '../../../api/sched/schemas/deployment';
import { JobSchema, type Job, type JobSubmission } from '../../../api/sched/schemas/job';
import type { ApplyContext, PlannedChange, State } from '../../resource';
import { ResourceApplyError } from '../../common/errors';
import { knownStringMap } from '../../common/shape';
import { deadline, operationTimeoutMs, type Deadline } from '../../common/timeouts';
import type { SchedProviderContext } from '../context';
import { DestroyTimeoutError, destroyJob } from './destroy';
import { short } from './failure';
import { detectFormat, hclVariables, loadJobspec, JobspecError, resolveJob } from './jobspec';
import { JobPrivateSchema, argumentsOf, refOf, stoppedJobModifyIndex, type JobPrivate } from './plan';
import { jobSettings } from './schema';
import { computedAttributes, fetchAttributes, type JobRef } from './state';
import { JobWaitError, waitForJob } from './wait';

const DEFAULT_TIMEOUT_MS = { create: 10 * 60_000, update: 10 * 60_000, delete: 5 * 60_000 };

/**
 * The plan data as apply decodes it. Its job is the plan's own (kept in memory, in a saved plan, or in
 * the private bytes Terraform hands back as given), and the registration sends it on to the server,
 * which checks all of it before anything else reads it: so only what apply itself reads first is
 * checked here, and the rest is passed on as it is. Checking every group and task of it field by field
 * was the largest CPU cost of an apply per job (zod's parsers run cold in a short-lived process).
 */
const AppliedPrivateSchema = JobPrivateSchema.extend({
  job: JobSchema.pick({ ID: true, Namespace: true }).optional(),
});

function privateOf(change: PlannedChange): JobPrivate {
  const parsed = AppliedPrivateSchema.safeParse(change.private ?? {});
  if (!parsed.success) throw new Error('the planned change of sched_job lacks its plan data; plan again');
  return parsed.data;
}

/** Destroys the job a state describes, following that state's settings. */
export async function destroyFromState(
  ctx: SchedProviderContext,
  prior: State,
  apply: ApplyContext | undefined,
): Promise<void> {
  const ref = refOf(prior);
  const settings = jobSettings(prior);
  if (!ref || !settings.deregisterOnDestroy) return;
  const dl = deadline(
    operationTimeoutMs(settings.timeouts, 'delete', DEFAULT_TIMEOUT_MS.delete),
    apply?.signal,
  );
  try {
    await destroyJob(ctx, ref, {
      purge: settings.purgeOnDestroy,
      detach: settings.detach,
      deadline: dl,
      onProgress: apply?.onProgress,
    });
  } catch (e) {
    if (e instanceof DestroyTimeoutError) throw new ResourceApplyError(e.message, prior);
    throw e;
  } finally {
    dl.dispose();
  }
}

/** The modify index of the stopped job a same-ID replacement registers over (0: it was purged). */
async function stoppedJobIndex(
  ctx: SchedProviderContext,
  ref: JobRef,
  signal: AbortSignal,
  prior: State | null,
): Promise<number> {
  try {
    const { value: current } = await ctx.client.jobs.read(ref.id, { namespace: ref.namespace, signal });
    if (current.Stop !== true) {
      throw new ResourceApplyError(
        `job ${ref.id} is running again although its replacement stopped it: someone registered it in between; plan again`,
        prior,
      );
    }
    return current.JobModifyIndex ?? 0;
  } catch (e) {
    if (e instanceof NotFoundError) return 0;
    throw e;
  }
}

async function desiredJob(
  ctx: SchedProviderContext,
  planned: State,
  priv: JobPrivate,
  signal: AbortSignal,
): Promise<Job> {
  if (priv.job) return priv.job;
  const text = planned['jobspec'];
  if (typeof text !== 'string') throw new Error('jobspec is still unknown at apply');
  try {
    return resolveJob(
      await loadJobspec(ctx.client, text, { vars: knownStringMap(planned['hcl2_vars']), signal }),
      ctx.defaults,
    );
  } catch (e) {
    if (e instanceof JobspecError) throw new Error(ctx.redact(`invalid jobspec: ${e.message}`));
    throw e;
  }
}

function submissionOf(planned: State): JobSubmission | undefined {
  const text = planned['jobspec'];
  if (typeof text !== 'string') return undefined;
  const format = detectFormat(text);
  return {
    Source: text,
    Format: format === 'json' ? 'json' : 'hcl2',
    ...(format === 'hcl2' ? { Variables: hclVariables(knownStringMap(planned['hcl2_vars'])) } : {}),
  };
}

/** The state to record when an apply failed after the job was registered. */
async function stateAfterFailure(
  ctx: SchedProviderContext,
  ref: JobRef,
  prior: State | null,
  planned: State,
): Promise<State | null> {
  const remote = await fetchAttributes(ctx, ref).catch(() => null);
  if (!remote) return prior;
  // The new settings apply (they steer the provider), but the spec stays the last one applied
  // successfully (none for a create), so the next plan registers and waits again.
  return {
    ...argumentsOf(planned),
    jobspec: prior?.['jobspec'] ?? null,
    hcl2_vars: prior?.['hcl2_vars'] ?? null,
    ...computedAttributes(remote),
  };
}

/** Registers and waits; `prior` is the state being updated (null for a create or the create half of a replace). */
async function registerAndWait(
  ctx: SchedProviderContext,
  change: PlannedChange,
  priv: JobPrivate,
  prior: State | null,
  op: 'create' | 'update',
  apply: ApplyContext | undefined,
): Promise<State> {
  const planned = change.planned!;
  const settings = jobSettings(planned);
  const report = (message: string): void => apply?.onProgress?.({ message: ctx.redact(message) });
  const dl: Deadline = deadline(
    operationTimeoutMs(settings.timeouts, op, DEFAULT_TIMEOUT_MS[op]),
    apply?.signal,
  );
  try {
    const job = await desiredJob(ctx, planned, priv, dl.signal);
    const ref: JobRef = { id: job.ID!, namespace: job.Namespace ?? 'default' };
    let enforceIndex = priv.jobModifyIndex;
    const priorRef = refOf(prior);
    if (!priv.job && prior && priorRef && (priorRef.id !== ref.id || priorRef.namespace !== ref.namespace)) {
      // The spec was unknown at plan time and turned out to name another job: the plan's rules apply now.
      if (priorRef.namespace !== ref.namespace || jobSettings(prior).deregisterOnIdChange) {
        await destroyFromState(ctx, prior, apply);
      }
      enforceIndex = 0;
    }
    if (priv.afterStop) {
      // The destroy half stopped the job (or purged it): register over the stopped job only.
      enforceIndex = await stoppedJobIndex(ctx, ref, dl.signal, prior);
    } else if (op === 'create' && enforceIndex === 0 && !priv.indexSeen) {
      // The plan could not look (its namespace did not exist yet, and a destroyed stack's stopped job
      // outlives its namespace): a job stopped by now is taken over as at plan. When the plan saw no
      // job, one that appeared since is a conflict of the check-and-set, as any change since plan.
      enforceIndex = (await stoppedJobModifyIndex(ctx, job)) ?? 0;
    }
    if (priv.rerun) {
      const { value: current } = await ctx.client.jobs.read(ref.id, {
        namespace: ref.namespace,
        signal: dl.signal,
      });
      if ((current.JobModifyIndex ?? 0) !== enforceIndex) throw conflict(ref);
      await destroyJob(ctx, ref, { purge: true, detach: false, deadline: dl, onProgress: apply?.onProgress });
      enforceIndex = 0;
    }
    let registered: {
      EvalID?: string | null;
      EvalCreateIndex?: number | null;
      JobModifyIndex?: number | null;
    };
    try {
      ({ value: registered } = await ctx.client.jobs.register(job, {
        namespace: ref.namespace,
        enforceIndex,
        policyOverride: settings.policyOverride || undefined,
        preserveCounts: settings.preserveCounts || undefined,
        evalPriority: settings.evalPriority,
        submission: submissionOf(planned),
        signal: dl.signal,
      }));
    } catch (e) {
      if (e instanceof ConflictError) {
        if (op === 'create' && enforceIndex === 0) {
          throw new ResourceApplyError(
            `job ${ref.id} changed since plan; plan again (it now exists in namespace ${ref.namespace}: import it as ${ref.id}@${ref.namespace})`,
            prior,
          );
        }
        throw conflict(ref, prior);
      }
      if (e instanceof ValidationError) {
        throw new ResourceApplyError(
          ctx.redact(`job ${ref.id} was rejected: ${e.serverMessage || e.message}`),
          prior,
        );
      }
      throw e;
    }
    const registeredAt = registered.JobModifyIndex;
    const stored = storedJob(ctx, ref, job, enforceIndex, registeredAt, dl.signal).then((value) => {
      report(
        `registered job ${ref.id} version ${value.Version ?? 0}${registered.EvalID ? ` (evaluation ${short(registered.EvalID)})` : ''}`,
      );
      return value;
    });
    let followed: Deployment | undefined;
    if (settings.detach) await stored;
    else {
      try {
        ({ deployment: followed } = await waitForJob({
          ctx,
          ref,
          evalId: registered.EvalID ?? '',
          evalCreateIndex: registered.EvalCreateIndex ?? undefined,
          stored,
          autoPromoteCanaries: settings.autoPromoteCanaries,
          failOnPlacementFailure: settings.failOnPlacementFailure,
          deadline: dl,
          operation: `${op} of job ${ref.id}`,
          onProgress: apply?.onProgress,
        }));
      } catch (e) {
        if (e instanceof JobWaitError) {
          throw new ResourceApplyError(e.message, await stateAfterFailure(ctx, ref, prior, planned));
        }
        throw e;
      }
    }
    // The rollout is over: reading back what it left needs no slot of the apply's parallelism.
    apply?.onChanged?.();
    const remote = await fetchAttributes(ctx, ref, followed ? { deployment: followed } : {});
    if (!remote) throw new ResourceApplyError(`job ${ref.id} disappeared while it was applied`, null);
    return { ...argumentsOf(planned), ...computedAttributes(remote) };
  } catch (e) {
    if (!dl.expired() || e instanceof ResourceApplyError) throw e;
    // The deadline cut a request short (the registration itself, or a read): say so, and record
    // whatever the cluster now has.
    const ref = refFromPlan(change, priv);
    throw new ResourceApplyError(
      `${op} of job ${ref?.id ?? '(unknown)'} timed out after ${formatDuration(dl.timeoutMs)}`,
      ref ? await stateAfterFailure(ctx, ref, prior, planned) : prior,
    );
  } finally {
    dl.dispose();
  }
}

/**
 * The job as the cluster stored it, for its version. Check-and-set on index 0 only lets a job through
 * that did not exist, and a new job is version 0 (as in Nomad: a purged job starts over), so that
 * needs no read. Otherwise the stored copy is read while the wait follows the evaluation; if the job
 * was registered again by then (`registeredAt`, the registration's JobModifyIndex, no longer matches:
 * a rollout that failed at once and auto-reverted), the version registered is looked up among the
 * job's versions, so that the wait follows that version's deployment and reports its failure.
 */
async function storedJob(
  ctx: SchedProviderContext,
  ref: JobRef,
  job: Job,
  enforceIndex: number,
  registeredAt: number | null | undefined,
  signal: AbortSignal,
): Promise<Job> {
  if (enforceIndex === 0) return { ...job, Version: 0 };
  const opts = { namespace: ref.namespace, signal };
  const { value } = await ctx.client.jobs.read(ref.id, opts);
  if (!registeredAt || value.JobModifyIndex === registeredAt) return value;
  const { value: history } = await ctx.client.jobs.versions(ref.id, opts);
  return history.Versions?.find((v) => v.JobModifyIndex === registeredAt) ?? value;
}

function refFromPlan(change: PlannedChange, priv: JobPrivate): JobRef | undefined {
  if (priv.job?.ID) return { id: priv.job.ID, namespace: priv.job.Namespace ?? 'default' };
  return refOf(change.planned);
}

function conflict(ref: JobRef, prior: State | null = null): ResourceApplyError {
  return new ResourceApplyError(`job ${ref.id} changed since plan; plan again`, prior);
}

export async function applyJob(
  ctx: SchedProviderContext,
  change: PlannedChange,
  apply: ApplyContext | undefined,
): Promise<State | null> {
  const { prior } = change;
  switch (change.action) {
    case 'noop':
      return prior;
    case 'delete':
      if (prior) await destroyFromState(ctx, prior, apply);
      return null;
    case 'create':
      return registerAndWait(ctx, change, privateOf(change), null, 'create', apply);
    case 'replace': {
      const priv = privateOf(change);
      if (prior) await destroyFromState(ctx, prior, apply);
      return registerAndWait(ctx, change, priv, null, 'create', apply);
    }
    case 'update': {
      const priv = privateOf(change);
      if (!priv.register && prior) {
        return { ...prior, ...argumentsOf(change.planned ?? {}) };
      }
      return registerAndWait(ctx, change, priv, prior, 'update', apply);
    }
  }
}
