/**
 * Evaluating the blocks of a stack: a resource instance's attributes (what a handler's plan()
 * receives as config), a provider's configuration, outputs, conditions and replace triggers. Errors
 * come back as ConfigError located at `address (construct path), attribute a.b[0]`.
 */
import type { Config } from '../../provider/resource';
import type { AttrPath } from '../../provider/values';
import type { Expr } from '../expressions/ast';
import { evaluate, type EvalScope } from '../expressions/evaluate';
import { setProp } from '../expressions/types';
import { unmark, unmarkDeep, unmarkWithPaths } from '../expressions/marks';
import { isUnknown, plainValue, toBool, toStr } from '../expressions/values';
import { instanceAddress } from './address';
import { ConfigError, diagnostic, located, type ConfigDiagnostic, type DiagnosticContext } from './errors';
import { sourceOf } from './json-expr';
import { instanceScope, type InstanceContext } from './scope';
import type { Condition, OutputConfig, ProviderConfig, ResourceConfig } from './types';

/**
 * Evaluates an expression that came from JSON, descending into JSON objects and arrays so that an
 * error names the exact attribute path (`meta.owner`, `rule[1].name`).
 */
export function evaluateAt(e: Expr, scope: EvalScope, ctx: DiagnosticContext): unknown {
  const path = ctx.path ?? [];
  if (sourceOf(e) === undefined) {
    if (e.type === 'tuple')
      return e.items.map((x, i) => evaluateAt(x, scope, { ...ctx, path: [...path, i] }));
    if (e.type === 'object' && !e.dynamic && e.items.every((it) => it.key.type === 'literal')) {
      const out: Record<string, unknown> = {};
      for (const it of e.items) {
        const k = String((it.key as Expr & { type: 'literal' }).value);
        setProp(out, k, evaluateAt(it.value, scope, { ...ctx, path: [...path, k] }));
      }
      return out;
    }
  }
  // Handlers, plans and state hold JSON numbers; exact big values stay inside the evaluator.
  return located(ctx, () => plainValue(evaluate(e, scope)), sourceOf(e));
}

function resourceCtx(r: ResourceConfig, instance?: InstanceContext): DiagnosticContext {
  return {
    address: instance ? instanceAddress(r, instance.key) : r.address,
    ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
  };
}

/**
 * The configuration of one resource instance, as handed to a handler: attribute name -> value, with
 * UNKNOWN where a value depends on something not known until apply. Nested blocks appear as arrays
 * of objects (dynamic blocks expanded); unset attributes are simply absent.
 */
export function evaluateResourceConfig(
  r: ResourceConfig,
  scope: EvalScope,
  instance?: InstanceContext,
): Config {
  return evaluateMarkedResourceConfig(r, scope, instance).config;
}

/**
 * The configuration as a handler receives it (no marks), and the paths of its sensitive values,
 * which the plan and the state record (Terraform's UnmarkDeepWithPaths at the provider boundary).
 */
export function evaluateMarkedResourceConfig(
  r: ResourceConfig,
  scope: EvalScope,
  instance?: InstanceContext,
): { config: Config; sensitivePaths: AttrPath[] } {
  const { value: v, paths } = unmarkWithPaths(
    evaluateAt(r.body, instanceScope(scope, instance), resourceCtx(r, instance)),
  );
  if (isUnknown(v) || paths.some((p) => p.length === 0)) {
    throw new ConfigError([
      diagnostic(
        resourceCtx(r, instance),
        'Invalid resource configuration',
        isUnknown(v)
          ? 'an attribute name depends on a value not known until apply'
          : 'an attribute name depends on a sensitive value',
      ),
    ]);
  }
  return { config: v as Config, sensitivePaths: paths };
}

/** A provider block's configuration (address, token, ...). UNKNOWN values are possible; callers decide. */
export function evaluateProviderConfig(p: ProviderConfig, scope: EvalScope): Config {
  const v = evaluateAt(p.body, instanceScope(scope, undefined), { address: `provider.${p.address}` });
  return unmarkDeep(v)[0] as Config;
}

/**
 * An output's value, without marks. An output that carries a sensitive value must say
 * `sensitive = true`, as Terraform requires, so no secret leaves the stack by accident.
 */
export function evaluateOutput(o: OutputConfig, scope: EvalScope): unknown {
  const ctx: DiagnosticContext = {
    address: `output.${o.name}`,
    path: ['value'],
    ...(o.construct.path !== undefined ? { constructPath: o.construct.path } : {}),
  };
  const [value, marked] = unmarkDeep(evaluateAt(o.value, scope, ctx));
  if (marked && !o.sensitive) {
    throw new ConfigError([
      diagnostic(
        ctx,
        'Output refers to sensitive values',
        'The value of this output is derived from a sensitive value (a sensitive variable, a sensitive() call, ...). To export it, declare the output with sensitive = true; to state that the derived value is safe to show, wrap it in nonsensitive().',
      ),
    ]);
  }
  return value;
}

