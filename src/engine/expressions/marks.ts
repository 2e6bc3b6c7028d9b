/**
 * Sensitivity as a property of values (Terraform's cty marks): a `Sensitive` wrapper around any
 * value, UNKNOWN included. Marks sit where they were put: an object can hold one marked attribute
 * and be unmarked itself, so renderers mask only the marked leaves. The evaluator removes marks
 * before it computes and puts them back on what it computed; the configuration boundary turns them
 * into attribute paths (`unmarkWithPaths`), which is what plans and state record.
 */
import type { AttrPath } from '../../provider/values';
import { isBigFloat } from '../numbers/num';

export class Sensitive {
  constructor(readonly value: unknown) {}
}

export function isSensitive(v: unknown): v is Sensitive {
  return v instanceof Sensitive;
}

/** Marks a value (once: marking a marked value changes nothing). */
export function markSensitive(v: unknown): unknown {
  return v instanceof Sensitive ? v : new Sensitive(v);
}

/** Marks `v` when `marked`; the common tail of every operation on possibly marked operands. */
export function markIf(v: unknown, marked: boolean): unknown {
  return marked ? markSensitive(v) : v;
}

/** The value without its own mark (marks inside it stay), and whether it had one. */
export function unmark(v: unknown): [unknown, boolean] {
  return v instanceof Sensitive ? [v.value, true] : [v, false];
}

/** True when the value or anything inside it is marked. */
export function containsMarks(v: unknown): boolean {
  if (v instanceof Sensitive) return true;
  if (Array.isArray(v)) return v.some(containsMarks);
  if (v !== null && typeof v === 'object') return Object.values(v).some(containsMarks);
  return false;
}

/**
 * The value with every mark removed, and whether there was any. Values without marks are returned
 * as they are (no copy), so the common unmarked case costs one walk.
 */
export function unmarkDeep(v: unknown): [unknown, boolean] {
  if (!containsMarks(v)) return [v, false];
  return [strip(v, [], undefined), true];
}

/** The value with every mark removed, and the paths of the marked values (Terraform's UnmarkDeepWithPaths). */
export function unmarkWithPaths(v: unknown): { value: unknown; paths: AttrPath[] } {
  if (!containsMarks(v)) return { value: v, paths: [] };
  const paths: AttrPath[] = [];
  return { value: strip(v, [], paths), paths };
}

function strip(v: unknown, path: AttrPath, paths: AttrPath[] | undefined): unknown {
  let cur = v;
  while (cur instanceof Sensitive) {
    if (paths && (paths.length === 0 || !samePath(paths[paths.length - 1]!, path))) paths.push(path);
    cur = cur.value;
  }
  if (Array.isArray(cur)) return cur.map((x, i) => strip(x, [...path, i], paths));
  if (cur !== null && typeof cur === 'object') {
    if (!containsMarks(cur)) return cur;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(cur))
      Object.defineProperty(out, k, {
        value: strip(x, [...path, k], paths),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return cur;
}

function samePath(a: AttrPath, b: AttrPath): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Marks the values at these paths (a path that leaves the value marks nothing). */
export function markPaths(v: unknown, paths: readonly AttrPath[]): unknown {
  let out = v;
  for (const p of paths) out = markAt(out, p, 0);
  return out;
}

function markAt(v: unknown, path: AttrPath, i: number): unknown {
  if (i === path.length) return markSensitive(v);
  const [inner, marked] = unmark(v);
  const step = path[i]!;
  if (Array.isArray(inner) && typeof step === 'number' && step < inner.length) {
    const copy = [...inner];
    copy[step] = markAt(inner[step], path, i + 1);
    return markIf(copy, marked);
  }
  if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && typeof step === 'string') {
    if (!Object.prototype.hasOwnProperty.call(inner, step)) return v;
    const copy: Record<string, unknown> = { ...(inner as Record<string, unknown>) };
    Object.defineProperty(copy, step, {
      value: markAt((inner as Record<string, unknown>)[step], path, i + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return markIf(copy, marked);
  }
  return v;
}

/** Shorter values are not searched for in text: they would mask ordinary words. */
const MIN_MASKED_LENGTH = 4;

/** Every string and number inside a value (marks removed): the forms a secret takes in text. */
export function leafTexts(v: unknown, out: string[] = []): string[] {
  const [inner] = unmark(v);
  if (typeof inner === 'string') out.push(inner);
  else if (typeof inner === 'number' || isBigFloat(inner)) out.push(String(inner));
  else if (Array.isArray(inner)) for (const x of inner) leafTexts(x, out);
  else if (inner !== null && typeof inner === 'object')
    for (const x of Object.values(inner)) leafTexts(x, out);
  return out;
}

/** A message with the texts of these values replaced by `(sensitive value)`. */
export function maskLeaves(message: string, values: unknown[]): string {
  const texts = values
    .flatMap((v) => leafTexts(v))
    .filter((t) => t.length >= MIN_MASKED_LENGTH)
    .sort((a, b) => b.length - a.length);
  let out = message;
  for (const t of texts) out = out.split(t).join('(sensitive value)');
  return out;
}
