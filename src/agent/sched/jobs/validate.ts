/**
 * Job validation at registration, as Nomad's Job.Validate: every problem found, each naming the
 * field path and the rule, so one round trip tells the user everything to fix.
 */
import { compileRe2 } from '../../../common/re2';
import type { Job } from '../model';
import { KNOWN_OPERANDS } from '../scheduler/constraints';
import { parseCron } from './cron';

const JOB_TYPES = new Set(['service', 'batch', 'system', 'sysbatch']);

export class JobValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? problems[0]
        : `${problems.length} errors occurred:\n\t* ${problems.join('\n\t* ')}`,
    );
    this.name = 'JobValidationError';
  }
}

interface ConstraintLike {
  LTarget?: string | null;
  RTarget?: string | null;
  Operand?: string | null;
}

function checkConstraints(list: ConstraintLike[] | null | undefined, path: string, problems: string[]): void {
  (list ?? []).forEach((c, i) => {
    const op = c.Operand ?? '=';
    const at = `${path}[${i}]`;
    if (!KNOWN_OPERANDS.has(op)) problems.push(`${at}.Operand: unknown constraint operand "${op}"`);
    if (op === 'regexp') {
      try {
        compileRe2(c.RTarget ?? '');
      } catch (e) {
        problems.push(`${at}.RTarget: regular expression does not compile: ${(e as Error).message}`);
      }
    }
    if (
      !['distinct_hosts', 'distinct_property', 'is_set', 'is_not_set'].includes(op) &&
      !c.LTarget &&
      !c.RTarget
    ) {
      problems.push(`${at}: a constraint needs an LTarget or an RTarget`);
    }
  });
}