export interface ConditionResult {
  /** Conditions that evaluated to false, with their error messages. */
  failures: ConfigDiagnostic[];
  /** Number of conditions whose value is not known yet (checked again at apply). */
  unknown: number;
}

/** A set of conditions as a checkable object's status: any failed, else any unknown, else pass. */
export function conditionStatus(res: ConditionResult): 'fail' | 'unknown' | 'pass' {
  return res.failures.length > 0 ? 'fail' : res.unknown > 0 ? 'unknown' : 'pass';
}

/**
 * Evaluates precondition / postcondition / validation blocks. Failed ones become diagnostics whose
 * summary is the rendered error_message; unknown ones are counted, not failed.
 */
export function checkConditions(
  conditions: Condition[],
  scope: EvalScope,
  ctx: DiagnosticContext,
  kind: string,
): ConditionResult {
  const result: ConditionResult = { failures: [], unknown: 0 };
  conditions.forEach((c, i) => {
    const at: DiagnosticContext = { ...ctx, path: [...(ctx.path ?? []), kind, i] };
    const [v] = unmarkDeep(
      located(
        { ...at, path: [...(at.path ?? []), 'condition'] },
        () => evaluate(c.condition, scope),
        sourceOf(c.condition),
      ),
    );
    if (isUnknown(v)) {
      result.unknown++;
      return;
    }
    let ok: boolean;
    try {
      ok = toBool(v);
    } catch {
      throw new ConfigError([
        diagnostic(
          { ...at, path: [...(at.path ?? []), 'condition'] },
          'Invalid condition result',
          'the condition must be true or false',
        ),
      ]);
    }
    if (ok) return;
    const [msg, sensitive] = unmark(
      located(
        { ...at, path: [...(at.path ?? []), 'error_message'] },
        () => evaluate(c.errorMessage, scope),
        sourceOf(c.errorMessage),
      ),
    );
    const text = sensitive
      ? 'condition failed (the error message refers to sensitive values, so it is not shown)'
      : isUnknown(msg)
        ? 'condition failed (the error message is not known yet)'
        : toStr(msg);
    result.failures.push(
      diagnostic(ctx, text, `${kind === 'validation' ? 'validation rule' : kind} ${i} failed`),
    );
  });
  return result;
}

/** Preconditions of a resource instance (checked at plan, before calling the handler). */
export function checkPreconditions(
  r: ResourceConfig,
  scope: EvalScope,
  instance?: InstanceContext,
): ConditionResult {
  // Most resources have none: no instance scope is built for them (one per instance of a plan).
  if (r.lifecycle.preconditions.length === 0) return { failures: [], unknown: 0 };
  return checkConditions(
    r.lifecycle.preconditions,
    instanceScope(scope, instance),
    resourceCtx(r, instance),
    'precondition',
  );
}

/** An output's preconditions: terraform checks them at plan when known, and again at apply. */
export function checkOutputPreconditions(o: OutputConfig, scope: EvalScope): ConditionResult {
  return checkConditions(
    o.preconditions,
    scope,
    {
      address: `output.${o.name}`,
      ...(o.construct.path !== undefined ? { constructPath: o.construct.path } : {}),
    },
    'precondition',
  );
}

/** Postconditions of a resource instance, with `self` bound to its new state. */
export function checkPostconditions(
  r: ResourceConfig,
  scope: EvalScope,
  self: unknown,
  instance?: InstanceContext,
): ConditionResult {
  return checkConditions(
    r.lifecycle.postconditions,
    instanceScope(scope, instance, self),
    resourceCtx(r, instance),
    'postcondition',
  );
}

/**
 * Values of `replace_triggered_by` entries for one instance. The plan code compares them with the
 * values recorded at the last apply; a change (or UNKNOWN: the referenced resource is being replaced
 * or updated) forces replacement.
 */
export function evaluateReplaceTriggers(
  r: ResourceConfig,
  scope: EvalScope,
  instance?: InstanceContext,
): unknown[] {
  const s = instanceScope(scope, instance);
  return r.lifecycle.replaceTriggeredBy.map(
    (e, i) =>
      unmarkDeep(
        evaluateAt(e, s, { ...resourceCtx(r, instance), path: ['lifecycle', 'replace_triggered_by', i] }),
      )[0],
  );
}

/** True when a path is covered by `ignore_changes` (an ignored attribute ignores everything below it). */
export function isIgnoredChange(r: ResourceConfig, path: AttrPath): boolean {
  const ic = r.lifecycle.ignoreChanges;
  if (ic === 'all') return true;
  return ic.some((p) => p.length <= path.length && p.every((x, i) => x === path[i]));
}
