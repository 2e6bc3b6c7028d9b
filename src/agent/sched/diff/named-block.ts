import type { DiffType, FieldDiff } from './types';
import { fieldDiffs } from './fields';
import { flattenPair } from './flatten';
import { semanticEqual, str, type Obj } from './json';

export interface NamedBlockHead {
  type: DiffType;
  name: string;
  fields: FieldDiff[];
}

/**
 * What a task group diff and a task diff start with: the block's type (compared whole, so an edit deep in a
 * nested object still marks it Edited), its name from whichever side exists, and its top-level field diffs.
 * Top-level fields are never contextual in Nomad; only nested objects are.
 */
export function namedBlockHead(oldB: Obj | null, newB: Obj | null, ignored: string[]): NamedBlockHead {
  let type: DiffType = 'None';
  if (oldB === null && newB !== null) type = 'Added';
  else if (newB === null && oldB !== null) type = 'Deleted';
  else if (!semanticEqual(oldB, newB)) type = 'Edited';
  const [of, nf] = flattenPair(oldB, newB, ignored);
  return { type, name: str((newB ?? oldB)?.Name), fields: fieldDiffs(of, nf, false) };
}
