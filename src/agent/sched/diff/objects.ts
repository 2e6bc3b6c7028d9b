import type { DiffType, FieldDiff, ObjectDiff } from './types';
import { compareFieldDiffs, fieldDiff, fieldDiffs, nullIfEmpty, typeFromFields } from './fields';
import { flattenFull, flattenPair, scalarString, type Flat } from './flatten';
import {
  asList,
  asObj,
  asObjList,
  canonicalKey,
  compareGoStrings,
  isObj,
  semanticEqual,
  sortInPlace,
  str,
  type Obj,
} from './json';

/* The generic object diffs every specific diff is built from (Nomad's diff.go helpers). */

export function makeObjectDiff(
  type: DiffType,
  name: string,
  fields: FieldDiff[],
  objects: ObjectDiff[],
): ObjectDiff {
  return { Type: type, Name: name, Fields: nullIfEmpty(fields), Objects: nullIfEmpty(objects) };
}

// Nomad sorts diff types in reverse: Edited, Added, Deleted, None.
const TYPE_RANK: Record<DiffType, number> = { Edited: 0, Added: 1, Deleted: 2, None: 3 };

export function compareObjectDiffs(a: ObjectDiff, b: ObjectDiff): number {
  const byName = compareGoStrings(a.Name, b.Name);
  if (byName !== 0) return byName;
  if (a.Type !== b.Type) return TYPE_RANK[a.Type] - TYPE_RANK[b.Type];
  const af = a.Fields ?? [];
  const bf = b.Fields ?? [];
  if (af.length !== bf.length) return af.length - bf.length;
  const ao = a.Objects ?? [];
  const bo = b.Objects ?? [];
  if (ao.length !== bo.length) return ao.length - bo.length;
  for (let i = 0; i < af.length; i++) {
    const c = compareFieldDiffs(af[i]!, bf[i]!);
    if (c !== 0) return c;
  }
  for (let i = 0; i < ao.length; i++) {
    const c = compareObjectDiffs(ao[i]!, bo[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

export function sortObjectDiffs(list: ObjectDiff[]): ObjectDiff[] {
  return sortInPlace(list, compareObjectDiffs);
}

/** Collects child diffs, dropping the absent ones. */
export function collect(...parts: (ObjectDiff | ObjectDiff[] | null | undefined)[]): ObjectDiff[] {
  const out: ObjectDiff[] = [];
  for (const p of parts) {
    if (Array.isArray(p)) out.push(...p);
    else if (p) out.push(p);
  }
  return out;
}

/**
 * A diff of the scalar fields of two structs; its type follows from the fields, and it is absent when
 * no field changed (even in contextual mode).
 */
export function primitiveObjectDiff(
  oldV: unknown,
  newV: unknown,
  filter: readonly string[],
  name: string,
  contextual: boolean,
): ObjectDiff | null {
  const oldObj = asObj(oldV);
  const newObj = asObj(newV);
  // Most blocks are absent on both sides: no fields, so no diff (the walk below would find none).
  if (oldObj === null && newObj === null) return null;
  const [o, n] = flattenPair(oldObj, newObj, filter);
  const fields = fieldDiffs(o, n, contextual);
  const type = typeFromFields(fields);
  return type === null ? null : makeObjectDiff(type, name, fields, []);
}

/** Groups list members by key; a later duplicate wins, as a Go map insert would. */
export function keyBy(list: unknown, keyOf: (o: Obj) => string): Map<string, Obj> {
  const m = new Map<string, Obj>();
  for (const item of asList(list)) if (isObj(item)) m.set(keyOf(item), item);
  return m;
}

function sortedKeys(m: Map<string, unknown>): string[] {
  return [...m.keys()].sort(compareGoStrings);
}

/**
 * Matches the members of two lists by key and diffs each pair; members missing on one side are
 * diffed against null. Iteration is in key order so that equal-ranked results stay deterministic.
 */
export function keyedDiffs(
  oldList: unknown,
  newList: unknown,
  keyOf: (o: Obj) => string,
  diff: (o: Obj | null, n: Obj | null) => ObjectDiff | null,
): ObjectDiff[] {
  if (isEmptyList(oldList) && isEmptyList(newList)) return [];
  const oldMap = keyBy(oldList, keyOf);
  const newMap = keyBy(newList, keyOf);
  const out: ObjectDiff[] = [];
  for (const k of sortedKeys(oldMap)) {
    const d = diff(oldMap.get(k) ?? null, newMap.get(k) ?? null);
    if (d) out.push(d);
  }
  for (const k of sortedKeys(newMap)) {
    if (oldMap.has(k)) continue;
    const d = diff(null, newMap.get(k) ?? null);
    if (d) out.push(d);
  }
  return sortObjectDiffs(out);
}

/**
 * A set of structs without identity (constraints, affinities, artifacts): members are keyed by their
 * whole content, so an edited member shows as one Deleted and one Added object.
 */
export function primitiveObjectSetDiff(
  oldList: unknown,
  newList: unknown,
  filter: readonly string[],
  name: string,
  contextual: boolean,
): ObjectDiff[] {
  return keyedDiffs(oldList, newList, canonicalKey, (o, n) =>
    primitiveObjectDiff(o, n, filter, name, contextual),
  );
}

/** No members to match: absent, null, not a list, or a list of none. */
function isEmptyList(v: unknown): boolean {
  return !Array.isArray(v) || v.length === 0;
}

function stringSet(v: unknown): Set<string> {
  const s = new Set<string>();
  for (const item of asList(v)) {
    const text = scalarString(item);
    if (text !== undefined) s.add(text);
  }
  return s;
}

/** A set of strings (datacenters, tags); each member is a field named after the set. */
export function stringSetDiff(
  oldV: unknown,
  newV: unknown,
  name: string,
  contextual: boolean,
): ObjectDiff | null {
  if (isEmptyList(oldV) && isEmptyList(newV)) return null;
  const o = stringSet(oldV);
  const n = stringSet(newV);
  const fields: FieldDiff[] = [];
  let added = false;
  let removed = false;
  for (const k of o) {
    if (!n.has(k)) {
      fields.push(fieldDiff(k, '', name, contextual)!);
      removed = true;
    } else if (contextual) {
      fields.push(fieldDiff(k, k, name, contextual)!);
    }
  }
  for (const k of n) {
    if (!o.has(k)) {
      fields.push(fieldDiff('', k, name, contextual)!);
      added = true;
    }
  }
  sortInPlace(fields, compareFieldDiffs);
  let type: DiffType = 'None';
  if (added && removed) type = 'Edited';
  else if (added) type = 'Added';
  else if (removed) type = 'Deleted';
  else if (fields.length === 0) return null;
  return makeObjectDiff(type, name, fields, []);
}

export interface StructDiffSpec {
  name: string;
  /** Flattened paths left out of the fields. */
  filter?: readonly string[];
  /** Nomad lists unchanged top-level fields of some structs even in contextual mode; false turns that off. */
  contextualFields?: boolean;
  /** Extra scalar fields Nomad computes by hand (pointer fields that flattening skips). */
  extra?: (o: Obj) => Flat;
  children?: (o: Obj, n: Obj, contextual: boolean) => ObjectDiff[];
}

/**
 * A diff of a struct whose presence decides the type: Added when it appears, Deleted when it goes,
 * Edited otherwise, even when only nested children changed.
 */
export function structDiff(
  oldV: unknown,
  newV: unknown,
  spec: StructDiffSpec,
  contextual: boolean,
): ObjectDiff | null {
  const o = asObj(oldV);
  const n = asObj(newV);
  if (semanticEqual(o, n)) return null;
  const type: DiffType = o === null ? 'Added' : n === null ? 'Deleted' : 'Edited';
  const [of, nf] = flattenPair(o, n, spec.filter ?? []);
  if (spec.extra) {
    if (o && of) Object.assign(of, spec.extra(o));
    if (n && nf) Object.assign(nf, spec.extra(n));
  }
  const fields = fieldDiffs(of, nf, spec.contextualFields === false ? false : contextual);
  const objects = spec.children ? spec.children(o ?? {}, n ?? {}, contextual) : [];
  return makeObjectDiff(type, spec.name, fields, objects);
}

function isEmptyMap(v: unknown): boolean {
  const o = asObj(v);
  return o === null || Object.keys(o).length === 0;
}

/** A free-form map (driver Config, scaling Policy, check Header): every leaf is a field. */
export function freeMapDiff(
  oldV: unknown,
  newV: unknown,
  name: string,
  contextual: boolean,
): ObjectDiff | null {
  if (semanticEqual(oldV, newV)) return null;
  let type: DiffType = 'Edited';
  if (isEmptyMap(oldV)) type = 'Added';
  else if (isEmptyMap(newV)) type = 'Deleted';
  const fields = fieldDiffs(flattenFull(oldV), flattenFull(newV), contextual);
  return makeObjectDiff(type, name, fields, []);
}

/** Task groups and tasks: matched by name (a later duplicate wins) and sorted by name. */
export function matchByName<T extends { Name: string }>(
  oldList: unknown,
  newList: unknown,
  diff: (o: Obj | null, n: Obj | null) => T,
): T[] {
  const oldMap = new Map(asObjList(oldList).map((t) => [str(t.Name), t] as const));
  const newMap = new Map(asObjList(newList).map((t) => [str(t.Name), t] as const));
  const out: T[] = [];
  for (const [name, o] of oldMap) out.push(diff(o, newMap.get(name) ?? null));
  for (const [name, n] of newMap) if (!oldMap.has(name)) out.push(diff(null, n));
  return sortInPlace(out, (a, b) => compareGoStrings(a.Name, b.Name));
}
