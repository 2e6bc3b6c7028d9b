/**
 * Keeping secrets out of rendered plans. Two layers: values at sensitive paths are masked where the
 * renderers meet them, and every rendered string is scrubbed of the secret values themselves, so a
 * secret that also travels elsewhere (inside a jobspec, a scheduler job diff, an error message)
 * is caught too.
 */
import { type AttrPath, isUnknown, valueAt } from '../../provider/values';
import type { PlanModel } from './model';

export const SENSITIVE_TEXT = '(sensitive value)';
/** Shorter secrets are masked where they are known to be, but not searched for in free text. */
export const MIN_SCRUB_LENGTH = 4;

function samePrefix(prefix: AttrPath, path: AttrPath): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

/**
 * True when a listed path equals `path` or contains it. Indexed loops, no closure or iterator: asked
 * for every value rendered, mostly before the optimizer has compiled this.
 */
export function covered(paths: AttrPath[], path: AttrPath): boolean {
  for (let i = 0; i < paths.length; i++) if (samePrefix(paths[i]!, path)) return true;
  return false;
}

export function exactly(paths: AttrPath[], path: AttrPath): boolean {
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i]!;
    if (p.length === path.length && samePrefix(p, path)) return true;
  }
  return false;
}

/**
 * Replaces values at sensitive paths with `replacement`: null for machine-readable output, the text
 * `(sensitive value)` for people.
 */
export function maskSensitive(
  value: unknown,
  paths: AttrPath[],
  path: AttrPath = [],
  replacement: null | string = null,
): unknown {
  if (paths.length === 0) return value;
  if (covered(paths, path)) return value === undefined ? undefined : replacement;
  if (Array.isArray(value)) return value.map((v, i) => maskSensitive(v, paths, [...path, i], replacement));
  if (value && typeof value === 'object' && !isUnknown(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskSensitive(v, paths, [...path, k], replacement);
    return out;
  }
  return value;
}

/** Every string (and number) inside a value: the secret's parts as they may be printed. */
function leaves(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (Array.isArray(value)) value.forEach((v) => leaves(v, out));
  else if (value && typeof value === 'object' && !isUnknown(value))
    Object.values(value).forEach((v) => leaves(v, out));
}

/** The printable parts of the values at these paths. */
export function secretsAt(value: unknown, paths: AttrPath[]): string[] {
  const found: string[] = [];
  for (const p of paths) leaves(valueAt(value, p), found);
  return found;
}

/** The secret values of a plan: everything at a sensitive path, and sensitive outputs. */
export function collectSecrets(plan: PlanModel): string[] {
  const found: string[] = [...(plan.secrets ?? [])];
  for (const rc of [...plan.resourceChanges, ...(plan.drift ?? [])]) {
    found.push(...secretsAt(rc.before, rc.beforeSensitive), ...secretsAt(rc.after, rc.afterSensitive));
  }
  for (const o of plan.outputChanges) {
    if (o.sensitive) {
      leaves(o.before, found);
      leaves(o.after, found);
    }
  }
  return found;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Finds secrets in text, also in their JSON-escaped forms (a secret inside a JSON string inside JSON). */
export class Redactor {
  private readonly pattern: RegExp | null;

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    for (const s of secrets) {
      if (s.length < MIN_SCRUB_LENGTH) continue;
      let form = s;
      for (let depth = 0; depth < 3; depth++) {
        forms.add(form);
        form = JSON.stringify(form).slice(1, -1);
      }
    }
    // Longest first, so a secret containing another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.pattern = sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : null;
  }

  static forPlan(plan: PlanModel, extra: Iterable<string> = []): Redactor {
    return new Redactor([...collectSecrets(plan), ...extra]);
  }

  get empty(): boolean {
    return this.pattern === null;
  }

  text(s: string): string {
    return this.pattern ? s.replace(this.pattern, SENSITIVE_TEXT) : s;
  }

  /** Scrubs every string inside a JSON value (keys too). */
  value<T>(v: T): T {
    if (!this.pattern) return v;
    const walk = (x: unknown): unknown => {
      if (typeof x === 'string') return this.text(x);
      if (Array.isArray(x)) return x.map(walk);
      if (x && typeof x === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, val] of Object.entries(x)) out[this.text(k)] = walk(val);
        return out;
      }
      return x;
    };
    return walk(v) as T;
  }
}
