/** Data source `sched_job`: one job as the cluster has it, with its latest deployment and allocations. */
import { z } from 'zod';
import type { Config, DataSourceHandler, State } from '../resource';
import { attr } from '../schema';
import { validateShape } from '../common/shape';
import type { Diagnostic } from '../values';
import { namespaceFor, type SchedProviderContext } from '../sched/context';
import { computedAttributes, fetchRemote } from '../sched/job/state';
import { jobShape } from '../sched/job/schema';

const computed = (schema: z.ZodType, description: string) => attr(schema, { computed: true, description });

export const schedJobDataShape = {
  job_id: attr(z.string().min(1), { required: true, description: 'ID of the job.' }),
  namespace: attr(z.string().min(1).nullish(), {
    optional: true,
    computed: true,
    description: 'Namespace of the job (default: the provider namespace, else "default").',
  }),
  id: jobShape.id,
  name: jobShape.name,
  region: jobShape.region,
  type: jobShape.type,
  datacenters: jobShape.datacenters,
  version: jobShape.version,
  status: jobShape.status,
  job_modify_index: jobShape.job_modify_index,
  deployment_id: jobShape.deployment_id,
  deployment_status: jobShape.deployment_status,
  allocation_ids: jobShape.allocation_ids,
  task_groups: jobShape.task_groups,
  submit_time: jobShape.submit_time,
  status_description: computed(z.string().nullish(), 'Why the job is in its status.'),
  priority: computed(z.number().nullish(), 'Priority of the job.'),
  parent_id: computed(z.string().nullish(), 'The parent job of a dispatched or periodic child.'),
  stop: computed(z.boolean().nullish(), 'Whether the job was stopped.'),
  stable: computed(z.boolean().nullish(), 'Whether the current version deployed successfully.'),
  json: computed(z.string().nullish(), 'The whole job as the API returns it, as JSON.'),
};

export class SchedJobDataSource implements DataSourceHandler {
  readonly typeName = 'sched_job';
  readonly description = 'Reads a job, its latest deployment and its allocations.';
  readonly shape = schedJobDataShape;

  constructor(private readonly ctx: SchedProviderContext) {}

  validate(config: Config): Diagnostic[] {
    return validateShape(schedJobDataShape, config);
  }

  async read(config: Config): Promise<State> {
    const id = String(config['job_id']);
    const namespace = namespaceFor(this.ctx, config);
    const remote = await fetchRemote(this.ctx, { id, namespace });
    if (!remote) throw new Error(`job "${id}" does not exist in namespace "${namespace}"`);
    const { job } = remote;
    return {
      job_id: id,
      ...computedAttributes(remote),
      namespace: job.Namespace ?? namespace,
      status_description: job.StatusDescription ?? '',
      priority: job.Priority ?? 50,
      parent_id: job.ParentID ?? '',
      stop: job.Stop ?? false,
      stable: job.Stable ?? false,
      json: JSON.stringify(job),
    };
  }
}
