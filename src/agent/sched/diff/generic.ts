import type { ObjectDiff } from './types';
import { isMapField } from './flatten';
import { canonicalKey, isObj, type Obj } from './json';
import { collect, freeMapDiff, keyedDiffs, stringSetDiff, structDiff } from './objects';

/**
 * A diff for free-form nested blocks the API keeps untyped (a service's Connect settings): scalars
 * are fields, nested objects become child objects named after their key, lists of scalars are string
 * sets and lists of objects are sets keyed by content. Nomad has a hand-written diff per Connect
 * struct; this follows the same shape without knowing every field.
 */
export function genericObjectDiff(
  oldV: unknown,
  newV: unknown,
  name: string,
  contextual: boolean,
): ObjectDiff | null {
  return structDiff(oldV, newV, { name, children: genericChildren }, contextual);
}

function genericChildren(o: Obj, n: Obj, contextual: boolean): ObjectDiff[] {
  const keys = [...new Set([...Object.keys(o), ...Object.keys(n)])].sort();
  const out: (ObjectDiff | ObjectDiff[] | null)[] = [];
  for (const key of keys) {
    const a = o[key];
    const b = n[key];
    if (isMapField(key)) continue;
    if (key === 'Config') {
      out.push(freeMapDiff(a, b, key, contextual));
    } else if (isObj(a) || isObj(b)) {
      out.push(genericObjectDiff(a, b, key, contextual));
    } else if (Array.isArray(a) || Array.isArray(b)) {
      const items = [...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])];
      if (items.some(isObj)) {
        out.push(keyedDiffs(a, b, canonicalKey, (x, y) => genericObjectDiff(x, y, key, contextual)));
      } else {
        out.push(stringSetDiff(a, b, key, contextual));
      }
    }
  }
  return collect(...out);
}
