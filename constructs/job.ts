/**
 * `new Job(stack, 'web', { spec })`: a `sched_job` resource whose job is a typed spec (the API job,
 * durations as "30s"), checked at synth and written to the `jobspec` attribute as canonical JSON; or
 * `new Job(stack, 'web', Job.fromFile('web.nomad.hcl', { vars }))` for an HCL2 jobspec the cluster
 * parses at deploy time.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Lazy } from 'cdktf';
import type { Construct } from 'constructs';
import { UNKNOWN } from '../src/provider/values';
import { Job as JobResource, type JobConfig } from './generated/sched/job';
import { ValidJobSpecSchema } from './job-rules';
import type { JobSpec } from './job-spec';
import { containsToken, issueMessages, ruleErrorMap } from './spec-rules';
import { canonicalJson, escapeTemplate, jsonText } from './terraform-text';
import { addHandlerValidation } from './validation';

/** A jobspec given as text (HCL2, or API JSON), with values for its HCL2 variables. */
export interface JobText {
  /** The jobspec text, passed to the provider unchanged (template syntax is escaped for Terraform). */
  readonly jobspec: string;
  readonly vars?: Readonly<Record<string, string>>;
}

export type JobSource = { readonly spec: JobSpec } | JobText;

/** The resource's other arguments (detach, purgeOnDestroy, timeouts, ...) plus where the job comes from. */
export type JobProps = Omit<JobConfig, 'jobspec' | 'hcl2Vars'> & JobSource;

export interface FromFileOptions {
  /** Values of the jobspec's HCL2 variables (`hcl2_vars`). */
  readonly vars?: Readonly<Record<string, string>>;
}

export class Job extends JobResource {
  /**
   * Reads a jobspec file (HCL2, or API JSON) now, relative to the working directory; the cluster
   * parses it at deploy time with `vars`.
   */
  static fromFile(file: string, opts: FromFileOptions = {}): JobText {
    const jobspec = readFileSync(path.resolve(file), 'utf8');
    return opts.vars ? { jobspec, vars: opts.vars } : { jobspec };
  }

  /** The typed spec, when the job was given as one. */
  readonly spec: JobSpec | undefined;
  private readonly sourceText: string | undefined;
  private readonly sourceVars: Readonly<Record<string, string>> | undefined;

  constructor(scope: Construct, id: string, props: JobProps) {
    const { spec, jobspec, vars, ...settings } = props as Partial<{ spec: JobSpec } & JobText> &
      Omit<JobConfig, 'jobspec' | 'hcl2Vars'>;
    super(scope, id, {
      ...settings,
      jobspec: '',
      ...(vars
        ? { hcl2Vars: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, escapeTemplate(v)])) }
        : {}),
    });
    this.spec = spec;
    this.sourceText = spec === undefined ? jobspec : undefined;
    this.sourceVars = vars;
    if (spec !== undefined) {
      // Rendered when synthesized, so the spec is validated (and its durations converted) at synth.
      this.jobspec = Lazy.stringValue({ produce: () => this.renderSpec() });
      this.node.addValidation({ validate: () => this.specErrors() });
      if (jobspec !== undefined || vars !== undefined) {
        this.node.addValidation({
          validate: () => ['spec: give either spec or jobspec (with vars), not both'],
        });
      }
    } else if (typeof jobspec === 'string') {
      this.jobspec = escapeTemplate(jobspec);
    }
    addHandlerValidation(this, {
      provider: 'sched',
      typeName: 'sched_job',
      attributes: () => this.handlerAttributes(),
    });
  }

  /** As the handler will get them after Terraform read the escapes; a spec only once it is valid. */
  private handlerAttributes(): Record<string, unknown> {
    const attrs: Record<string, unknown> = { ...this.synthesizeAttributes(), hcl2_vars: this.sourceVars };
    if (this.spec === undefined) {
      attrs['jobspec'] = this.sourceText;
    } else {
      const parsed = this.parseSpec();
      attrs['jobspec'] = parsed.success && !containsToken(parsed.data) ? jsonText(parsed.data) : UNKNOWN;
    }
    return attrs;
  }

  private parseSpec() {
    return ValidJobSpecSchema.safeParse(this.spec, { error: ruleErrorMap });
  }

  private specErrors(): string[] {
    const parsed = this.parseSpec();
    return parsed.success ? [] : issueMessages('spec', parsed.error);
  }

  private renderSpec(): string {
    const parsed = this.parseSpec();
    if (!parsed.success) {
      throw new Error(
        `${this.node.path}: invalid job spec:\n  ${issueMessages('spec', parsed.error).join('\n  ')}`,
      );
    }
    return canonicalJson(parsed.data);
  }
}
