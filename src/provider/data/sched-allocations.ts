/** Data source `sched_allocations`: allocations matching a filter expression and/or an ID prefix. */
import { z } from 'zod';
import type { AllocationStub } from '../../api/sched/schemas';
import type { Config, DataSourceHandler, State } from '../resource';
import { attr } from '../schema';
import { validateShape } from '../common/shape';
import type { Diagnostic } from '../values';
import { namespaceFor, type SchedProviderContext } from '../sched/context';

const AllocationItemSchema = z.object({
  id: z.string(),
  eval_id: z.string(),
  name: z.string(),
  namespace: z.string(),
  node_id: z.string(),
  node_name: z.string(),
  job_id: z.string(),
  job_type: z.string(),
  job_version: z.number(),
  task_group: z.string(),
  desired_status: z.string(),
  client_status: z.string(),
  deployment_healthy: z.boolean().nullable(),
  followup_eval_id: z.string(),
  next_allocation: z.string(),
  preempted_by_allocation: z.string(),
  create_index: z.number(),
  modify_index: z.number(),
  create_time: z.number(),
  modify_time: z.number(),
});

export const schedAllocationsDataShape = {
  filter: attr(z.string().nullish(), {
    optional: true,
    description:
      'Filter expression over allocation fields, e.g. `JobID == "web" and ClientStatus == "running"`.',
  }),
  prefix: attr(
    z
      .string()
      .regex(/^[0-9a-f-]*$/, 'must be hexadecimal (an allocation ID prefix)')
      .nullish(),
    {
      optional: true,
      description: 'Only allocations whose ID starts with this.',
    },
  ),
  namespace: attr(z.string().min(1).nullish(), {
    optional: true,
    description: 'Namespace to search ("*" for all; default: the provider namespace, else "default").',
  }),
  allocations: attr(z.array(AllocationItemSchema).nullish(), {
    computed: true,
    description: 'The matching allocations.',
  }),
};

function item(a: AllocationStub): z.infer<typeof AllocationItemSchema> {
  return {
    id: a.ID,
    eval_id: a.EvalID ?? '',
    name: a.Name ?? '',
    namespace: a.Namespace ?? '',
    node_id: a.NodeID ?? '',
    node_name: a.NodeName ?? '',
    job_id: a.JobID ?? '',
    job_type: a.JobType ?? '',
    job_version: a.JobVersion ?? 0,
    task_group: a.TaskGroup ?? '',
    desired_status: a.DesiredStatus ?? '',
    client_status: a.ClientStatus ?? '',
    deployment_healthy: a.DeploymentStatus?.Healthy ?? null,
    followup_eval_id: a.FollowupEvalID ?? '',
    next_allocation: a.NextAllocation ?? '',
    preempted_by_allocation: a.PreemptedByAllocation ?? '',
    create_index: a.CreateIndex ?? 0,
    modify_index: a.ModifyIndex ?? 0,
    create_time: a.CreateTime ?? 0,
    modify_time: a.ModifyTime ?? 0,
  };
}

export class SchedAllocationsDataSource implements DataSourceHandler {
  readonly typeName = 'sched_allocations';
  readonly description = 'Lists allocations, optionally filtered.';
  readonly shape = schedAllocationsDataShape;

  constructor(private readonly ctx: SchedProviderContext) {}

  validate(config: Config): Diagnostic[] {
    return validateShape(schedAllocationsDataShape, config);
  }

  async read(config: Config): Promise<State> {
    const filter = typeof config['filter'] === 'string' && config['filter'] ? config['filter'] : undefined;
    const prefix = typeof config['prefix'] === 'string' && config['prefix'] ? config['prefix'] : undefined;
    const namespace = namespaceFor(this.ctx, config);
    const { value } = await this.ctx.client.allocations.list({
      filter,
      prefix,
      namespace,
      taskStates: false,
    });
    return {
      filter: filter ?? null,
      prefix: prefix ?? null,
      namespace: config['namespace'] ?? null,
      allocations: value
        .map(item)
        .sort((a, b) => a.create_index - b.create_index || a.id.localeCompare(b.id)),
    };
  }
}
