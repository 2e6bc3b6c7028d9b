/**
 * Input variables: values from the caller (typed values from a vars file, raw strings from
 * `--var name=value` or `TF_VAR_name`), defaults, type conversion, nullability and validation rules.
 */
import type { EvalScope } from '../expressions/evaluate';
import { evaluate } from '../expressions/evaluate';
import { ExpressionError } from '../expressions/errors';
import { parseExpression } from '../expressions/parser';
import { convertToType, formatType, type TypeConstraint } from '../expressions/types';
import { UNKNOWN } from '../expressions/values';
import { ConfigError, diagnostic, diagnosticFromError, type ConfigDiagnostic } from './errors';
import type { StackConfig, VariableConfig } from './types';
import { checkVariables, type VariableCheck } from './variable-checks';

export interface VariableInputs {
  /** Typed values (a `.tfvars.json` file, programmatic callers). Win over `raw`. */
  values?: Readonly<Record<string, unknown>>;
  /**
   * Raw strings as given on a command line or in the environment. For string, number, bool and
   * untyped variables the string is the value; for collection and object types it is parsed as an
   * expression (`["a","b"]`, `{ port = 80 }`), as Terraform does.
   */
  raw?: Readonly<Record<string, string>>;
}

export interface ResolveVariablesOptions {
  /** How to treat inputs for variables the stack does not declare (default: warning). */
  undeclared?: 'error' | 'warning' | 'ignore';
  /** Failed validation rules: thrown (default) or returned as error diagnostics beside the checks. */
  validationFailures?: 'throw' | 'report';
}

export interface ResolvedVariables {
  values: Record<string, unknown>;
  /** Warnings, and failed validation rules when they are reported rather than thrown. */
  diagnostics: ConfigDiagnostic[];
  /** The outcome of each variable's validation rules. */
  checks: VariableCheck[];
}

const EMPTY_SCOPE: EvalScope = {
  resolveReference: () => undefined,
  variable: () => undefined,
  local: () => undefined,
};

function isPrimitive(t: TypeConstraint | undefined): boolean {
  return (
    t === undefined || t.kind === 'any' || t.kind === 'string' || t.kind === 'number' || t.kind === 'bool'
  );
}

/** Parses a raw `--var` / `TF_VAR_` string for a variable of this type. */
export function parseRawVariableValue(text: string, type: TypeConstraint | undefined): unknown {
  if (isPrimitive(type)) return text;
  // Only literal values are allowed here, so evaluate with a scope that knows no names.
  return evaluate(parseExpression(text), EMPTY_SCOPE);
}

/**
 * Resolves every declared variable to its value. Throws ConfigError listing missing required
 * variables, type mismatches and failed validation rules.
 */
export function resolveVariables(
  config: StackConfig,
  inputs: VariableInputs = {},
  opts: ResolveVariablesOptions = {},
): ResolvedVariables {
  const errors: ConfigDiagnostic[] = [];
  const warnings: ConfigDiagnostic[] = [];
  const values: Record<string, unknown> = {};
  const undeclared = opts.undeclared ?? 'warning';
  for (const name of new Set([...Object.keys(inputs.values ?? {}), ...Object.keys(inputs.raw ?? {})])) {
    if (config.variables.has(name) || undeclared === 'ignore') continue;
    const d = diagnostic(
      { address: `var.${name}` },
      'Value for undeclared variable',
      `A value was given for "${name}", but the stack declares no variable of that name.`,
    );
    if (undeclared === 'error') errors.push(d);
    else warnings.push({ ...d, severity: 'warning' });
  }
  for (const v of config.variables.values()) {
    const r = resolveOne(v, inputs);
    if ('error' in r) errors.push(r.error);
    else values[v.name] = r.value;
  }
  let checks: VariableCheck[] = [];
  if (errors.length === 0) {
    const checked = checkVariables(config, values);
    checks = checked.checks;
    // A failed rule refuses the value; a plan reports it (with the checks) instead of stopping here.
    if (opts.validationFailures === 'report') warnings.push(...checked.errors);
    else errors.push(...checked.errors);
  }
  if (errors.length) throw new ConfigError([...errors, ...warnings]);
  return { values, diagnostics: warnings, checks };
}

function resolveOne(
  v: VariableConfig,
  inputs: VariableInputs,
): { value: unknown } | { error: ConfigDiagnostic } {
  const ctx = { address: `var.${v.name}` };
  let value: unknown;
  let given = false;
  try {
    if (inputs.values && Object.prototype.hasOwnProperty.call(inputs.values, v.name)) {
      value = inputs.values[v.name];
      given = true;
    } else if (inputs.raw && Object.prototype.hasOwnProperty.call(inputs.raw, v.name)) {
      value = parseRawVariableValue(inputs.raw[v.name]!, v.type);
      given = true;
    }
  } catch (e) {
    return { error: diagnosticFromError(ctx, e, inputs.raw?.[v.name]) };
  }
  if (value === UNKNOWN)
    return { error: diagnostic(ctx, 'Invalid value for variable', 'the value must be known') };
  if (!given) {
    if (!v.hasDefault) {
      return {
        error: diagnostic(
          ctx,
          'No value for required variable',
          `The variable "${v.name}" is required, but no value was given (use --var ${v.name}=... or TF_VAR_${v.name}).`,
        ),
      };
    }
    return { value: v.default ?? null };
  }
  if (value === null || value === undefined) {
    if (v.nullable) return { value: null };
    if (v.hasDefault && v.default !== null) return { value: v.default };
    return {
      error: diagnostic(
        ctx,
        'Invalid value for variable',
        `The variable "${v.name}" is not nullable, but null was given.`,
      ),
    };
  }
  try {
    return { value: v.type ? convertToType(value, v.type) : value };
  } catch (e) {
    const detail = e instanceof ExpressionError ? (e.detail ?? e.summary) : String(e);
    return {
      error: diagnostic(
        ctx,
        'Invalid value for variable',
        `${detail}${v.type ? ` (the variable's type is ${formatType(v.type)})` : ''}`,
      ),
    };
  }
}
