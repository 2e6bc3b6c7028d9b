/**
 * Outputs at plan time, once every resource value is as known as it gets: each output's planned
 * value and its change against the state's outputs (outputs the configuration dropped are deleted).
 */
import {
  checkOutputPreconditions,
  ConfigError,
  diagnosticFromError,
  evaluateOutput,
  type ConditionResult,
  type OutputConfig,
} from '../../config';
import { noteOutputCheck } from '../checks';
import { containsUnknown, isUnknown } from '../../../provider/values';
import type { OutputChange } from '../../render/model';
import type { PlanContext } from '../context';

export function planOutputs(ctx: PlanContext): void {
  const prevOutputs = ctx.state.outputs();
  for (const o of ctx.config.outputs.values()) {
    if (ctx.targetSet && !ctx.targetSet.has(`output.${o.name}`)) continue;
    try {
      planOutput(ctx, o, prevOutputs[o.name]);
    } catch (err) {
      if (err instanceof ConfigError) for (const d of err.diagnostics) ctx.fail(d);
      else ctx.fail(diagnosticFromError({ address: `output.${o.name}` }, err));
    }
  }
  for (const name of Object.keys(prevOutputs)) {
    if (ctx.config.outputs.has(name) && ctx.mode !== 'destroy') continue;
    if (ctx.plan.outputChanges.some((c) => c.name === name)) continue;
    ctx.plan.outputChanges.push({
      name,
      action: 'delete',
      before: prevOutputs[name]!.value,
      after: null,
      afterUnknown: false,
      sensitive: prevOutputs[name]!.sensitive,
    });
  }
}

function planOutput(
  ctx: PlanContext,
  o: OutputConfig,
  before: { value: unknown; sensitive: boolean } | undefined,
): void {
  if (ctx.mode !== 'destroy' && !outputPreconditionsHold(ctx, o)) return;
  const value = ctx.mode === 'destroy' ? null : evaluateOutput(o, ctx.scope());
  ctx.plan.outputs.push({ name: o.name, value, sensitive: o.sensitive });
  const change: OutputChange = {
    name: o.name,
    action:
      before === undefined ? (value === null ? 'noop' : 'create') : value === null ? 'delete' : 'update',
    before: before?.value ?? null,
    after: isUnknown(value) ? null : value,
    afterUnknown: containsUnknown(value),
    sensitive: o.sensitive || (before?.sensitive ?? false),
  };
  if (
    change.action === 'update' &&
    !change.afterUnknown &&
    JSON.stringify(before?.value) === JSON.stringify(value)
  ) {
    change.action = 'noop';
  }
  ctx.plan.outputChanges.push(change);
}

/**
 * Terraform checks an output's preconditions at plan time when their values are known (unknown ones
 * wait for the apply); a failed one fails the plan with its error message.
 */
function outputPreconditionsHold(ctx: PlanContext, o: OutputConfig): boolean {
  if (o.preconditions.length === 0) return true;
  let pre: ConditionResult;
  try {
    pre = checkOutputPreconditions(o, ctx.scope());
  } catch (err) {
    noteOutputCheck(ctx.plan, o.name, 'error');
    throw err;
  }
  noteOutputCheck(ctx.plan, o.name, pre);
  for (const d of pre.failures) ctx.fail(d);
  return pre.failures.length === 0;
}
