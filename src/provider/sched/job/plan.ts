/**
 * Planning a job: compare the configured spec with the cluster's copy (both canonical), decide between
 * nothing, a state-only update, a registration and a replacement, and for a registration ask the
 * scheduler for its dry run (diff, placements, failures) and the JobModifyIndex that apply enforces.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { ApiError, NotFoundError, ValidationError } from '../../../api/errors';
import { JobSchema, type Job } from '../../../api/sched/schemas/job';
import type { JobPlanPassedDiffResponse } from '../../../api/sched/schemas/plan';
import type { Config, PlannedChange, SchedulerAnnotations, State } from '../../resource';
import { UNKNOWN, containsUnknown, type Diagnostic } from '../../values';
import { errorMessage, isUnreachable } from '../../common/errors';
import { errorAt, hasErrors, knownStringMap, sameStringMap, warningAt } from '../../common/shape';
import type { SchedProviderContext } from '../context';
import { sameSpec, specDifferences } from './compare';
import { describePlacementFailures } from './failure';
import { JobspecError, detectFormat, loadJobspec, parseJsonJobspec, resolveJob } from './jobspec';
import { COMPUTED, PROVIDER_SETTINGS, jobSettings, type JobSettings } from './schema';
import { heldUnchanged, plansNothing } from './plan-unchanged';
import { specAttributes, type JobRef, type RemoteJob } from './state';

/**
 * What the refresh before a plan learnt: the copy it read, or `unchanged` when it found by index that
 * the cluster still holds the job the prior state recorded (refresh-by-index.ts).
 */
export type Refreshed = RemoteJob | 'unchanged';

/** What apply needs from the plan; kept in saved plans, so it is plain JSON and re-validated. */
export const JobPrivateSchema = z.object({
  /** Registration needed (false: only provider settings or the spec's text changed). */
  register: z.boolean(),
  /** The job to register, as planned (absent when the spec was not known at plan time). */
  job: JobSchema.optional(),
  /** Check-and-set index: the JobModifyIndex the plan saw (0 for a new job). */
  jobModifyIndex: z.number(),
  /**
   * The scheduler's plan answered, so `jobModifyIndex` is what it saw (0: no job): the registration's
   * check-and-set alone guards it, with no read of the job at apply. Absent when the plan could not
   * look (the namespace did not exist yet, the scheduler was unreachable).
   */
  indexSeen: z.boolean().optional(),
  /** Purge the dead job and register it again, so it runs again. */
  rerun: z.boolean().optional(),
  /**
   * The create half of a replacement that keeps the job's ID: the destroy half stops the job first,
   * and the registration then checks-and-sets on the stopped job's index.
   */
  afterStop: z.boolean().optional(),
});
export type JobPrivate = z.infer<typeof JobPrivateSchema>;

const SPEC_PATH = ['jobspec'];

/** The arguments of the configuration (everything that is not computed), nulls for unset ones. */
export function argumentsOf(config: Config | State): State {
  const out: State = { jobspec: config['jobspec'] ?? null, hcl2_vars: config['hcl2_vars'] ?? null };
  for (const k of PROVIDER_SETTINGS) out[k] = config[k] ?? null;
  return out;
}

function allUnknown(): State {
  return Object.fromEntries(COMPUTED.map((k) => [k, UNKNOWN]));
}

/**
 * Every argument null and every computed attribute unknown, in the order a planned state lists them.
 * A plan of many new jobs starts each planned state from a copy of this: building the 27 keys one by
 * one for every job cost several times more than copying them.
 */
const PLANNED_BASE: State = { ...argumentsOf({}), ...allUnknown() };

/** State after a registration: what the spec says is known now, what the cluster decides is not. */
function plannedAfterRegister(config: Config, job: Job | undefined): State {
  const planned: State = { ...PLANNED_BASE, ...argumentsOf(config) };
  if (job) {
    Object.assign(planned, specAttributes(job));
    if (!job.Region) planned['region'] = UNKNOWN;
    if (!job.Datacenters || job.Datacenters.length === 0) planned['datacenters'] = UNKNOWN;
  }
  return planned;
}

