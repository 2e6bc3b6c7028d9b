/**
 * Our diagnostics as Terraform's: severity, summary, detail and the attribute path, whose steps depend
 * on the type they walk through (a string step into a map is a key, into an object an attribute name).
 */
import { ResourceApplyError } from '../provider/common/errors';
import { DiagnosticsError, type AttrPath, type Diagnostic } from '../provider/values';
import { CtyError, type CtyType } from './cty';

export type ProtoStep =
  { attribute_name: string } | { element_key_string: string } | { element_key_int: number };

export interface ProtoDiagnostic {
  severity: 'ERROR' | 'WARNING';
  summary: string;
  detail: string;
  attribute?: { steps: ProtoStep[] };
}

/** Steps of a path inside a value of type `type`; stops where the path leaves the type. */
export function attributePath(path: AttrPath, type: CtyType | undefined): ProtoStep[] {
  const steps: ProtoStep[] = [];
  let t: CtyType | undefined = type;
  for (const p of path) {
    if (t === undefined || typeof t === 'string') {
      // Past the type (free-form JSON, dynamic): the rest of the path means nothing to Terraform.
      if (t === undefined && steps.length === 0 && typeof p === 'string') steps.push({ attribute_name: p });
      break;
    }
    const [kind, inner] = t;
    if (kind === 'object') {
      if (typeof p !== 'string' || !(p in inner)) break;
      steps.push({ attribute_name: p });
      t = inner[p];
    } else if (kind === 'map') {
      steps.push({ element_key_string: String(p) });
      t = inner;
    } else if (kind === 'list' || kind === 'tuple') {
      if (typeof p !== 'number') break;
      steps.push({ element_key_int: p });
      t = kind === 'list' ? (inner as CtyType) : (inner as CtyType[])[p];
    } else {
      // Set elements have no index Terraform could resolve: point at the set itself.
      break;
    }
  }
  return steps;
}

export function toProto(d: Diagnostic, type?: CtyType): ProtoDiagnostic {
  const out: ProtoDiagnostic = {
    severity: d.severity === 'error' ? 'ERROR' : 'WARNING',
    summary: d.summary,
    detail: d.detail ?? '',
  };
  if (d.path && d.path.length > 0) {
    const steps = attributePath(d.path, type);
    if (steps.length > 0) out.attribute = { steps };
  }
  return out;
}

export function toProtoAll(ds: readonly Diagnostic[], type?: CtyType): ProtoDiagnostic[] {
  return ds.map((d) => toProto(d, type));
}

export function errorDiagnostic(summary: string, detail = ''): ProtoDiagnostic {
  return { severity: 'ERROR', summary, detail };
}

/** Diagnostics for an error a handler threw: its own diagnostics, or one error with its message. */
export function fromError(err: unknown, summary: string, type?: CtyType): ProtoDiagnostic[] {
  if (err instanceof DiagnosticsError) return toProtoAll(err.diagnostics, type);
  if (err instanceof CtyError) return [errorDiagnostic(summary, `invalid value at ${err.message}`)];
  if (err instanceof ResourceApplyError) return [errorDiagnostic(summary, err.message)];
  return [errorDiagnostic(summary, err instanceof Error ? err.message : String(err))];
}

export const hasErrors = (ds: readonly ProtoDiagnostic[]): boolean => ds.some((d) => d.severity === 'ERROR');
