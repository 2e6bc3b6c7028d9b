/**
 * Variable definition files and Terraform's order of precedence. A `.tfvars` file is an HCL body of
 * `name = value` attributes with constant values (no references, no function calls); a
 * `.tfvars.json` file is one JSON object. Later sources win: TF_VAR_* environment variables, then
 * terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json) in lexical order, then -var and
 * -var-file in the order given on the command line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluate, type EvalScope } from '../expressions/evaluate';
import { ExpressionError } from '../expressions/errors';
import { parseExpression } from '../expressions/parser';
import { visitExpr } from '../expressions/references';
import { isObjectValue } from '../expressions/values';
import type { VariableInputs } from './variables';

/** One variable's value from one source: typed (a file) or raw text (`--var`, `TF_VAR_`). */
export type VariableSetting = { name: string; value: unknown } | { name: string; raw: string };

export class VarFileError extends Error {
  constructor(
    readonly file: string,
    readonly summary: string,
    readonly detail: string,
  ) {
    super(`${file}: ${summary}: ${detail}`);
    this.name = 'VarFileError';
  }
}

const NO_NAMES: EvalScope = {
  resolveReference: () => undefined,
  variable: () => undefined,
  local: () => undefined,
};

/** Refuses what Terraform refuses in a definitions file: references and function calls. */
function checkConstant(expr: ReturnType<typeof parseExpression>, file: string): void {
  visitExpr(expr, {
    reference() {
      throw new VarFileError(file, 'Variables not allowed', 'Variables may not be used here.');
    },
    call() {
      throw new VarFileError(file, 'Function calls not allowed', 'Functions may not be called here.');
    },
  });
}

/** Parses `.tfvars` text: the body is read as the items of an HCL object constructor. */
export function parseTfvars(text: string, file: string): Record<string, unknown> {
  let expr;
  try {
    expr = parseExpression(`{\n${text}\n}`);
  } catch (e) {
    if (e instanceof ExpressionError) throw new VarFileError(file, e.summary, e.detail ?? '');
    throw e;
  }
  if (expr.type !== 'object')
    throw new VarFileError(file, 'Invalid definitions file', 'expected name = value');
  const out: Record<string, unknown> = {};
  for (const item of expr.items) {
    const k = item.key;
    const name =
      k.type === 'literal' ? k.value : k.type === 'scope' && k.steps.length === 0 ? k.name : undefined;
    if (typeof name !== 'string')
      throw new VarFileError(file, 'Invalid definition', 'each definition must be name = value');
    if (Object.prototype.hasOwnProperty.call(out, name))
      throw new VarFileError(file, 'Duplicate argument', `The argument "${name}" was already set.`);
    checkConstant(item.value, file);
    out[name] = evaluate(item.value, NO_NAMES);
  }
  return out;
}

export function parseTfvarsJson(text: string, file: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new VarFileError(file, 'Invalid JSON', (e as Error).message);
  }
  if (!isObjectValue(v))
    throw new VarFileError(file, 'Invalid definitions file', 'the root value must be a JSON object');
  return v;
}

/** Reads one definitions file (`.json` suffix: JSON, else HCL) into settings in file order. */
export function readVarFile(file: string): VariableSetting[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new VarFileError(
      file,
      'Failed to read variables file',
      `Given variables file ${file} does not exist or cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  const values = file.endsWith('.json') ? parseTfvarsJson(text, file) : parseTfvars(text, file);
  return Object.entries(values).map(([name, value]) => ({ name, value }));
}

/** The files Terraform loads without being asked, from `dir`, in the order it loads them. */
export function autoVarFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const fixed = ['terraform.tfvars', 'terraform.tfvars.json'].filter((n) => names.includes(n));
  const auto = names.filter((n) => n.endsWith('.auto.tfvars') || n.endsWith('.auto.tfvars.json')).sort();
  return [...fixed, ...auto].map((n) => path.join(dir, n));
}

/** `TF_VAR_name` settings from an environment. */
export function environmentSettings(env: Readonly<Record<string, string | undefined>>): VariableSetting[] {
  return Object.entries(env)
    .filter(([k, v]) => k.startsWith('TF_VAR_') && v !== undefined)
    .map(([k, v]) => ({ name: k.slice('TF_VAR_'.length), raw: v! }));
}

/** Folds settings in precedence order (later wins) into the inputs `resolveVariables` takes. */
export function settingsToInputs(
  settings: readonly VariableSetting[],
  declared?: ReadonlySet<string>,
): VariableInputs {
  const last = new Map<string, VariableSetting>();
  for (const s of settings) if (!declared || declared.has(s.name)) last.set(s.name, s);
  const values: Record<string, unknown> = {};
  const raw: Record<string, string> = {};
  for (const s of last.values()) {
    if ('raw' in s) raw[s.name] = s.raw;
    else values[s.name] = s.value;
  }
  return { values, raw };
}