export function refOf(state: State | null): JobRef | undefined {
  const id = state?.['id'];
  const ns = state?.['namespace'];
  return typeof id === 'string' && id
    ? { id, namespace: typeof ns === 'string' && ns ? ns : 'default' }
    : undefined;
}

function annotations(resp: JobPlanPassedDiffResponse): SchedulerAnnotations {
  const desired: Record<string, Record<string, number>> = {};
  for (const [group, u] of Object.entries(resp.Annotations?.DesiredTGUpdates ?? {})) {
    const counts: Record<string, number> = {};
    for (const [k, v] of Object.entries(u ?? {})) if (typeof v === 'number') counts[k] = v;
    desired[group] = counts;
  }
  const next = resp.NextPeriodicLaunch;
  return {
    desiredTGUpdates: desired,
    failedTGAllocs:
      resp.FailedTGAllocs && Object.keys(resp.FailedTGAllocs).length > 0 ? resp.FailedTGAllocs : null,
    jobDiff: resp.Diff ?? null,
    jobModifyIndex: resp.JobModifyIndex ?? 0,
    ...(next && !next.startsWith('0001-') ? { nextPeriodicLaunch: next } : {}),
    ...(resp.Warnings ? { warnings: resp.Warnings } : {}),
  };
}

interface PlanInput {
  ctx: SchedProviderContext;
  prior: State | null;
  config: Config;
  settings: JobSettings;
  diagnostics: Diagnostic[];
  /** See ResourceHandler.plan. */
  replacing?: { prior: State; destroyFirst: boolean };
  /** See ResourceHandler.plan: false when no one reads the scheduler's JobDiff. */
  serviceDiff: boolean;
}

/** Diagnostics for an error from the cluster, without ever quoting a secret. */
function apiDiagnostic(ctx: SchedProviderContext, summary: string, err: unknown): Diagnostic {
  const detail = err instanceof ApiError && err.serverMessage ? err.serverMessage : errorMessage(err);
  return errorAt(SPEC_PATH, summary, ctx.redact(detail));
}

function failed(input: PlanInput, extra: Diagnostic[]): PlannedChange {
  const { prior } = input;
  return { action: 'noop', prior, planned: prior, diagnostics: [...input.diagnostics, ...extra] };
}

/** The namespace a plan was refused for because it does not exist (it may be created by the same deploy). */
function missingNamespaceOf(e: unknown): string | undefined {
  if (!(e instanceof ApiError) || (e.status !== 400 && e.status !== 404)) return undefined;
  return /namespace "([^"]+)" (?:does not exist|not found)/.exec(e.serverMessage)?.[1];
}

/**
 * A registration: the scheduler's dry run gives the diff, the placements and the index to enforce. A
 * cluster that cannot be reached is a warning only for a job that does not exist yet.
 */
