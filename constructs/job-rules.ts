/**
 * Rules of a job spec that span fields (unique names, ordered deadlines, features restricted to some
 * job types), the ones the scheduler enforces at registration. Checked at synth so a mistake names
 * the construct instead of failing a deploy halfway.
 */
import { z } from 'zod';
import { JobSpecSchema, type JobSpecOutput } from './job-spec';
import { isToken } from './spec-rules';

type Ctx = z.core.$RefinementCtx<JobSpecOutput>;
type Update = NonNullable<JobSpecOutput['Update']>;

const known = (v: number | null | undefined): v is number => typeof v === 'number' && !isToken(v);

function checkUpdate(u: Update, path: PropertyKey[], ctx: Ctx): void {
  // As the scheduler: deadlines only matter when the group updates in steps (MaxParallel > 0).
  if (!known(u.MaxParallel) || u.MaxParallel === 0) return;
  if (known(u.MinHealthyTime) && known(u.HealthyDeadline) && u.MinHealthyTime >= u.HealthyDeadline) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'MinHealthyTime'],
      message: 'must be less than HealthyDeadline',
    });
  }
  if (
    known(u.HealthyDeadline) &&
    known(u.ProgressDeadline) &&
    u.ProgressDeadline > 0 &&
    u.HealthyDeadline >= u.ProgressDeadline
  ) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'HealthyDeadline'],
      message: 'must be less than ProgressDeadline',
    });
  }
  if (u.AutoPromote === true && (!known(u.Canary) || u.Canary === 0) && !isToken(u.Canary)) {
    ctx.addIssue({ code: 'custom', path: [...path, 'AutoPromote'], message: 'needs canaries (Canary > 0)' });
  }
}

function checkUnique(
  names: readonly (string | undefined)[],
  path: (i: number) => PropertyKey[],
  what: string,
  ctx: Ctx,
): void {
  const seen = new Set<string>();
  names.forEach((n, i) => {
    if (n === undefined || isToken(n)) return;
    if (seen.has(n))
      ctx.addIssue({ code: 'custom', path: path(i), message: `${what} "${n}" is defined more than once` });
    seen.add(n);
  });
}

export function checkJobRules(job: JobSpecOutput, ctx: Ctx): void {
  const batchLike = job.Type === 'batch' || job.Type === 'sysbatch';
  if (job.Periodic && job.Periodic.Enabled !== false && !batchLike && !isToken(job.Type)) {
    ctx.addIssue({ code: 'custom', path: ['Periodic'], message: 'needs Type "batch" or "sysbatch"' });
  }
  if (job.ParameterizedJob && !batchLike && !isToken(job.Type)) {
    ctx.addIssue({ code: 'custom', path: ['ParameterizedJob'], message: 'needs Type "batch" or "sysbatch"' });
  }
  if (job.Update) checkUpdate(job.Update, ['Update'], ctx);
  checkUnique(
    job.TaskGroups.map((g) => g.Name),
    (i) => ['TaskGroups', i, 'Name'],
    'task group',
    ctx,
  );
  job.TaskGroups.forEach((g, gi) => {
    if (g.Update)
      checkUpdate({ ...job.Update, ...stripNullish(g.Update) }, ['TaskGroups', gi, 'Update'], ctx);
    checkUnique(
      g.Tasks.map((t) => t.Name),
      (ti) => ['TaskGroups', gi, 'Tasks', ti, 'Name'],
      'task',
      ctx,
    );
    g.Tasks.forEach((t, ti) => {
      const r = t.Resources;
      if (r && known(r.MemoryMaxMB) && known(r.MemoryMB) && r.MemoryMaxMB > 0 && r.MemoryMaxMB < r.MemoryMB) {
        ctx.addIssue({
          code: 'custom',
          path: ['TaskGroups', gi, 'Tasks', ti, 'Resources', 'MemoryMaxMB'],
          message: 'must be at least MemoryMB',
        });
      }
    });
  });
}

/** A group's update block inherits the job's for the fields it leaves unset. */
function stripNullish<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** The job spec with its cross-field rules: parse with this one. */
export const ValidJobSpecSchema = JobSpecSchema.superRefine(checkJobRules);
