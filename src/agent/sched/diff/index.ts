/*
 * Job diffs and update classification for the scheduler's plan and job-versions endpoints, with the
 * semantics of Nomad's nomad/structs/diff.go, scheduler/util.go (tasksUpdated) and
 * scheduler/annotate.go.
 */
export type {
  DiffOptions,
  DiffType,
  FieldDiff,
  JobDiff,
  Job,
  ObjectDiff,
  TaskDiff,
  TaskGroupDiff,
} from './types';
export { diffJobs, JobDiffError, JOB_DIFF_IGNORED_FIELDS } from './job';
export {
  classifyGroupUpdate,
  destructiveUpdateReason,
  jobSpecChanged,
  type GroupUpdateKind,
} from './classify';
export {
  annotateTaskDiffs,
  ANNOTATION_FORCES_CREATE,
  ANNOTATION_FORCES_DESTROY,
  ANNOTATION_FORCES_DESTRUCTIVE_UPDATE,
  ANNOTATION_FORCES_INPLACE_UPDATE,
  type GroupAnnotation,
} from './annotate';
