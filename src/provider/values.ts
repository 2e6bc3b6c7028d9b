/**
 * Values as they travel between the engine (or Terraform) and the handlers. A value not known until
 * apply is the `UNKNOWN` marker, which survives JSON (saved plans) as `{"__unknown__": true}`.
 */
export const UNKNOWN_MARK = '__unknown__';

export interface UnknownValue {
  readonly [UNKNOWN_MARK]: true;
}

export const UNKNOWN: UnknownValue = Object.freeze({ [UNKNOWN_MARK]: true as const });

export function isUnknown(v: unknown): v is UnknownValue {
  return typeof v === 'object' && v !== null && (v as Record<string, unknown>)[UNKNOWN_MARK] === true;
}

/** True when the value or anything inside it is unknown. */
export function containsUnknown(v: unknown): boolean {
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === 'object') return Object.values(v).some(containsUnknown);
  return false;
}

export type AttrPath = (string | number)[];

export interface Diagnostic {
  severity: 'error' | 'warning';
  summary: string;
  detail?: string;
  /** Attribute path inside the resource, e.g. ["jobspec"] or ["namespace_rule", 0, "selector"]. */
  path?: AttrPath;
}

export class DiagnosticsError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'DiagnosticsError';
  }
}

export function formatDiagnostic(d: Diagnostic): string {
  const at = d.path && d.path.length > 0 ? ` (at ${formatPath(d.path)})` : '';
  return `${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.summary}${at}${d.detail ? `: ${d.detail}` : ''}`;
}

export function formatPath(path: AttrPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The value at a path, or undefined where the path leaves the value. */
export function valueAt(value: unknown, path: AttrPath): unknown {
  let cur = value;
  for (const step of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}