async function planRegistration(
  input: PlanInput,
  action: 'create' | 'update' | 'replace',
  job: Job,
  extra: Partial<PlannedChange> & { rerun?: boolean; creating: boolean },
): Promise<PlannedChange> {
  const { ctx, config, settings } = input;
  const diagnostics = [...input.diagnostics];
  let resp: JobPlanPassedDiffResponse;
  try {
    ({ value: resp } = await ctx.client.jobs.planPassingDiff(job, {
      diff: input.serviceDiff,
      namespace: job.Namespace ?? undefined,
      policyOverride: settings.policyOverride,
    }));
  } catch (e) {
    const missingNamespace = missingNamespaceOf(e);
    if ((isUnreachable(e) || missingNamespace !== undefined) && extra.creating) {
      diagnostics.push(
        missingNamespace !== undefined
          ? warningAt(
              SPEC_PATH,
              `Namespace "${missingNamespace}" does not exist yet`,
              `job "${job.ID}" is planned as created without the scheduler's placements; it registers once the namespace exists (create it in this deploy, before the job)`,
            )
          : warningAt(
              SPEC_PATH,
              `Cannot reach the scheduler to plan job "${job.ID}"`,
              ctx.redact(
                `the job does not exist yet, so it is planned as created, without the scheduler's placements: ${errorMessage(e)}`,
              ),
            ),
      );
      return {
        action,
        prior: input.prior,
        planned: plannedAfterRegister(config, job),
        ...(extra.replacePaths ? { replacePaths: extra.replacePaths } : {}),
        private: { register: true, job, jobModifyIndex: 0 } satisfies JobPrivate,
        diagnostics,
      };
    }
    if (e instanceof ValidationError)
      return failed(input, [apiDiagnostic(ctx, `The scheduler rejected job "${job.ID}"`, e)]);
    if (isUnreachable(e) || e instanceof ApiError) {
      return failed(input, [apiDiagnostic(ctx, `Cannot plan job "${job.ID}"`, e)]);
    }
    throw e;
  }
  const index = resp.JobModifyIndex ?? 0;
  const replaced = input.replacing ? refOf(input.replacing.prior) : undefined;
  const inPlace =
    extra.creating &&
    index > 0 &&
    replaced?.id === job.ID &&
    replaced?.namespace === (job.Namespace ?? 'default');
  if (inPlace && !input.replacing!.destroyFirst) {
    return failed(input, [
      errorAt(
        SPEC_PATH,
        `Job "${job.ID}" cannot be replaced before it is destroyed`,
        'create_before_destroy needs the new job to have another ID (the scheduler has one job per ID); drop create_before_destroy or change the ID',
      ),
    ]);
  }
  let takeover: number | undefined;
  if (extra.creating && index > 0 && !inPlace) {
    try {
      takeover = await stoppedJobModifyIndex(ctx, job);
    } catch (e) {
      if (isUnreachable(e) || e instanceof ApiError) {
        return failed(input, [apiDiagnostic(ctx, `Cannot read job "${job.ID}"`, e)]);
      }
      throw e;
    }
    if (takeover === undefined) {
      return failed(input, [
        errorAt(
          SPEC_PATH,
          `Job "${job.ID}" already exists in namespace "${job.Namespace}" and is not stopped`,
          `a create takes over a stopped job only; import it with the ID "${job.ID}@${job.Namespace}", or give this job another ID`,
        ),
      ]);
    }
  }
  const placement = describePlacementFailures(resp.FailedTGAllocs);
  if (placement) {
    const summary = `The scheduler cannot place all allocations of job "${job.ID}"`;
    diagnostics.push(
      settings.failOnPlacementFailure
        ? errorAt(SPEC_PATH, summary, ctx.redact(placement))
        : warningAt(
            SPEC_PATH,
            summary,
            ctx.redact(`${placement}\n(a blocked evaluation will wait for capacity)`),
          ),
    );
  }
  if (resp.Warnings) diagnostics.push(warningAt(SPEC_PATH, 'The scheduler warns', ctx.redact(resp.Warnings)));
  return {
    action: hasErrors(diagnostics) ? 'noop' : action,
    prior: input.prior,
    planned: hasErrors(diagnostics) ? input.prior : plannedAfterRegister(config, job),
    ...(extra.replacePaths ? { replacePaths: extra.replacePaths } : {}),
    private: {
      register: true,
      job,
      jobModifyIndex: takeover ?? (extra.creating ? 0 : index),
      indexSeen: true,
      ...(extra.rerun ? { rerun: true } : {}),
      ...(inPlace ? { afterStop: true } : {}),
    } satisfies JobPrivate,
    annotations: { scheduler: annotations(resp) },
    diagnostics,
  };
}

/**
 * The JobModifyIndex of a stopped job with this ID (0: there is none any more), or undefined while it
 * runs. A destroy stops a job without purging it, as Nomad's provider does by default, so the stack
 * that destroyed it can create it again: the registration checks-and-sets on this index, so a job
 * that someone starts in between is never adopted.
 */
export async function stoppedJobModifyIndex(
  ctx: SchedProviderContext,
  job: Job,
): Promise<number | undefined> {
  try {
    const { value } = await ctx.client.jobs.read(job.ID!, { namespace: job.Namespace ?? 'default' });
    return value.Stop === true ? (value.JobModifyIndex ?? 0) : undefined;
  } catch (e) {
    if (e instanceof NotFoundError) return 0;
    throw e;
  }
}

