import type { ObjectDiff, TaskGroupDiff } from './types';
import { nullIfEmpty } from './fields';
import { asObj, canonicalKey, compareGoStrings, semanticEqual, type Obj } from './json';
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
import { networkResourceDiffs } from './resources';
import { serviceDiffs } from './services';
import { taskDiffs } from './task';

/** Nomad's group `Consul` block is `Registry` in this API; whichever key a job uses names the diff. */
const REGISTRY_KEYS = ['Registry', 'Consul'];

export function taskGroupDiff(
  oldGroup: Obj | null,
  newGroup: Obj | null,
  contextual: boolean,
): TaskGroupDiff {
  const { type, name, fields } = namedBlockHead(oldGroup, newGroup, ['Name']);

  const o = oldGroup ?? {};
  const n = newGroup ?? {};
  const objects = collect(
    primitiveObjectSetDiff(o.Constraints, n.Constraints, [], 'Constraint', contextual),
    primitiveObjectSetDiff(o.Affinities, n.Affinities, [], 'Affinity', contextual),
    spreadDiffs(o.Spreads, n.Spreads, contextual),
    primitiveObjectDiff(o.RestartPolicy, n.RestartPolicy, [], 'RestartPolicy', contextual),
    primitiveObjectDiff(o.ReschedulePolicy, n.ReschedulePolicy, [], 'ReschedulePolicy', contextual),
    primitiveObjectDiff(o.EphemeralDisk, n.EphemeralDisk, [], 'EphemeralDisk', contextual),
    ...REGISTRY_KEYS.map((key) => primitiveObjectDiff(o[key], n[key], [], key, contextual)),
    primitiveObjectDiff(o.Update, n.Update, ['Stagger'], 'Update', contextual),
    primitiveObjectDiff(o.Migrate, n.Migrate, [], 'Migrate', contextual),
    primitiveObjectDiff(o.Disconnect, n.Disconnect, [], 'Disconnect', contextual),
    networkResourceDiffs(o.Networks, n.Networks, contextual),
    scalingDiff(o.Scaling, n.Scaling, contextual),
    serviceDiffs(o.Services, n.Services, contextual),
    volumeDiffs(o.Volumes, n.Volumes, contextual),
  );

  return {
    Type: type,
    Name: name,
    Fields: nullIfEmpty(fields),
    Objects: nullIfEmpty(objects),
    Tasks: nullIfEmpty(taskDiffs(o.Tasks, n.Tasks, contextual)),
    Updates: null,
  };
}

export function taskGroupDiffs(oldList: unknown, newList: unknown, contextual: boolean): TaskGroupDiff[] {
  return matchByName(oldList, newList, (o, n) => taskGroupDiff(o, n, contextual));
}

/**
 * Spreads are a set keyed by content like constraints (an edit is a Deleted and an Added "Spread");
 * Nomad's diff leaves them out, but they change placement, so the plan shows them with their targets.
 */
export function spreadDiffs(oldList: unknown, newList: unknown, contextual: boolean): ObjectDiff[] {
  return keyedDiffs(oldList, newList, canonicalKey, (o, n) =>
    structDiff(
      o,
      n,
      {
        name: 'Spread',
        children: (a, b, ctx) =>
          primitiveObjectSetDiff(a.SpreadTarget, b.SpreadTarget, [], 'SpreadTarget', ctx),
      },
      contextual,
    ),
  );
}

// The scaling target and identity are derived from the job, not written by the user.
const SCALING_FILTER = [
  'CreateIndex',
  'ModifyIndex',
  'ID',
  'Type',
  'Target[Job]',
  'Target[Group]',
  'Target[Namespace]',
];

function scalingDiff(oldV: unknown, newV: unknown, contextual: boolean): ObjectDiff | null {
  return structDiff(
    oldV,
    newV,
    {
      name: 'Scaling',
      filter: SCALING_FILTER,
      contextualFields: false,
      children: (o, n) => collect(freeMapDiff(o.Policy, n.Policy, 'Policy', false)),
    },
    contextual,
  );
}

function volumeDiffs(oldV: unknown, newV: unknown, contextual: boolean): ObjectDiff[] {
  if (semanticEqual(oldV, newV)) return [];
  const o = asObj(oldV) ?? {};
  const n = asObj(newV) ?? {};
  const names = [...new Set([...Object.keys(o), ...Object.keys(n)])].sort(compareGoStrings);
  return collect(...names.map((name) => volumeDiff(o[name], n[name], contextual)));
}

function volumeDiff(oldV: unknown, newV: unknown, contextual: boolean): ObjectDiff | null {
  return structDiff(
    oldV,
    newV,
    {
      name: 'Volume',
      children: (o, n, ctx) =>
        collect(
          structDiff(
            o.MountOptions,
            n.MountOptions,
            {
              name: 'MountOptions',
              children: (a, b, c) => collect(stringSetDiff(a.MountFlags, b.MountFlags, 'MountFlags', c)),
            },
            ctx,
          ),
        ),
    },
    contextual,
  );
}
