/** The list forms of jobs and allocations, as the spec's stub tables give them. */
import type { AllocRecord, Job, JobSummaryRecord } from './model';

export function jobStub(
  job: Job,
  summary: JobSummaryRecord | undefined,
  withMeta: boolean,
): Record<string, unknown> {
  const stub: Record<string, unknown> = {
    ID: job.ID,
    ParentID: job.ParentID ?? '',
    Name: job.Name,
    Namespace: job.Namespace,
    Datacenters: job.Datacenters,
    NodePool: job.NodePool,
    Multiregion: job.Multiregion ?? null,
    Type: job.Type,
    Priority: job.Priority,
    Periodic: !!job.Periodic && job.Periodic.Enabled !== false,
    ParameterizedJob: !!job.ParameterizedJob && !job.Dispatched,
    Stop: job.Stop ?? false,
    Status: job.Status,
    StatusDescription: job.StatusDescription ?? '',
    JobSummary: summary ?? null,
    CreateIndex: job.CreateIndex,
    ModifyIndex: job.ModifyIndex,
    JobModifyIndex: job.JobModifyIndex,
    SubmitTime: job.SubmitTime,
  };
  if (withMeta) stub['Meta'] = job.Meta ?? null;
  return stub;
}

export function allocStub(
  a: AllocRecord,
  opts: { resources: boolean; taskStates: boolean },
): Record<string, unknown> {
  const stub: Record<string, unknown> = {
    ID: a.ID,
    EvalID: a.EvalID,
    Name: a.Name,
    Namespace: a.Namespace,
    NodeID: a.NodeID,
    NodeName: a.NodeName,
    JobID: a.JobID,
    JobType: a.Job.Type,
    JobVersion: a.JobVersion,
    TaskGroup: a.TaskGroup,
    DesiredStatus: a.DesiredStatus,
    DesiredDescription: a.DesiredDescription,
    ClientStatus: a.ClientStatus,
    ClientDescription: a.ClientDescription,
    DesiredTransition: a.DesiredTransition,
    DeploymentStatus: a.DeploymentStatus,
    FollowupEvalID: a.FollowupEvalID,
    RescheduleTracker: a.RescheduleTracker,
    PreemptedAllocations: a.PreemptedAllocations,
    PreemptedByAllocation: a.PreemptedByAllocation,
    CreateIndex: a.CreateIndex,
    ModifyIndex: a.ModifyIndex,
    CreateTime: a.CreateTime,
    ModifyTime: a.ModifyTime,
  };
  if (opts.taskStates) stub['TaskStates'] = a.TaskStates;
  if (opts.resources) stub['AllocatedResources'] = a.AllocatedResources;
  return stub;
}
