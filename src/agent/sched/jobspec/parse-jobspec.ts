import { z } from 'zod';
import { JobSchema, type Job } from '../../../api/sched/schemas';
import type { Block } from './ast';
import { decodeBody } from './decode';
import { JobspecError, formatRange } from './errors';
import type { EvalContext } from './evaluate';
import { parseHcl } from './parser';
import { jobSchema } from './schema-job';
import { applyVariableFile, declareVariables, evaluateLocals, variableValues } from './variables';

export interface ParseJobspecOptions {
  /** Variable-file text (`name = value` lines) whose values override variable defaults. */
  variables?: string;
  /** The name errors use for the jobspec; Nomad's parse endpoint uses `input.hcl`. */
  filename?: string;
  /** The name errors use for the variables text. */
  variablesFilename?: string;
}

const TOP_LEVEL = ['variable', 'variables', 'locals', 'job'];

/**
 * Converts an HCL2 jobspec into an API job, as Nomad's jobspec2 package does: variables,
 * locals, functions and dynamic blocks are evaluated; references to names the scheduler only
 * knows at run time (`${attr.kernel.name}`, `${NOMAD_PORT_http}`) are kept as text; durations
 * become nanoseconds. Throws JobspecError (with file, line and column) on any problem.
 */
export function parseJobspec(hcl: string, opts: ParseJobspecOptions = {}): Job {
  const filename = opts.filename ?? 'input.hcl';
  const first = /\S/.exec(hcl);
  if (first?.[0] === '{') {
    throw new JobspecError(
      'Unsupported jobspec format',
      'This looks like JSON; only the HCL native syntax is accepted here. Submit a JSON job to the jobs endpoint directly.',
      { filename, start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } },
    );
  }
  const body = parseHcl(hcl, filename);
  for (const a of body.attributes) {
    throw new JobspecError(
      'Unsupported argument',
      `An argument named "${a.name}" is not expected here.`,
      a.nameRange,
    );
  }
  for (const b of body.blocks) {
    if (!TOP_LEVEL.includes(b.type)) {
      throw new JobspecError(
        'Unsupported block type',
        `Blocks of type "${b.type}" are not expected here.`,
        b.typeRange,
      );
    }
  }

  const vars = declareVariables(body.blocks, hcl);
  applyVariableFile(vars, opts.variables ?? '', opts.variablesFilename ?? 'variables.hcl');
  const base: EvalContext = {
    text: hcl,
    variables: variableValues(vars, hcl),
    locals: {},
    scope: new Map(),
    keepUnknown: true,
  };
  const ctx: EvalContext = { ...base, locals: evaluateLocals(body.blocks, base) };

  const jobs = body.blocks.filter((b) => b.type === 'job');
  const job = jobs[0];
  if (!job) throw new JobspecError('Missing job block', 'A job block is required', body.range);
  const dup = jobs[1];
  if (dup) {
    throw new JobspecError(
      'Duplicate job block',
      `Only one block of type "job" is allowed. Previous definition was at ${formatRange(job.defRange)}.`,
      dup.defRange,
    );
  }
  checkJobLabel(job);
  const result = JobSchema.safeParse(decodeBody(job.body, jobSchema, ctx, job));
  if (!result.success) {
    // The decoder only produces API-shaped values, so this points at a gap between the two.
    throw new JobspecError('Invalid job', z.prettifyError(result.error), job.defRange);
  }
  return result.data;
}

function checkJobLabel(job: Block): void {
  if (job.labels.length === 0) {
    throw new JobspecError('Missing name for job', 'All job blocks must have 1 labels (name).', job.defRange);
  }
  if (job.labels.length > 1) {
    throw new JobspecError(
      'Extraneous label for job',
      'Only 1 labels (name) are expected for job blocks.',
      job.labelRanges[1],
    );
  }
}
