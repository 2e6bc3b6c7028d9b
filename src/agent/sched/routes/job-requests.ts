/**
 * The job of a plan or register request, prepared (parsed, validated, canonicalized) once per job
 * content. A deploy sends each job three times (the plan's dry run, the deploy's own dry run, the
 * registration) and a `plan` of an unchanged project sends what the last one sent; canonical form
 * does not depend on key order, so the same content always prepares to the same job.
 */
import type { z } from 'zod';
import { badRequest } from '../../http/errors';
import { adoptJsonForm } from '../../store';
import type { RequestContext } from '../../http/router';
import { prepareJob } from '../jobs/register';
import type { Job } from '../model';
import { checkBody, namespaceOf } from './common';

type JobRequestSchema = z.ZodObject<{ Job: z.ZodType }>;

export interface JobRequest<S extends JobRequestSchema> {
  body: z.infer<S>;
  /** Canonical and valid; frozen when it is shared with later requests of the same content. */
  job: Job;
}

/** Bounds on what is remembered: the most recent jobs, up to this many and this much text. */
const MAX_ENTRIES = 1024;
const MAX_KEY_CHARS = 16 * 1024 * 1024;

export class JobRequests {
  private readonly prepared = new Map<string, Job>();
  private readonly rests = new WeakMap<JobRequestSchema, z.ZodType>();
  private chars = 0;

  /** The body checked against `schema` and its job prepared; throws the 400s a fresh parse would. */
  async read<S extends JobRequestSchema>(ctx: RequestContext, schema: S): Promise<JobRequest<S>> {
    const raw = await ctx.json();
    if (raw === undefined) throw badRequest('Job: request body is required');
    const incoming = isRecord(raw) ? raw['Job'] : undefined;
    // The query's namespace is the default for a job that names none: it is part of what the job means.
    const key = isRecord(incoming) ? `${namespaceOf(ctx)}\u0000${contentKey(incoming)}` : undefined;
    const known = key === undefined ? undefined : this.prepared.get(key);
    if (known) {
      // The job was valid when first seen; the rest of the body is checked as the full schema would.
      const body = checkBody(raw, this.restOf(schema), 'Job') as z.infer<S>;
      return { body: { ...body, Job: known }, job: known };
    }
    const body = checkBody(raw, schema, 'Job');
    const job = body.Job as Job | null | undefined;
    if (!job) throw badRequest('Job: job is required');
    const prepared = prepareJob(job, job.Namespace || namespaceOf(ctx));
    // Canonical form is a fresh tree of JSON values: as a stored value, every record that embeds it
    // (the job, its versions, a dry run's copy) shares it instead of copying it. Only such a job,
    // frozen by the adoption, is safe to hand to the next request with the same content.
    if (adoptJsonForm(prepared) && key !== undefined) this.remember(key, prepared);
    return { body, job: prepared };
  }

  /** The schema without its Job (made once per schema). */
  private restOf(schema: JobRequestSchema): z.ZodType {
    let rest = this.rests.get(schema);
    if (!rest) this.rests.set(schema, (rest = schema.omit({ Job: true })));
    return rest;
  }

  private remember(key: string, job: Job): void {
    if (key.length > MAX_KEY_CHARS) return;
    this.prepared.set(key, job);
    this.chars += key.length;
    for (const [oldest] of this.prepared) {
      if (this.prepared.size <= MAX_ENTRIES && this.chars <= MAX_KEY_CHARS) break;
      this.prepared.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The job's JSON text with its top-level keys sorted (clients put Namespace in different places).
 * Equal keys mean equal content; content that differs only in nested key order merely misses.
 */
function contentKey(job: Record<string, unknown>): string {
  return Object.keys(job)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(job[k]) ?? ''}`)
    .join(',');
}
