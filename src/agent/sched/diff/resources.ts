import type { ObjectDiff } from './types';
import { fieldDiffs } from './fields';
import type { Flat } from './flatten';
import { asList, asObj, canonicalKey, semanticEqual, str, type Obj } from './json';
import {
  collect,
  keyBy,
  keyedDiffs,
  makeObjectDiff,
  primitiveObjectDiff,
  sortObjectDiffs,
  structDiff,
} from './objects';

/* Resources, networks, ports and devices, named as Nomad names them. */

export function resourcesDiff(oldV: unknown, newV: unknown, contextual: boolean): ObjectDiff | null {
  return structDiff(
    oldV,
    newV,
    {
      name: 'Resources',
      children: (o, n, ctx) =>
        collect(networkResourceDiffs(o.Networks, n.Networks, ctx), devicesDiffs(o.Devices, n.Devices, ctx)),
    },
    contextual,
  );
}

/**
 * Networks have no identity: they are keyed by content and only the unmatched ones are reported, so
 * an edited network shows as a Deleted and an Added "Network".
 */
export function networkResourceDiffs(oldList: unknown, newList: unknown, contextual: boolean): ObjectDiff[] {
  const oldSet = keyBy(oldList, canonicalKey);
  const newSet = keyBy(newList, canonicalKey);
  const out: ObjectDiff[] = [];
  for (const [k, o] of oldSet) {
    if (newSet.has(k)) continue;
    const d = networkDiff(o, null, contextual);
    if (d) out.push(d);
  }
  for (const [k, n] of newSet) {
    if (oldSet.has(k)) continue;
    const d = networkDiff(null, n, contextual);
    if (d) out.push(d);
  }
  return sortObjectDiffs(out);
}

function networkDiff(o: Obj | null, n: Obj | null, contextual: boolean): ObjectDiff | null {
  return structDiff(
    o,
    n,
    {
      name: 'Network',
      // Nomad leaves the host side of a network (device, CIDR, IP) out of the plan.
      filter: ['Device', 'CIDR', 'IP'],
      children: (a, b, ctx) =>
        collect(
          portDiffs(a.ReservedPorts, b.ReservedPorts, false, ctx),
          portDiffs(a.DynamicPorts, b.DynamicPorts, true, ctx),
          dnsDiff(a.DNS, b.DNS, ctx),
        ),
    },
    contextual,
  );
}

function portDiffs(oldList: unknown, newList: unknown, dynamic: boolean, contextual: boolean): ObjectDiff[] {
  const name = dynamic ? 'Dynamic Port' : 'Static Port';
  // The value of a dynamic port is picked by the scheduler, so it is not part of the spec.
  const filter = dynamic ? ['Value'] : [];
  return keyedDiffs(
    oldList,
    newList,
    (p) => str(p.Label),
    (o, n) => primitiveObjectDiff(o, n, filter, name, contextual),
  );
}

function flattenDns(conf: Obj): Flat {
  const m: Flat = {};
  for (const key of ['Servers', 'Searches', 'Options']) {
    const list = asList(conf[key]).map(String);
    if (list.length > 0) m[key] = list.join(',');
  }
  return m;
}

function dnsDiff(oldV: unknown, newV: unknown, contextual: boolean): ObjectDiff | null {
  if (semanticEqual(oldV, newV)) return null;
  const o = asObj(oldV);
  const n = asObj(newV);
  const type = o === null ? 'Added' : n === null ? 'Deleted' : 'Edited';
  const fields = fieldDiffs(o && flattenDns(o), n && flattenDns(n), contextual);
  return makeObjectDiff(type, 'DNS', fields, []);
}

function devicesDiffs(oldList: unknown, newList: unknown, contextual: boolean): ObjectDiff[] {
  return keyedDiffs(
    oldList,
    newList,
    (d) => str(d.Name),
    (o, n) => structDiff(o, n, { name: 'Device' }, contextual),
  );
}
