/** The attributes of `sched_job`: what the user sets and what the provider reports back. */
import { z } from 'zod';
import { attr } from '../../schema';
import { timeoutsAttribute } from '../../common/timeouts';

const optionalBool = (description: string) => attr(z.boolean().nullish(), { optional: true, description });

const TaskGroupStateSchema = z.object({
  name: z.string(),
  count: z.number(),
  tasks: z.array(z.string()),
  meta: z.record(z.string(), z.string()).nullish(),
  /** Allocations of the current version by client status (running, pending, complete, failed, lost). */
  running: z.number(),
  pending: z.number(),
  complete: z.number(),
  failed: z.number(),
  lost: z.number(),
});
export type TaskGroupState = z.infer<typeof TaskGroupStateSchema>;

export const jobShape = {
  jobspec: attr(z.string().min(1, 'must not be empty'), {
    required: true,
    description:
      'The job: API JSON (with or without a "Job" wrapper) or an HCL2 jobspec, which the cluster parses.',
  }),
  hcl2_vars: attr(z.record(z.string(), z.string()).nullish(), {
    optional: true,
    description: 'Values of the HCL2 jobspec variables.',
  }),
  detach: optionalBool('Do not wait for the deployment (or the allocations) after a change (default false).'),
  purge_on_destroy: optionalBool('Purge the job at destroy instead of only stopping it (default false).'),
  deregister_on_destroy: optionalBool('Deregister the job at destroy (default true).'),
  deregister_on_id_change: optionalBool(
    'When the job ID changes, deregister the old job (a replacement); otherwise it is left running (default true).',
  ),
  rerun_if_dead: optionalBool('Register the job again when it is dead (default false).'),
  policy_override: optionalBool('Override soft-mandatory policies (default false).'),
  preserve_counts: optionalBool('Keep the task group counts running on the cluster (default false).'),
  eval_priority: attr(z.number().int().min(1).max(100).nullish(), {
    optional: true,
    description: 'Priority of the evaluations the change creates (1-100; default the job priority).',
  }),
  fail_on_placement_failure: optionalBool(
    'Placement failures found by the plan are errors; otherwise warnings (default true).',
  ),
  auto_promote_canaries: optionalBool('Promote canaries once all of them are healthy (default false).'),
  timeouts: timeoutsAttribute(['create', 'update', 'delete']),

  id: attr(z.string().nullish(), { computed: true, description: 'The job ID.' }),
  name: attr(z.string().nullish(), { computed: true, description: 'The job name.' }),
  namespace: attr(z.string().nullish(), { computed: true, description: 'Namespace of the job.' }),
  region: attr(z.string().nullish(), { computed: true, description: 'Region of the job.' }),
  type: attr(z.string().nullish(), {
    computed: true,
    description: 'service, batch, system or sysbatch.',
  }),
  datacenters: attr(z.array(z.string()).nullish(), {
    computed: true,
    description: 'Datacenters of the job.',
  }),
  version: attr(z.number().nullish(), { computed: true, description: 'Version of the job on the cluster.' }),
  status: attr(z.string().nullish(), { computed: true, description: 'pending, running or dead.' }),
  job_modify_index: attr(z.number().nullish(), {
    computed: true,
    description: 'Raft index of the last change of the job spec.',
  }),
  deployment_id: attr(z.string().nullish(), {
    computed: true,
    description: 'The latest deployment of the job, if any.',
  }),
  deployment_status: attr(z.string().nullish(), {
    computed: true,
    description: 'Status of the latest deployment.',
  }),
  allocation_ids: attr(z.array(z.string()).nullish(), {
    computed: true,
    description:
      'Allocations the cluster wants running for the job, as of its last change (version, modify index or status); the sched_allocations data source reads them live.',
  }),
  task_groups: attr(z.array(TaskGroupStateSchema).nullish(), {
    computed: true,
    description:
      "Each task group: count, tasks, meta, and its allocations by status, as of the job's last change (version, modify index or status).",
  }),
  submit_time: attr(z.string().nullish(), {
    computed: true,
    description: 'When the current version was submitted (RFC 3339).',
  }),
};

/** Arguments whose change needs no call to the cluster (they only steer the provider). */
export const PROVIDER_SETTINGS = [
  'detach',
  'purge_on_destroy',
  'deregister_on_destroy',
  'deregister_on_id_change',
  'rerun_if_dead',
  'policy_override',
  'preserve_counts',
  'eval_priority',
  'fail_on_placement_failure',
  'auto_promote_canaries',
  'timeouts',
] as const;

export const COMPUTED = [
  'id',
  'name',
  'namespace',
  'region',
  'type',
  'datacenters',
  'version',
  'status',
  'job_modify_index',
  'deployment_id',
  'deployment_status',
  'allocation_ids',
  'task_groups',
  'submit_time',
] as const;

/** The settings of a job resource with their defaults applied. */
export interface JobSettings {
  detach: boolean;
  purgeOnDestroy: boolean;
  deregisterOnDestroy: boolean;
  deregisterOnIdChange: boolean;
  rerunIfDead: boolean;
  policyOverride: boolean;
  preserveCounts: boolean;
  evalPriority: number | undefined;
  failOnPlacementFailure: boolean;
  autoPromoteCanaries: boolean;
  timeouts: unknown;
}

const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

export function jobSettings(c: Record<string, unknown>): JobSettings {
  return {
    detach: bool(c['detach'], false),
    purgeOnDestroy: bool(c['purge_on_destroy'], false),
    deregisterOnDestroy: bool(c['deregister_on_destroy'], true),
    deregisterOnIdChange: bool(c['deregister_on_id_change'], true),
    rerunIfDead: bool(c['rerun_if_dead'], false),
    policyOverride: bool(c['policy_override'], false),
    preserveCounts: bool(c['preserve_counts'], false),
    evalPriority: typeof c['eval_priority'] === 'number' ? c['eval_priority'] : undefined,
    failOnPlacementFailure: bool(c['fail_on_placement_failure'], true),
    autoPromoteCanaries: bool(c['auto_promote_canaries'], false),
    timeouts: c['timeouts'] ?? null,
  };
}