function withCountsOf(job: Job, remote: Job): Job {
  return {
    ...job,
    TaskGroups: (job.TaskGroups ?? []).map((g) => {
      const there = (remote.TaskGroups ?? []).find((r) => r.Name === g.Name);
      return there ? { ...g, Count: there.Count } : g;
    }),
  };
}

/** Whether the cluster's rollout of its current version finished well (no deployment: nothing to wait for). */
async function rolloutSettled(
  ctx: SchedProviderContext,
  ref: JobRef,
  remote: Job,
  known: RemoteJob | undefined,
): Promise<boolean> {
  const d = known
    ? known.deployment
    : (await ctx.client.jobs.latestDeployment(ref.id, { namespace: ref.namespace })).value;
  if (d && d.JobVersion === remote.Version) return d.Status === 'successful';
  return true;
}

/** The spec recorded in the prior state, when it can be read without the cluster's help. */
function priorSpec(prior: State, defaults: SchedProviderContext['defaults']): Job | undefined {
  const text = prior['jobspec'];
  if (typeof text !== 'string' || detectFormat(text) !== 'json') return undefined;
  try {
    return resolveJob(parseJsonJobspec(text), defaults);
  } catch {
    return undefined;
  }
}

/**
 * `refreshed`: what the read that produced `prior` found on the cluster, when it was just made (the
 * refresh before a plan); the plan then compares against it instead of reading the job again.
 */
