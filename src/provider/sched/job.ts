/**
 * `sched_job`: a job on the scheduler. The spec is compared in canonical form with the cluster's copy
 * (so only real changes, including changes made on the cluster, plan a registration), registered with
 * check-and-set, and followed through its deployment. See job/ for each step.
 */
import { SERVER_MANAGED_JOB_FIELDS } from '../../api/sched/canonicalize';
import type { Job } from '../../api/sched/schemas';
import type { ApplyContext, Config, PlannedChange, ResourceHandler, State } from '../resource';
import type { Diagnostic } from '../values';
import { knownStringMap, validateShape } from '../common/shape';
import type { SchedProviderContext } from './context';
import { applyJob } from './job/apply';
import { validateJobspec } from './job/jobspec';
import { argumentsOf, planJob, refOf, type Refreshed } from './job/plan';
import { unchangedByIndex } from './job/refresh-by-index';
import { jobShape } from './job/schema';
import { computedAttributes, fetchRemote, type RemoteJob } from './job/state';

export const JOB_DESCRIPTION =
  'A job on the scheduler: registered from a JSON or HCL2 jobspec, updated with check-and-set, and followed through its deployment.';

/** `held`: the cluster holds a job registered from this very jobspec text, so its parse is not repeated. */
export function validateJobConfig(config: Config, held = false): Diagnostic[] {
  const out = validateShape(jobShape, config);
  const text = config['jobspec'];
  if (typeof text === 'string')
    out.push(...validateJobspec(text, knownStringMap(config['hcl2_vars']), { held }));
  return out;
}

/** `<id>@<namespace>`, the namespace optional (the provider's, else "default"). */
export function parseImportId(
  id: string,
  defaultNamespace: string | undefined,
): { id: string; namespace: string } {
  const at = id.lastIndexOf('@');
  const jobId = at >= 0 ? id.slice(0, at) : id;
  const ns = at >= 0 ? id.slice(at + 1) : '';
  if (!jobId) throw new Error(`import ID "${id}" has no job ID: use <id> or <id>@<namespace>`);
  return { id: jobId, namespace: ns || defaultNamespace || 'default' };
}

/** The cluster's job as a JSON jobspec (without the fields the server manages). */
function jobspecOf(job: Job): string {
  const copy: Record<string, unknown> = { ...job };
  for (const k of SERVER_MANAGED_JOB_FIELDS) delete copy[k];
  return JSON.stringify(copy, null, 2);
}

function refreshKey(state: State): string {
  return JSON.stringify([
    state['id'],
    state['namespace'],
    state['version'],
    state['job_modify_index'],
    state['status'],
  ]);
}

export class SchedJobHandler implements ResourceHandler {
  readonly typeName = 'sched_job';
  readonly description = JOB_DESCRIPTION;
  readonly shape = jobShape;
  readonly version = 0;

  /**
   * What each state read() returned was read from, so the plan that follows a refresh compares with it
   * instead of reading the job a second time. Keyed by what the read put in the state (job, version,
   * modify index, status), not by the object, because the Terraform plugin hands the plan a decoded
   * copy; taken once, by the next plan of that state.
   */
  private readonly refreshed = new Map<string, RemoteJob>();
  /**
   * The states refreshMany found unchanged on the cluster (same keys as `refreshed`): their plan
   * compares the configuration with the state instead of with a copy read from the cluster.
   */
  private readonly unchanged = new Set<string>();

  /**
   * validate() results by configuration object: the engine validates a configuration and then plans
   * it, and plan validates again (it must, for callers that do not validate first). Validating parses
   * the jobspec against the API schema, the largest part of the CPU an unchanged job costs.
   */
  private readonly validated = new WeakMap<Config, Diagnostic[]>();

  /**
   * The jobspec texts of the states refreshMany found unchanged: the cluster holds a job registered
   * from each, so the text passed the schema check when it was planned, and a configuration with the
   * same text is not parsed against the schema again (for 1,000 unchanged jobs, a third of the plan's
   * own CPU). A changed text is checked as always.
   */
  private readonly heldTexts = new Set<string>();

  constructor(private readonly ctx: SchedProviderContext) {}

  validate(config: Config): Diagnostic[] {
    let diags = this.validated.get(config);
    if (!diags) {
      const text = config['jobspec'];
      diags = validateJobConfig(config, typeof text === 'string' && this.heldTexts.has(text));
      this.validated.set(config, diags);
    }
    return [...diags];
  }

  plan(req: {
    prior: State | null;
    config: Config | null;
    replacing?: { prior: State; destroyFirst: boolean };
    serviceDiff?: boolean;
  }): Promise<PlannedChange> {
    return planJob(
      this.ctx,
      req.prior,
      req.config,
      req.config ? this.validate(req.config) : [],
      req.prior ? this.takeRefreshed(req.prior) : undefined,
      req,
    );
  }

  apply(change: PlannedChange, ctx?: ApplyContext): Promise<State | null> {
    return applyJob(this.ctx, change, ctx);
  }

  async read(state: State): Promise<State | null> {
    const ref = refOf(state);
    if (!ref) return state;
    const remote = await fetchRemote(this.ctx, ref, { prior: state });
    if (!remote) return null;
    const next = { ...state, ...computedAttributes(remote) };
    this.refreshed.set(refreshKey(next), remote);
    return next;
  }

  /** One listing of job stubs for all of them; see job/refresh-by-index.ts. */
  async refreshMany(states: readonly State[]): Promise<Array<State | undefined>> {
    const unchanged = await unchangedByIndex(this.ctx, states).catch(() => states.map(() => false));
    return states.map((s, i) => {
      if (!unchanged[i]) return undefined;
      this.unchanged.add(refreshKey(s));
      if (typeof s['jobspec'] === 'string') this.heldTexts.add(s['jobspec']);
      return s;
    });
  }

  private takeRefreshed(prior: State): Refreshed | undefined {
    const key = refreshKey(prior);
    const remote = this.refreshed.get(key);
    this.refreshed.delete(key);
    if (remote) return remote;
    return this.unchanged.delete(key) ? 'unchanged' : undefined;
  }

  async import(id: string): Promise<State> {
    const ref = parseImportId(id, this.ctx.defaults.namespace);
    const remote = await fetchRemote(this.ctx, ref);
    if (!remote) throw new Error(`job "${ref.id}" does not exist in namespace "${ref.namespace}"`);
    return { ...argumentsOf({ jobspec: jobspecOf(remote.job) }), ...computedAttributes(remote) };
  }
}
