/** Data source `sched_deployment`: one deployment by ID, or the latest deployment of a job. */
import { z } from 'zod';
import type { Deployment } from '../../api/sched/schemas';
import type { Config, DataSourceHandler, State } from '../resource';
import { attr } from '../schema';
import { errorAt, validateShape } from '../common/shape';
import { containsUnknown, type Diagnostic } from '../values';
import { namespaceFor, type SchedProviderContext } from '../sched/context';

const GroupSchema = z.object({
  auto_revert: z.boolean(),
  auto_promote: z.boolean(),
  promoted: z.boolean(),
  desired_canaries: z.number(),
  desired_total: z.number(),
  placed_allocs: z.number(),
  healthy_allocs: z.number(),
  unhealthy_allocs: z.number(),
  placed_canaries: z.array(z.string()),
  require_progress_by: z.string().nullable(),
});

const computed = (schema: z.ZodType, description: string) => attr(schema, { computed: true, description });

export const schedDeploymentDataShape = {
  deployment_id: attr(z.string().min(1).nullish(), {
    optional: true,
    computed: true,
    description: 'ID of the deployment (or give job_id for its latest).',
  }),
  job_id: attr(z.string().min(1).nullish(), {
    optional: true,
    computed: true,
    description: 'Job whose latest deployment to read, when deployment_id is not given.',
  }),
  namespace: attr(z.string().min(1).nullish(), {
    optional: true,
    computed: true,
    description: 'Namespace (default: the provider namespace, else "default").',
  }),
  id: computed(z.string().nullish(), 'ID of the deployment.'),
  job_version: computed(z.number().nullish(), 'Job version the deployment rolls out.'),
  status: computed(z.string().nullish(), 'running, successful, failed, cancelled, ...'),
  status_description: computed(z.string().nullish(), 'Why the deployment is in its status.'),
  task_groups: computed(z.record(z.string(), GroupSchema).nullish(), 'Progress of each task group.'),
};

function groups(d: Deployment): Record<string, z.infer<typeof GroupSchema>> {
  const out: Record<string, z.infer<typeof GroupSchema>> = {};
  for (const [name, g] of Object.entries(d.TaskGroups ?? {})) {
    out[name] = {
      auto_revert: g.AutoRevert ?? false,
      auto_promote: g.AutoPromote ?? false,
      promoted: g.Promoted ?? false,
      desired_canaries: g.DesiredCanaries ?? 0,
      desired_total: g.DesiredTotal ?? 0,
      placed_allocs: g.PlacedAllocs ?? 0,
      healthy_allocs: g.HealthyAllocs ?? 0,
      unhealthy_allocs: g.UnhealthyAllocs ?? 0,
      placed_canaries: [...(g.PlacedCanaries ?? [])],
      require_progress_by:
        g.RequireProgressBy && !g.RequireProgressBy.startsWith('0001-') ? g.RequireProgressBy : null,
    };
  }
  return out;
}

export class SchedDeploymentDataSource implements DataSourceHandler {
  readonly typeName = 'sched_deployment';
  readonly description = 'Reads a deployment, by ID or as the latest of a job.';
  readonly shape = schedDeploymentDataShape;

  constructor(private readonly ctx: SchedProviderContext) {}

  validate(config: Config): Diagnostic[] {
    const out = validateShape(schedDeploymentDataShape, config);
    const has = (k: string): boolean =>
      (config[k] !== undefined && config[k] !== null) || containsUnknown(config[k]);
    if (has('deployment_id') === has('job_id')) {
      out.push(errorAt(['deployment_id'], 'Exactly one of "deployment_id" and "job_id" must be set'));
    }
    return out;
  }

  async read(config: Config): Promise<State> {
    const namespace = namespaceFor(this.ctx, config);
    let d: Deployment;
    if (typeof config['deployment_id'] === 'string') {
      ({ value: d } = await this.ctx.client.deployments.read(config['deployment_id'], { namespace }));
    } else {
      const jobId = String(config['job_id']);
      const { value } = await this.ctx.client.jobs.latestDeployment(jobId, { namespace });
      if (!value) throw new Error(`job "${jobId}" in namespace "${namespace}" has no deployment`);
      d = value;
    }
    return {
      deployment_id: d.ID,
      job_id: d.JobID ?? null,
      namespace: d.Namespace ?? namespace,
      id: d.ID,
      job_version: d.JobVersion ?? 0,
      status: d.Status ?? '',
      status_description: d.StatusDescription ?? '',
      task_groups: groups(d),
    };
  }
}
