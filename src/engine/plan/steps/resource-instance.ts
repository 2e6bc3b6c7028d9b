/**
 * A resource instance the configuration has, at plan time: preconditions, refresh, the evaluated
 * and validated configuration (less ignore_changes), the handler's plan, replace_triggered_by.
 */
import {
  ConfigError,
  checkPreconditions,
  evaluateMarkedResourceConfig,
  instanceAddress,
  type ConditionResult,
  type InstanceContext,
} from '../../config';
import { noteResourceCheck } from '../checks';
import type { EvalScope } from '../../expressions/evaluate';
import { containsUnknown, UNKNOWN } from '../../../provider/values';
import { ctxOf, serviceDiffOf } from '../context';
import { applyIgnoreChanges } from '../ignore-changes';
import { fromHandlerDiagnostics } from './diagnostics';
import { importedPrior } from './import';
import { referencePaths } from '../sensitivity';
import { recordForm } from '../../terraform-form';
import { recordInstance } from './record-instance';
import { replaceIfTriggered } from './replace-triggered';
import { adoptionNote, pendingCreate, refreshPrior, type ResourceStep } from './resource-step';

export async function planResourceInstance(
  step: ResourceStep,
  base: EvalScope,
  inst: InstanceContext,
): Promise<void> {
  const { ctx, r, handler } = step;
  const address = instanceAddress(r, inst.key);
  try {
    const pre = checkedPreconditions(step, base, inst);
    if (pre.failures.length > 0) throw new ConfigError(pre.failures);
    const importId = ctx.imports.get(address);
    const prior =
      importId !== undefined ? await importedPrior(step, importId) : await refreshPrior(step, address);
    const evaluated = evaluateMarkedResourceConfig(r, base, inst);
    let cfg = evaluated.config;
    const diags = handler.validate(cfg);
    if (diags.some((d) => d.severity === 'error'))
      throw new ConfigError(fromHandlerDiagnostics(diags, r, inst.key));
    for (const d of diags) ctx.diagnostics.push({ ...d, ...ctxOf(r, inst.key) });
    cfg = applyIgnoreChanges(r, cfg, prior);
    const planned = await handler.plan({ prior, config: cfg, ...serviceDiffOf(ctx) });
    const triggered = await replaceIfTriggered(step, prior, cfg, planned);
    const { byTrigger } = triggered;
    let { change } = triggered;
    const adopted = prior !== null && pendingCreate(step, address);
    if (adopted) adoptionNote(step, inst.key, address);
    // Recorded as terraform records it; a state an older engine wrote otherwise is rewritten.
    const form = step.block ? recordForm(step.block, change, cfg, ctx.state.peek(address)?.attributes) : {};
    if (form.upgrade) change = { ...change, prior: form.upgrade };
    const ip = recordInstance(step, inst.key, address, change, {
      orphan: false,
      byTrigger,
      ...(adopted || form.upgrade || importId !== undefined ? { stateOnly: 'record' as const } : {}),
      ...(form.recordAs ? { recordAs: form.recordAs } : {}),
      ...(importId !== undefined ? { importing: importId } : {}),
      configKnown: !containsUnknown(cfg),
      evaluated,
    });
    ctx.book.set(
      r.address,
      inst.key,
      change.action === 'noop' ? (prior ?? change.planned) : change.planned,
      referencePaths(step.sensitive, ip.marks),
    );
  } catch (err) {
    ctx.book.set(r.address, inst.key, UNKNOWN);
    throw err;
  }
}

/** The instance's preconditions, their outcome recorded among the plan's checks. */
function checkedPreconditions(step: ResourceStep, base: EvalScope, inst: InstanceContext): ConditionResult {
  try {
    const pre = checkPreconditions(step.r, base, inst);
    noteResourceCheck(step.ctx.plan, step.r, inst.key, pre);
    return pre;
  } catch (err) {
    noteResourceCheck(step.ctx.plan, step.r, inst.key, 'error');
    throw err;
  }
}
