/**
 * Whether two JSON-shaped values serialise to the same text, without serialising them: comparing
 * JSON.stringify outputs allocates two strings per value (a whole jobspec per job of a plan), where
 * this walk allocates nothing. Key order counts, as it does in the text.
 */

/** Stands for a member JSON.stringify leaves out of an object (undefined, a function, a symbol). */
const OMITTED = Symbol('omitted');

type Leaf = string | number | boolean | null | typeof OMITTED;

/** A primitive as its JSON text reads: non-finite numbers are null, -0 is 0. */
function leaf(v: unknown, inArray: boolean): Leaf {
  if (v === null) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v + 0 : null;
    default:
      return inArray ? null : OMITTED;
  }
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

function sameArrays(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameMember(a[i], b[i], true)) return false;
  return true;
}

/** Members in order, skipping the ones the text leaves out. */
function sameObjects(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).filter((k) => leaf(a[k], false) !== OMITTED || isObject(a[k]));
  const kb = Object.keys(b).filter((k) => leaf(b[k], false) !== OMITTED || isObject(b[k]));
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameMember(a[ka[i]!], b[kb[i]!], false)) return false;
  }
  return true;
}

function sameMember(a: unknown, b: unknown, inArray: boolean): boolean {
  if (a === b) return true;
  if (isObject(a) && isObject(b)) {
    const arr = Array.isArray(a);
    if (arr !== Array.isArray(b)) return false;
    return arr
      ? sameArrays(a as unknown[], b as unknown[])
      : sameObjects(a as Record<string, unknown>, b as Record<string, unknown>);
  }
  if (isObject(a) || isObject(b)) return false;
  return leaf(a, inArray) === leaf(b, inArray);
}

/** JSON.stringify(a) === JSON.stringify(b) for JSON-shaped values (plain objects, arrays, primitives). */
export function sameJsonText(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameMember(a, b, true);
}
