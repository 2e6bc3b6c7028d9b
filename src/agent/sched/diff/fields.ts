import type { DiffType, FieldDiff } from './types';
import type { Flat } from './flatten';
import { compareGoStrings, sortInPlace } from './json';

/*
 * Field level diffs. As in Nomad, an empty string means "unset": a field going from "" to a value is
 * Added, the reverse is Deleted.
 */

export function fieldDiff(oldV: string, newV: string, name: string, contextual: boolean): FieldDiff | null {
  if (oldV === newV) {
    return contextual ? { Type: 'None', Name: name, Old: oldV, New: newV, Annotations: null } : null;
  }
  let type: DiffType = 'Edited';
  if (oldV === '') type = 'Added';
  else if (newV === '') type = 'Deleted';
  return {
    Type: type,
    Name: name,
    Old: type === 'Added' ? '' : oldV,
    New: type === 'Deleted' ? '' : newV,
    Annotations: null,
  };
}

export function compareFieldDiffs(a: FieldDiff, b: FieldDiff): number {
  return compareGoStrings(a.Name, b.Name) || compareGoStrings(a.Old, b.Old) || compareGoStrings(a.New, b.New);
}

export function fieldDiffs(oldFlat: Flat | null, newFlat: Flat | null, contextual: boolean): FieldDiff[] {
  const o = oldFlat ?? {};
  const n = newFlat ?? {};
  const diffs: FieldDiff[] = [];
  for (const k of Object.keys(o)) {
    const d = fieldDiff(o[k]!, Object.hasOwn(n, k) ? (n[k] ?? '') : '', k, contextual);
    if (d) diffs.push(d);
  }
  for (const k of Object.keys(n)) {
    if (Object.hasOwn(o, k)) continue;
    const d = fieldDiff('', n[k]!, k, contextual);
    if (d) diffs.push(d);
  }
  return sortInPlace(diffs, compareFieldDiffs);
}

/** The type of an object judged by its fields alone, or null when nothing changed. */
export function typeFromFields(fields: readonly FieldDiff[]): DiffType | null {
  let added = false;
  let deleted = false;
  for (const f of fields) {
    if (f.Type === 'Edited') return 'Edited';
    if (f.Type === 'Added') added = true;
    if (f.Type === 'Deleted') deleted = true;
  }
  if (added && deleted) return 'Edited';
  if (added) return 'Added';
  if (deleted) return 'Deleted';
  return null;
}

export function nullIfEmpty<T>(list: T[]): T[] | null {
  return list.length > 0 ? list : null;
}
