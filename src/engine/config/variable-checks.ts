/**
 * Variable validation rules as terraform's checkable objects: each variable with rules passes, fails
 * (with the rules' error messages as its problems), is unknown, or errs (a condition that cannot be
 * evaluated). The failures are also the errors that refuse the variable's value.
 */
import type { EvalScope } from '../expressions/evaluate';
import { markSensitive } from '../expressions/marks';
import { checkConditions, conditionStatus } from './evaluate';
import { ConfigError, type ConfigDiagnostic } from './errors';
import type { StackConfig } from './types';

export interface VariableCheck {
  name: string;
  status: 'pass' | 'fail' | 'unknown' | 'error';
  problems: string[];
}

export interface VariableChecks {
  checks: VariableCheck[];
  errors: ConfigDiagnostic[];
}

function variableScope(config: StackConfig, values: Record<string, unknown>): EvalScope {
  return {
    resolveReference: () => undefined,
    local: () => undefined,
    variable: (n) => {
      const declared = config.variables.get(n);
      if (!declared) return undefined;
      return declared.sensitive ? markSensitive(values[n]) : values[n];
    },
  };
}

/** Checks every variable that has validation rules against its resolved value. */
export function checkVariables(config: StackConfig, values: Record<string, unknown>): VariableChecks {
  const scope = variableScope(config, values);
  const out: VariableChecks = { checks: [], errors: [] };
  for (const v of config.variables.values()) {
    if (v.validations.length === 0) continue;
    try {
      const res = checkConditions(v.validations, scope, { address: `var.${v.name}` }, 'validation');
      for (const f of res.failures)
        out.errors.push({ ...f, summary: 'Invalid value for variable', detail: f.summary });
      out.checks.push({
        name: v.name,
        status: conditionStatus(res),
        problems: res.failures.map((f) => f.summary),
      });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      out.errors.push(...err.diagnostics);
      out.checks.push({ name: v.name, status: 'error', problems: [] });
    }
  }
  return out;
}
