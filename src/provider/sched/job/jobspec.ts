/**
 * From the `jobspec` text to an API job. JSON is read here (with or without the `{"Job": ...}` wrapper
 * that `nomad job run -json` takes); anything else is HCL2 and goes to the cluster's parse endpoint,
 * which owns the HCL language, its functions and variable rules.
 */
import { neutralJob } from '../../../api/dialect/nomad-jobspec';
import { copyJson } from '../../../api/json-copy';
import { formatIssuePath } from '../../../api/issue-path';
import { safeParseFast } from '../../../api/zod-fast-parse';
import { JobSchema, type Job } from '../../../api/sched/schemas/job';
import type { SchedClient } from '../../../api/sched/client';
import { ValidationError } from '../../../api/errors';
import type { Diagnostic } from '../../values';
import { errorAt, warningAt } from '../../common/shape';

export type JobspecFormat = 'json' | 'hcl2';

const PATH = ['jobspec'];

/** The spec is a job, not a diagnostic-free guess: errors name the field and the rule. */
export class JobspecError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.summary}${d.detail ? `: ${d.detail}` : ''}`).join('; '));
    this.name = 'JobspecError';
  }
}

export function detectFormat(text: string): JobspecFormat {
  return /^\s*[{[]/.test(text) ? 'json' : 'hcl2';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where in the text a JSON.parse error points, as "line L, column C". */
function jsonPosition(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  if (!m) return '';
  const pos = Number(m[1]);
  const before = text.slice(0, pos).split('\n');
  return ` (line ${before.length}, column ${before[before.length - 1]!.length + 1})`;
}

/** Rules checked on every job before it goes anywhere: the ones the server would also reject. */
export function checkJob(job: Job): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (typeof job.ID !== 'string' || job.ID === '') {
    out.push(errorAt(PATH, 'Invalid jobspec', 'field ID: the job needs an ID'));
  } else if (/[\s\0]/.test(job.ID)) {
    out.push(errorAt(PATH, 'Invalid jobspec', 'field ID: must not contain spaces or null characters'));
  }
  if (job.Type != null && !['service', 'batch', 'system', 'sysbatch'].includes(job.Type)) {
    out.push(errorAt(PATH, 'Invalid jobspec', `field Type: must be service, batch, system or sysbatch`));
  }
  if (job.Priority != null && (job.Priority < 1 || job.Priority > 100)) {
    out.push(errorAt(PATH, 'Invalid jobspec', 'field Priority: must be between 1 and 100'));
  }
  const groups = job.TaskGroups ?? [];
  if (groups.length === 0) {
    out.push(errorAt(PATH, 'Invalid jobspec', 'field TaskGroups: the job needs at least one task group'));
  }
  const seen = new Set<string>();
  groups.forEach((g, i) => {
    if (!g.Name) out.push(errorAt(PATH, 'Invalid jobspec', `field TaskGroups[${i}].Name: is required`));
    else if (seen.has(g.Name))
      out.push(errorAt(PATH, 'Invalid jobspec', `field TaskGroups[${i}].Name: "${g.Name}" is used twice`));
    else seen.add(g.Name);
    if (g.Count != null && g.Count < 0)
      out.push(errorAt(PATH, 'Invalid jobspec', `field TaskGroups[${i}].Count: must not be negative`));
    if ((g.Tasks ?? []).length === 0)
      out.push(errorAt(PATH, 'Invalid jobspec', `field TaskGroups[${i}].Tasks: the group needs a task`));
  });
  return out;
}

/**
 * The last few texts parsed, with their outcome: validation, the plan and the apply of one resource
 * each parse the same text, and the schema check is most of a plan's own CPU time. Callers get a copy.
 */
const PARSED_KEEP = 64;
const recentParses = new Map<string, Job | JobspecError>();

/** The parse of `text`, from the recent ones when it is there. */
function parseJsonCached(text: string): Job | JobspecError {
  let outcome = recentParses.get(text);
  if (outcome === undefined) {
    try {
      outcome = parseJsonUncached(text);
    } catch (e) {
      if (!(e instanceof JobspecError)) throw e;
      outcome = e;
    }
    if (recentParses.size >= PARSED_KEEP) recentParses.delete(recentParses.keys().next().value!);
    recentParses.set(text, outcome);
  }
  return outcome;
}

function copiedDiagnostics(e: JobspecError): Diagnostic[] {
  return e.diagnostics.map((d) => ({ ...d }));
}

/** Reads a JSON jobspec; throws JobspecError naming the problem. */
export function parseJsonJobspec(text: string): Job {
  const outcome = parseJsonCached(text);
  if (outcome instanceof JobspecError) throw new JobspecError(copiedDiagnostics(outcome));
  return copyJson(outcome);
}

/** What parseJsonJobspec would throw, without copying the job a validation does not keep. */
function jsonJobspecProblems(text: string): Diagnostic[] {
  const outcome = parseJsonCached(text);
  return outcome instanceof JobspecError ? copiedDiagnostics(outcome) : [];
}

function parseJsonUncached(text: string): Job {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    throw new JobspecError([errorAt(PATH, 'Invalid JSON jobspec', `${msg}${jsonPosition(text, msg)}`)]);
  }
  if (isRecord(raw) && isRecord(raw['Job']) && raw['ID'] === undefined) raw = raw['Job'];
  if (!isRecord(raw))
    throw new JobspecError([errorAt(PATH, 'Invalid jobspec', 'the JSON must be a job object')]);
  const job = neutralJob(raw);
  const parsed = safeParseFast(JobSchema, job);
  if (!parsed.success) {
    // A missing ID reads better as the rule than as a type error.
    const missingId = typeof job['ID'] !== 'string';
    const issues = parsed.error.issues.filter(
      (i) => !(missingId && i.path.length === 1 && i.path[0] === 'ID'),
    );
    throw new JobspecError([
      ...(missingId ? [errorAt(PATH, 'Invalid jobspec', 'field ID: the job needs an ID')] : []),
      ...issues
        .slice(0, 5)
        .map((i) => errorAt(PATH, 'Invalid jobspec', `field ${formatIssuePath(i.path)}: ${i.message}`)),
    ]);
  }
  const problems = checkJob(parsed.data);
  if (problems.length > 0) throw new JobspecError(problems);
  return parsed.data;
}

/**
 * Static checks that need no cluster: JSON is parsed, HCL only gets the checks that apply to it.
 * `held`: the text is one the cluster holds a job registered from (it passed these checks then).
 */
export function validateJobspec(
  text: string,
  vars: Record<string, string> | undefined,
  opts: { held?: boolean } = {},
): Diagnostic[] {
  if (text.trim() === '') return [errorAt(PATH, 'Invalid jobspec', 'the jobspec is empty')];
  if (detectFormat(text) === 'json') {
    const out = opts.held ? [] : jsonJobspecProblems(text);
    if (vars && Object.keys(vars).length > 0) {
      out.push(
        warningAt(['hcl2_vars'], 'hcl2_vars is ignored', 'the jobspec is JSON; variables apply to HCL2 only'),
      );
    }
    return out;
  }
  const out: Diagnostic[] = [];
  for (const name of Object.keys(vars ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      out.push(errorAt(['hcl2_vars', name], 'Invalid variable name', 'use letters, digits, "_" and "-"'));
    }
  }
  return out;
}

/** Variable values in the var-file form the parse endpoint takes. */
export function hclVariables(vars: Record<string, string> | undefined): string {
  if (!vars) return '';
  return Object.entries(vars)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => {
      // A var-file value is an HCL string template: `${` and `%{` would be interpolated, so escape them.
      const literal = JSON.stringify(v)
        .replace(/\$\{/g, () => '$${')
        .replace(/%\{/g, () => '%%{');
      return `${k} = ${literal}\n`;
    })
    .join('');
}

export interface LoadOptions {
  vars?: Record<string, string>;
  signal?: AbortSignal;
}

/** The API job the text describes. HCL needs the cluster; its errors come back as JobspecError. */
export async function loadJobspec(client: SchedClient, text: string, opts: LoadOptions = {}): Promise<Job> {
  if (detectFormat(text) === 'json') return parseJsonJobspec(text);
  let job: Job;
  try {
    ({ value: job } = await client.jobs.parse(
      { JobHCL: text, Variables: hclVariables(opts.vars), Canonicalize: false },
      { signal: opts.signal },
    ));
  } catch (e) {
    if (e instanceof ValidationError) {
      throw new JobspecError([errorAt(PATH, 'Invalid HCL jobspec', e.serverMessage || e.message)]);
    }
    throw e;
  }
  const problems = checkJob(job);
  if (problems.length > 0) throw new JobspecError(problems);
  return job;
}

export interface JobDefaults {
  namespace?: string;
  region?: string;
}

/**
 * The job as it will be registered: the namespace and region the provider would send it to written
 * into the job, so the comparison with the cluster's copy and the request agree.
 */
export function resolveJob(job: Job, defaults: JobDefaults): Job {
  const out: Job = { ...job };
  out.Namespace = job.Namespace || defaults.namespace || 'default';
  if (!job.Region && defaults.region) out.Region = defaults.region;
  return out;
}
