import type { DiffOptions, DiffType, Job, JobDiff, ObjectDiff } from './types';
import { fieldDiffs, nullIfEmpty, typeFromFields } from './fields';
import { flattenPair } from './flatten';
import { asObj, semanticEqual, str, type Obj } from './json';
import { spreadDiffs, taskGroupDiffs } from './group';
import {
  collect,
  keyedDiffs,
  makeObjectDiff,
  primitiveObjectDiff,
  primitiveObjectSetDiff,
  stringSetDiff,
  structDiff,
} from './objects';

/**
 * Job fields a plan never shows: server-managed bookkeeping that changes on every registration, the
 * job-level Update (pushed down to every group, where it is diffed), the raw dispatch payload, and
 * tokens, which are secrets. Both the neutral and Nomad's names are listed so either flavor works.
 */
export const JOB_DIFF_IGNORED_FIELDS = [
  'ID',
  'Status',
  'StatusDescription',
  'Version',
  'Stable',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'Update',
  'SubmitTime',
  'Payload',
  'SchedTokenID',
  'SecretsToken',
  'RegistryToken',
  'NomadTokenID',
  'VaultToken',
  'ConsulToken',
] as const;

export class JobDiffError extends Error {}

/**
 * The structural diff between two versions of a job, as Nomad's Job.Diff computes it. A null side
 * means the job is being created (old) or purged (new).
 */
export function diffJobs(oldJob: Job | null, newJob: Job | null, opts: DiffOptions = {}): JobDiff {
  const contextual = opts.contextual ?? false;
  const oldObj = oldJob === null ? null : asObj(oldJob);
  const newObj = newJob === null ? null : asObj(newJob);
  if (oldObj === null && newObj === null) {
    return { Type: 'None', ID: '', Fields: null, Objects: null, TaskGroups: null };
  }
  if (oldObj !== null && newObj !== null && str(oldObj.ID) !== str(newObj.ID)) {
    throw new JobDiffError(
      `can not diff jobs with different IDs: ${JSON.stringify(oldObj.ID)} and ${JSON.stringify(newObj.ID)}`,
    );
  }

  let type: DiffType = 'None';
  if (oldObj === null) type = 'Added';
  else if (newObj === null) type = 'Deleted';

  const [of, nf] = flattenPair(oldObj, newObj, JOB_DIFF_IGNORED_FIELDS);
  const fields = fieldDiffs(of, nf, false);

  const o = oldObj ?? {};
  const n = newObj ?? {};
  const datacenters = stringSetDiff(o.Datacenters, n.Datacenters, 'Datacenters', contextual);
  const objects = collect(
    datacenters && datacenters.Type !== 'None' ? datacenters : null,
    primitiveObjectSetDiff(o.Constraints, n.Constraints, [], 'Constraint', contextual),
    primitiveObjectSetDiff(o.Affinities, n.Affinities, [], 'Affinity', contextual),
    spreadDiffs(o.Spreads, n.Spreads, contextual),
    primitiveObjectDiff(o.Periodic, n.Periodic, [], 'Periodic', contextual),
    structDiff(
      o.ParameterizedJob,
      n.ParameterizedJob,
      {
        name: 'ParameterizedJob',
        children: (a, b, ctx) =>
          collect(
            stringSetDiff(a.MetaOptional, b.MetaOptional, 'MetaOptional', ctx),
            stringSetDiff(a.MetaRequired, b.MetaRequired, 'MetaRequired', ctx),
          ),
      },
      contextual,
    ),
    multiregionDiff(o.Multiregion, n.Multiregion, contextual),
  );
  const groups = taskGroupDiffs(o.TaskGroups, n.TaskGroups, contextual);

  // Ignored fields change on every registration, so "Edited" is decided from what is shown.
  if (type === 'None') {
    const changed = (d: { Type: DiffType }) => d.Type !== 'None';
    if (fields.some(changed) || objects.some(changed) || groups.some(changed)) type = 'Edited';
  }

  return {
    Type: type,
    ID: str((newObj ?? oldObj)?.ID),
    Fields: nullIfEmpty(fields),
    Objects: nullIfEmpty(objects),
    TaskGroups: nullIfEmpty(groups),
  };
}

function multiregionDiff(oldV: unknown, newV: unknown, contextual: boolean): ObjectDiff | null {
  if (semanticEqual(oldV, newV)) return null;
  const o = asObj(oldV);
  const n = asObj(newV);
  const type: DiffType = o === null ? 'Added' : n === null ? 'Deleted' : 'Edited';
  const a = o ?? {};
  const b = n ?? {};
  const objects = collect(
    primitiveObjectDiff(a.Strategy, b.Strategy, [], 'Strategy', contextual),
    keyedDiffs(
      a.Regions,
      b.Regions,
      (r) => str(r.Name),
      (x, y) => regionDiff(x, y, contextual),
    ),
  );
  return makeObjectDiff(type, 'Multiregion', [], objects);
}

function regionDiff(o: Obj | null, n: Obj | null, contextual: boolean): ObjectDiff | null {
  if (semanticEqual(o, n)) return null;
  const [of, nf] = flattenPair(o, n);
  const fields = fieldDiffs(of, nf, contextual);
  const datacenters = stringSetDiff(o?.Datacenters, n?.Datacenters, 'Datacenters', contextual);
  const objects = collect(datacenters && datacenters.Type !== 'None' ? datacenters : null);
  // Nomad types a region by its fields only; a datacenter change alone still counts as an edit here.
  const type = typeFromFields(fields) ?? (objects.length > 0 ? 'Edited' : null);
  return type === null ? null : makeObjectDiff(type, 'Region', fields, objects);
}