export async function planJob(
  ctx: SchedProviderContext,
  prior: State | null,
  config: Config | null,
  validation: Diagnostic[],
  refreshed?: Refreshed,
  req: { replacing?: { prior: State; destroyFirst: boolean }; serviceDiff?: boolean } = {},
): Promise<PlannedChange> {
  if (config === null) {
    return prior
      ? { action: 'delete', prior, planned: null, diagnostics: [] }
      : { action: 'noop', prior: null, planned: null, diagnostics: [] };
  }
  const input: PlanInput = {
    ctx,
    prior,
    config,
    settings: jobSettings(config),
    diagnostics: validation,
    ...(req.replacing ? { replacing: req.replacing } : {}),
    serviceDiff: req.serviceDiff !== false,
  };
  if (hasErrors(validation)) return failed(input, []);
  const text = config['jobspec'];
  const vars = config['hcl2_vars'];
  if (containsUnknown(text) || containsUnknown(vars) || typeof text !== 'string') {
    // Known at apply time only: apply reads the spec then and applies the same rules.
    return {
      action: prior ? 'update' : 'create',
      prior,
      planned: plannedAfterRegister(config, undefined),
      private: {
        register: true,
        jobModifyIndex: Number(prior?.['job_modify_index'] ?? 0),
      } satisfies JobPrivate,
      diagnostics: validation,
    };
  }

  if (refreshed === 'unchanged' && prior && heldUnchanged(prior, config, input.settings, ctx.defaults))
    return { action: 'noop', prior, planned: prior, diagnostics: validation };

  let job: Job;
  try {
    job = resolveJob(await loadJobspec(ctx.client, text, { vars: knownStringMap(vars) }), ctx.defaults);
  } catch (e) {
    if (e instanceof JobspecError) return failed(input, e.diagnostics);
    if (isUnreachable(e) && !prior) {
      return {
        action: 'create',
        prior,
        planned: plannedAfterRegister(config, undefined),
        private: { register: true, jobModifyIndex: 0 } satisfies JobPrivate,
        diagnostics: [
          ...validation,
          warningAt(
            SPEC_PATH,
            'Cannot reach the scheduler to parse the HCL jobspec',
            ctx.redact(`the job is planned as created; it is parsed at apply: ${errorMessage(e)}`),
          ),
        ],
      };
    }
    if (isUnreachable(e) || e instanceof ApiError)
      return failed(input, [apiDiagnostic(ctx, 'Cannot parse the jobspec', e)]);
    throw e;
  }
  const ref: JobRef = { id: job.ID!, namespace: job.Namespace ?? 'default' };
  const priorRef = refOf(prior);
  if (!prior || !priorRef) return planRegistration(input, 'create', job, { creating: true });

  if (
    priorRef.namespace !== ref.namespace ||
    (priorRef.id !== ref.id && input.settings.deregisterOnIdChange)
  ) {
    return planRegistration(input, 'replace', job, { creating: true, replacePaths: [SPEC_PATH] });
  }
  if (priorRef.id !== ref.id) {
    // The old job stays as it is (deregister_on_id_change = false); the new ID is registered.
    return planRegistration(input, 'update', job, { creating: true });
  }

  if (refreshed === 'unchanged' && plansNothing(prior, config, job, input.settings))
    return { action: 'noop', prior, planned: prior, diagnostics: validation };
  const known =
    refreshed &&
    refreshed !== 'unchanged' &&
    refreshed.job.ID === ref.id &&
    (refreshed.job.Namespace || 'default') === ref.namespace
      ? refreshed
      : undefined;
  let remote: Job | null;
  if (known) remote = known.job;
  else {
    try {
      ({ value: remote } = await ctx.client.jobs.read(ref.id, { namespace: ref.namespace }));
    } catch (e) {
      if (e instanceof NotFoundError) remote = null;
      else if (isUnreachable(e) || e instanceof ApiError)
        return failed(input, [apiDiagnostic(ctx, `Cannot read job "${ref.id}"`, e)]);
      else throw e;
    }
  }
  if (!remote) return planRegistration(input, 'update', job, { creating: true });

  // With preserve_counts the cluster's counts win, so a scaled group is not a difference.
  const differs = !sameSpec(input.settings.preserveCounts ? withCountsOf(job, remote) : job, remote);
  const textChanged = prior['jobspec'] !== text || !sameStringMap(prior['hcl2_vars'], vars);
  const rerun = input.settings.rerunIfDead && remote.Status === 'dead' && !differs;
  let register = differs || rerun;
  // Same spec as the cluster's: a reformat or an import needs no registration, but a spec whose
  // rollout failed is registered and waited for again. The last apply failing shows as new text (its
  // state keeps the spec applied before); a create adopted after a kill, whose rollout failed after
  // the kill, shows as the failed deployment its refresh recorded.
  const failedBefore = !register && !textChanged && prior['deployment_status'] === 'failed';
  if (!register && (textChanged || failedBefore)) {
    try {
      register = !(await rolloutSettled(ctx, ref, remote, known));
    } catch (e) {
      if (isUnreachable(e) || e instanceof ApiError)
        return failed(input, [apiDiagnostic(ctx, `Cannot read job "${ref.id}"`, e)]);
      throw e;
    }
  }
  if (!register) {
    const settingsChanged = PROVIDER_SETTINGS.some(
      (k) => !isDeepStrictEqual(prior[k] ?? null, config[k] ?? null),
    );
    if (!textChanged && !settingsChanged)
      return { action: 'noop', prior, planned: prior, diagnostics: validation };
    const planned: State = { ...prior, ...argumentsOf(config) };
    return {
      action: 'update',
      prior,
      planned,
      private: { register: false, jobModifyIndex: remote.JobModifyIndex ?? 0 } satisfies JobPrivate,
      diagnostics: validation,
    };
  }
  const diagnostics = [...validation];
  const applied = priorSpec(prior, ctx.defaults);
  if (differs && applied && !sameSpec(applied, remote)) {
    diagnostics.push(
      warningAt(
        SPEC_PATH,
        `Job "${ref.id}" was changed outside of this configuration`,
        `the cluster's copy differs at ${specDifferences(applied, remote).join(', ')}; the plan restores the configured spec`,
      ),
    );
  }
  if (failedBefore) {
    diagnostics.push(
      warningAt(
        SPEC_PATH,
        `The rollout of job "${ref.id}" version ${remote.Version ?? 0} failed`,
        'the plan registers the same spec again and waits for its deployment',
      ),
    );
  }
  if (rerun) {
    diagnostics.push(
      warningAt(SPEC_PATH, `Job "${ref.id}" is dead`, 'rerun_if_dead: it is purged and registered again'),
    );
  }
  return planRegistration({ ...input, diagnostics }, 'update', job, { creating: false, rerun });
}