export function validateJob(job: Job): void {
  const p: string[] = [];
  if (!job.ID) p.push('Job.ID: missing job ID');
  else {
    if (/\s/.test(job.ID)) p.push(`Job.ID: job ID contains a space`);
    if (job.ID.includes('\u0000')) p.push(`Job.ID: job ID contains a null character`);
    if (job.ID.length > 128) p.push(`Job.ID: job ID is longer than 128 characters`);
  }
  if (!job.Name) p.push('Job.Name: missing job name');
  if (job.Type && !JOB_TYPES.has(job.Type))
    p.push(`Job.Type: invalid job type "${job.Type}" (service, batch, system or sysbatch)`);
  if (job.Priority != null && (job.Priority < 1 || job.Priority > 100 || !Number.isInteger(job.Priority))) {
    p.push(`Job.Priority: job priority must be between [1, 100], got ${job.Priority}`);
  }
  if (!job.Datacenters || job.Datacenters.length === 0) p.push('Job.Datacenters: missing job datacenters');
  checkConstraints(job.Constraints, 'Job.Constraints', p);
  const groups = job.TaskGroups ?? [];
  if (groups.length === 0) p.push('Job.TaskGroups: missing job task groups');
  const groupNames = new Set<string>();
  groups.forEach((g, gi) => {
    const gp = `Job.TaskGroups[${gi}]`;
    if (!g.Name) p.push(`${gp}.Name: missing task group name`);
    else if (groupNames.has(g.Name)) p.push(`${gp}.Name: task group "${g.Name}" is defined more than once`);
    else groupNames.add(g.Name);
    if (g.Count != null && (g.Count < 0 || !Number.isInteger(g.Count)))
      p.push(`${gp}.Count: task group count must be a non-negative integer, got ${g.Count}`);
    checkConstraints(g.Constraints, `${gp}.Constraints`, p);
    const rp = g.RestartPolicy;
    if (rp?.Mode && rp.Mode !== 'delay' && rp.Mode !== 'fail')
      p.push(`${gp}.RestartPolicy.Mode: must be "delay" or "fail", got "${rp.Mode}"`);
    if (rp?.Attempts != null && rp.Attempts < 0) p.push(`${gp}.RestartPolicy.Attempts: must be >= 0`);
    const sp = g.ReschedulePolicy;
    if (sp?.DelayFunction && !['constant', 'exponential', 'fibonacci'].includes(sp.DelayFunction)) {
      p.push(
        `${gp}.ReschedulePolicy.DelayFunction: must be constant, exponential or fibonacci, got "${sp.DelayFunction}"`,
      );
    }
    const u = g.Update ?? job.Update;
    if (u) {
      const up = g.Update ? `${gp}.Update` : 'Job.Update';
      if ((u.MaxParallel ?? 0) < 0) p.push(`${up}.MaxParallel: must be >= 0`);
      if ((u.Canary ?? 0) < 0) p.push(`${up}.Canary: must be >= 0`);
      if (u.HealthCheck && !['checks', 'task_states', 'manual'].includes(u.HealthCheck)) {
        p.push(`${up}.HealthCheck: must be checks, task_states or manual, got "${u.HealthCheck}"`);
      }
      if ((u.MaxParallel ?? 0) > 0) {
        if (u.MinHealthyTime != null && u.HealthyDeadline != null && u.MinHealthyTime >= u.HealthyDeadline) {
          p.push(`${up}.MinHealthyTime: minimum healthy time must be less than the healthy deadline`);
        }
        if (u.ProgressDeadline && u.HealthyDeadline != null && u.HealthyDeadline >= u.ProgressDeadline) {
          p.push(`${up}.HealthyDeadline: healthy deadline must be less than the progress deadline`);
        }
        if ((u.Canary ?? 0) === 0 && u.AutoPromote)
          p.push(`${up}.AutoPromote: auto_promote needs canaries (canary > 0)`);
      }
    }
    const tasks = g.Tasks ?? [];
    if (tasks.length === 0) p.push(`${gp}.Tasks: missing tasks for task group`);
    const taskNames = new Set<string>();
    tasks.forEach((t, ti) => {
      const tp = `${gp}.Tasks[${ti}]`;
      if (!t.Name) p.push(`${tp}.Name: missing task name`);
      else if (taskNames.has(t.Name)) p.push(`${tp}.Name: task "${t.Name}" is defined more than once`);
      else taskNames.add(t.Name);
      if (!t.Driver) p.push(`${tp}.Driver: missing task driver`);
      if (t.Resources?.CPU != null && t.Resources.CPU < 1)
        p.push(`${tp}.Resources.CPU: minimum CPU value is 1, got ${t.Resources.CPU}`);
      if (t.Resources?.MemoryMB != null && t.Resources.MemoryMB < 10) {
        p.push(`${tp}.Resources.MemoryMB: minimum MemoryMB value is 10, got ${t.Resources.MemoryMB}`);
      }
      checkConstraints(t.Constraints, `${tp}.Constraints`, p);
    });
  });
  if (job.Periodic && job.Periodic.Enabled !== false) {
    if ((job.Periodic.SpecType ?? 'cron') !== 'cron')
      p.push(`Job.Periodic.SpecType: unknown periodic specification type "${job.Periodic.SpecType}"`);
    const specs =
      job.Periodic.Specs && job.Periodic.Specs.length > 0 ? job.Periodic.Specs : [job.Periodic.Spec ?? ''];
    for (const s of specs) {
      try {
        parseCron(s);
      } catch (e) {
        p.push(`Job.Periodic.Spec: invalid cron spec "${s}": ${(e as Error).message}`);
      }
    }
    if (job.Type === 'service' || job.Type === 'system')
      p.push(`Job.Periodic: periodic can only be used with "batch" or "sysbatch" jobs`);
  }
  if (job.ParameterizedJob) {
    const mode = job.ParameterizedJob.Payload ?? 'optional';
    if (!['optional', 'required', 'forbidden'].includes(mode)) {
      p.push(`Job.ParameterizedJob.Payload: must be optional, required or forbidden, got "${mode}"`);
    }
    if (job.Type === 'service' || job.Type === 'system')
      p.push(`Job.ParameterizedJob: parameterized job can only be used with "batch" or "sysbatch" jobs`);
  }
  if (p.length > 0) throw new JobValidationError(p);
}
