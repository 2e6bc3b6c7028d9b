/**
 * Plan requests by their text. A deploy asks for the same dry run twice per job (the plan, then the
 * deploy's own check), and a `plan` of an unchanged project sends what the last one sent: parsing,
 * validating and canonicalizing that text again would give the same job every time.
 */
import { JobPlanRequestSchema } from '../../../api/sched/schemas';
import { badRequest } from '../../http/errors';
import type { RequestContext } from '../../http/router';
import type { Job } from '../model';
import { namespaceOf, parseBody } from './common';
import { prepareJob } from '../jobs/register';

export interface PlanRequest {
  /** Canonical and valid; frozen, since every plan of this text shares it. */
  job: Job;
  diff: boolean;
}

/** Bounds on what is remembered: the most recent requests, up to this many and this much text. */
const MAX_ENTRIES = 1024;
const MAX_TEXT_CHARS = 16 * 1024 * 1024;

export class PlanRequests {
  private readonly seen = new Map<string, PlanRequest>();
  private chars = 0;

  /** The request's job and options; throws the same 400s as parsing it afresh would. */
  async read(ctx: RequestContext): Promise<PlanRequest> {
    // The query's namespace is the default for a job that names none: it is part of what the text means.
    const key = `${namespaceOf(ctx)}\u0000${(await ctx.raw()).toString('utf8')}`;
    const hit = this.seen.get(key);
    if (hit) {
      this.seen.delete(key);
      this.seen.set(key, hit);
      return hit;
    }
    const body = await parseBody(ctx, JobPlanRequestSchema, 'Job');
    if (!body.Job) throw badRequest('Job: job is required');
    const job = prepareJob(body.Job as Job, body.Job.Namespace || namespaceOf(ctx));
    const request: PlanRequest = { job: freezeDeep(job), diff: Boolean(body.Diff) };
    this.remember(key, request);
    return request;
  }

  private remember(key: string, request: PlanRequest): void {
    if (key.length > MAX_TEXT_CHARS) return;
    this.seen.set(key, request);
    this.chars += key.length;
    for (const [oldest] of this.seen) {
      if (this.seen.size <= MAX_ENTRIES && this.chars <= MAX_TEXT_CHARS) break;
      this.seen.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) freezeDeep(v);
  }
  return value;
}
