import type { TaskDiff } from './types';
import { nullIfEmpty } from './fields';
import { str, type Obj } from './json';
import { namedBlockHead } from './named-block';
import {
  collect,
  freeMapDiff,
  keyedDiffs,
  matchByName,
  primitiveObjectDiff,
  primitiveObjectSetDiff,
  stringSetDiff,
  structDiff,
} from './objects';
import { resourcesDiff } from './resources';
import { serviceDiffs } from './services';
import { templateDiffs } from './templates';

const TASK_FILTER = ['Name', 'Config'];

/** Nomad's `Vault` block is `Secrets` in this API; whichever key a job uses names the diff. */
const SECRETS_KEYS = ['Secrets', 'Vault'];

export function taskDiff(oldTask: Obj | null, newTask: Obj | null, contextual: boolean): TaskDiff {
  const { type, name, fields } = namedBlockHead(oldTask, newTask, TASK_FILTER);

  const o = oldTask ?? {};
  const n = newTask ?? {};
  const objects = collect(
    primitiveObjectSetDiff(o.Constraints, n.Constraints, [], 'Constraint', contextual),
    primitiveObjectSetDiff(o.Affinities, n.Affinities, [], 'Affinity', contextual),
    freeMapDiff(o.Config, n.Config, 'Config', contextual),
    resourcesDiff(o.Resources, n.Resources, contextual),
    primitiveObjectDiff(o.LogConfig, n.LogConfig, [], 'LogConfig', contextual),
    primitiveObjectDiff(o.DispatchPayload, n.DispatchPayload, [], 'DispatchPayload', contextual),
    primitiveObjectSetDiff(o.Artifacts, n.Artifacts, [], 'Artifact', contextual),
    serviceDiffs(o.Services, n.Services, contextual),
    ...SECRETS_KEYS.map((key) =>
      structDiff(
        o[key],
        n[key],
        {
          name: key,
          children: (a, b, ctx) => collect(stringSetDiff(a.Policies, b.Policies, 'Policies', ctx)),
        },
        contextual,
      ),
    ),
    templateDiffs(o.Templates, n.Templates, contextual),
    structDiff(o.Identity, n.Identity, { name: 'Identity' }, contextual),
    // Not in Nomad's task diff, but each forces a destructive update, so the plan should show why.
    keyedDiffs(
      o.Identities,
      n.Identities,
      (i) => str(i.Name),
      (a, b) => structDiff(a, b, { name: 'Identity' }, contextual),
    ),
    primitiveObjectDiff(o.Lifecycle, n.Lifecycle, [], 'Lifecycle', contextual),
    primitiveObjectSetDiff(o.VolumeMounts, n.VolumeMounts, [], 'VolumeMount', contextual),
    primitiveObjectDiff(o.RestartPolicy, n.RestartPolicy, [], 'RestartPolicy', contextual),
    freeMapDiff(o.CSIPluginConfig, n.CSIPluginConfig, 'CSIPluginConfig', contextual),
  );

  return {
    Type: type,
    Name: name,
    Fields: nullIfEmpty(fields),
    Objects: nullIfEmpty(objects),
    Annotations: null,
  };
}

/** Tasks matched by name, sorted by name. */
export function taskDiffs(oldList: unknown, newList: unknown, contextual: boolean): TaskDiff[] {
  return matchByName(oldList, newList, (o, n) => taskDiff(o, n, contextual));
}
