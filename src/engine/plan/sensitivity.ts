/**
 * Where an instance's sensitive values sit, as the plan and the state record them: the paths of
 * the marked values of its configuration, carried onto the values the handler planned or returned
 * (Terraform re-applies the configuration's marks to the planned value the same way), plus the
 * places where a handler or the server echoed a secret back (a computed attribute parsed out of a
 * sensitive jobspec, an error text). Schema-sensitive attributes are added by the callers, as before.
 */
import type { StackConfig } from '../config';
import { leafTexts } from '../expressions/marks';
import { isUnknown, valueAt, type AttrPath } from '../../provider/values';
import type { InstancePlan } from './types';

/** Sensitive paths of one planned instance. Absent in plans saved before marks were recorded. */
export interface InstanceMarks {
  /** Marked paths of the configuration, as the evaluator found them. */
  config: AttrPath[];
  /** Sensitive paths of the prior value (recorded in the state, or echoed secrets). */
  before: AttrPath[];
  /** Sensitive paths of the planned value. */
  after: AttrPath[];
}

/** Shorter texts are not searched for: they would mark ordinary values. */
const MIN_ECHO_LENGTH = 4;

/**
 * Each path carried onto `value`: the path itself where `value` has it, else its longest prefix that
 * `value` holds as a whole (a handler that turns a marked object into a string marks the string).
 */
export function pathsOnto(value: unknown, paths: readonly AttrPath[]): AttrPath[] {
  const out: AttrPath[] = [];
  for (const p of paths) {
    let i = 0;
    let cur = value;
    while (i < p.length && isContainer(cur) && hasStep(cur, p[i]!)) {
      cur = (cur as Record<string | number, unknown>)[p[i]!];
      i++;
    }
    // Stopping inside a container, or at the root, means the value does not have this path at all.
    if ((i === p.length || !isContainer(cur)) && (i > 0 || p.length === 0) && cur !== undefined)
      out.push(p.slice(0, i));
  }
  return dedupe(out);
}

function isContainer(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !isUnknown(v);
}

function hasStep(v: unknown, step: string | number): boolean {
  if (Array.isArray(v)) return typeof step === 'number' && step < v.length;
  return typeof step === 'string' && Object.prototype.hasOwnProperty.call(v, step);
}

/** Paths of the strings inside `value` that contain one of the secrets. */
export function echoPaths(value: unknown, secrets: readonly string[]): AttrPath[] {
  const wanted = secrets.filter((s) => s.length >= MIN_ECHO_LENGTH);
  if (wanted.length === 0) return [];
  const out: AttrPath[] = [];
  const walk = (v: unknown, path: AttrPath): void => {
    if (typeof v === 'string') {
      if (wanted.some((s) => v.includes(s))) out.push(path);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isContainer(v)) for (const [k, x] of Object.entries(v as object)) walk(x, [...path, k]);
  };
  walk(value, []);
  return out;
}

/** The texts of the stack's sensitive variables: what an echo of a secret would contain. */
export function sensitiveVariableTexts(
  config: StackConfig,
  values: Readonly<Record<string, unknown>>,
): string[] {
  const out: string[] = [];
  for (const v of config.variables.values()) if (v.sensitive) leafTexts(values[v.name], out);
  return out.filter((t) => t.length >= MIN_ECHO_LENGTH);
}

/** The texts at these paths of a value. */
export function textsAt(value: unknown, paths: readonly AttrPath[]): string[] {
  const out: string[] = [];
  for (const p of paths) leafTexts(valueAt(value, p), out);
  return out.filter((t) => t.length >= MIN_ECHO_LENGTH);
}

/**
 * The texts at a planned instance's sensitive paths, before and after: its schema's sensitive
 * attributes and its marks (the paths its render-model change lists as beforeSensitive and
 * afterSensitive).
 */
export function instanceSecretTexts(ip: InstancePlan): string[] {
  if (ip.sensitive.length === 0 && !ip.marks) return [];
  const names = ip.sensitive.map((k): AttrPath => [k]);
  return [
    ...textsAt(ip.change.prior, [...names, ...(ip.marks?.before ?? [])]),
    ...textsAt(ip.change.planned, [...names, ...(ip.marks?.after ?? [])]),
  ];
}

/** The marks of a planned instance, from its configuration's marks and what the state recorded. */
export function instanceMarks(input: {
  configPaths: AttrPath[];
  config: unknown;
  prior: unknown;
  planned: unknown;
  recorded: readonly AttrPath[];
  secrets: readonly string[];
}): InstanceMarks {
  const secrets = [...input.secrets, ...textsAt(input.config, input.configPaths)];
  return {
    config: input.configPaths,
    before: dedupe([...input.recorded, ...echoPaths(input.prior, secrets)]),
    after: dedupe([...pathsOnto(input.planned, input.configPaths), ...echoPaths(input.planned, secrets)]),
  };
}

/** The sensitive paths of a value an apply returned, for the state's sensitive_attributes. */
export function appliedMarks(
  marks: InstanceMarks | undefined,
  planned: unknown,
  next: unknown,
  secrets: readonly string[],
): AttrPath[] {
  if (!marks) return [];
  const known = [...secrets, ...textsAt(planned, marks.after)];
  return dedupe([
    ...pathsOnto(next, marks.config),
    ...pathsOnto(next, marks.after),
    ...echoPaths(next, known),
  ]);
}

/** Paths without repeats, and without those a shorter listed path already covers. */
export function dedupe(paths: readonly AttrPath[]): AttrPath[] {
  const sorted = [...paths].sort((a, b) => a.length - b.length);
  const out: AttrPath[] = [];
  for (const p of sorted)
    if (!out.some((q) => q.length <= p.length && q.every((x, i) => x === p[i]))) out.push(p);
  return out;
}

/** Schema-sensitive attribute names as paths. */
export function namePaths(names: readonly string[]): AttrPath[] {
  return names.map((n) => [n]);
}

/** What expressions referring to a planned instance see marked: its schema's and its value's marks. */
export function referencePaths(
  schemaSensitive: readonly string[],
  marks: InstanceMarks | undefined,
): AttrPath[] {
  return dedupe([...namePaths(schemaSensitive), ...(marks?.before ?? []), ...(marks?.after ?? [])]);
}

/** What expressions referring to a data source see marked: its schema's and its configuration's marks. */
export function dataPaths(
  schemaSensitive: readonly string[],
  configPaths: AttrPath[],
  value: unknown,
): AttrPath[] {
  return dedupe([...namePaths(schemaSensitive), ...pathsOnto(value, configPaths)]);
}
