/**
 * Static checks of a configuration against an attribute shape (required present, computed-only absent,
 * each value of its zod type), shared by every provider. Values not known until apply are skipped: they
 * are checked again once known. Messages never quote the offending value, so a sensitive one cannot leak.
 */
import type { z } from 'zod';
import { metaOf, type AttrMeta } from '../schema';
import { containsUnknown, isUnknown, type AttrPath, type Diagnostic } from '../values';

export function errorAt(path: AttrPath, summary: string, detail?: string): Diagnostic {
  return { severity: 'error', summary, path, ...(detail !== undefined ? { detail } : {}) };
}

export function warningAt(path: AttrPath, summary: string, detail?: string): Diagnostic {
  return { severity: 'warning', summary, path, ...(detail !== undefined ? { detail } : {}) };
}

export const hasErrors = (ds: readonly Diagnostic[]): boolean => ds.some((d) => d.severity === 'error');

function issuePath(base: string, path: ReadonlyArray<PropertyKey>): AttrPath {
  return [base, ...path.map((p) => (typeof p === 'number' ? p : String(p)))];
}

export interface ShapeCheckOptions {
  /** Accept computed-only attributes in the input (provider settings never have any; states do). */
  allowComputed?: boolean;
}

interface ShapeEntry {
  name: string;
  schema: z.ZodType;
  meta: AttrMeta;
}

/**
 * A shape's attributes with their metadata, listed once per shape: every instance of a plan is
 * validated against the same shape, and listing it each time was most of what validating an unchanged
 * job allocated.
 */
function entriesOf(shape: Record<string, z.ZodType>): ShapeEntry[] {
  let entries = shapeEntries.get(shape);
  if (!entries) {
    entries = Object.entries(shape).map(([name, schema]) => ({ name, schema, meta: metaOf(schema) }));
    shapeEntries.set(shape, entries);
  }
  return entries;
}

const shapeEntries = new WeakMap<Record<string, z.ZodType>, ShapeEntry[]>();

/** Diagnostics for `config` against `shape`; empty when it is valid as far as it is known. */
export function validateShape(
  shape: Record<string, z.ZodType>,
  config: Record<string, unknown>,
  opts: ShapeCheckOptions = {},
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const name of Object.keys(config)) {
    if (!(name in shape)) out.push(errorAt([name], `Unsupported argument "${name}"`));
  }
  for (const { name, schema, meta } of entriesOf(shape)) {
    const value = config[name];
    if (value === undefined || value === null) {
      if (meta.required) out.push(errorAt([name], `Missing required argument "${name}"`));
      continue;
    }
    if (meta.computed && !meta.optional && !meta.required) {
      if (!opts.allowComputed) {
        out.push(errorAt([name], `"${name}" is set by the provider and cannot be configured`));
      }
      continue;
    }
    if (containsUnknown(value)) continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      out.push(errorAt(issuePath(name, issue.path), `Invalid value for "${name}"`, issue.message));
    }
  }
  return out;
}

/** The known, non-null value of an attribute, or undefined (absent, null or unknown). */
export function known<T>(v: T | null | undefined): Exclude<T, null> | undefined {
  if (v === null || v === undefined || isUnknown(v)) return undefined;
  return v as Exclude<T, null>;
}

export function knownString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function knownBool(v: unknown, fallback: boolean): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

export function knownNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A map(string) attribute as a plain record, or undefined. */
export function knownStringMap(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v) || isUnknown(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** Equality of optional maps where absent, null and empty mean the same thing. */
export function sameStringMap(a: unknown, b: unknown): boolean {
  const x = knownStringMap(a) ?? {};
  const y = knownStringMap(b) ?? {};
  const kx = Object.keys(x).sort();
  const ky = Object.keys(y).sort();
  return kx.length === ky.length && kx.every((k, i) => k === ky[i] && x[k] === y[k]);
}
