/** Printing a plan in the format asked for, and the exit code it implies. */
import { formatConfigDiagnostic } from '../engine/config';
import { mentionedInText, planModel } from '../engine/plan/model';
import type { StackPlan } from '../engine/plan/types';
import type { StateFile } from '../engine/state';
import { renderJson, renderMarkdown, renderText, wantsColor } from '../engine/render';
import type { CliIO } from './io';
import type { RenderAhead } from './render-ahead';
import { collectSecretsOfPlan, noteSecrets } from './secrets';

export type PlanFormat = 'text' | 'json' | 'markdown';

export function parseFormat(v: string): PlanFormat {
  if (v === 'text' || v === 'json' || v === 'markdown') return v;
  throw new Error(`--format ${v}: expected text, json or markdown`);
}

/** Diagnostics to stderr; with the text format, those of a listed resource are already shown beside it. */
export function printDiagnostics(io: CliIO, plan: StackPlan, format: PlanFormat = 'text'): void {
  // The first thing printed of every plan: from here on the output guard knows its secrets.
  noteSecrets(io, collectSecretsOfPlan(plan));
  const shown = new Set(format === 'text' ? plan.instances.map((i) => i.address) : []);
  for (const d of plan.diagnostics) {
    if (d.address && shown.has(d.address)) continue;
    io.stderr.write(`${formatConfigDiagnostic(d)}\n`);
  }
}

export function printPlan(
  io: CliIO,
  plan: StackPlan,
  format: PlanFormat,
  opts: { title?: string; priorState?: StateFile; ahead?: RenderAhead } = {},
): void {
  // The text reads only the instances it mentions; JSON and Markdown read every one.
  const include = format === 'text' ? mentionedInText : undefined;
  const model = { ...planModel(plan, opts.ahead?.changeOf, include), timestamp: plan.createdAt };
  // One document per line, each naming its stack (cdktf_sched.stack), so several stacks stay apart.
  if (format === 'json') {
    // Read only here: a new plan builds its configuration on first read (plan/lazy-configuration).
    const json = renderJson(model, {
      stack: plan.stack,
      ...(opts.priorState ? { priorState: opts.priorState } : {}),
      configuration: plan.configuration,
    });
    io.stdout.write(`${json}\n`);
  } else if (format === 'markdown') {
    io.stdout.write(
      renderMarkdown(model, {
        ...(opts.title ? { title: opts.title } : {}),
        fullPlanCommand: 'cdktf-sched plan',
      }),
    );
    io.stdout.write('\n');
  } else {
    if (opts.title) io.stdout.write(`\n${opts.title}\n`);
    const color = wantsColor(io.stdout, io.env);
    const ahead = opts.ahead?.color === color ? opts.ahead : undefined;
    io.stdout.write(
      renderText(model, {
        color,
        toolName: 'cdktf-sched',
        ...(ahead ? { renderedBlock: ahead.blockOf } : {}),
      }),
    );
  }
}

/**
 * What hasChanges(planModel(plan)) answers, read from the plan itself: building the model copies and
 * scans every instance (their unknown paths), which is most of the work after a plan of unchanged
 * resources. Kept in step with planModel: a forget or deferred read is an action, a move or an import
 * is shown even when nothing changes.
 */
export function planHasChanges(plan: StackPlan): boolean {
  return (
    plan.instances.some(
      (ip) => ip.forget || ip.change.action !== 'noop' || !!ip.previousAddress || !!ip.importing,
    ) ||
    plan.data.some((dp) => dp.deferred) ||
    plan.outputChanges.some((o) => o.action !== 'noop')
  );
}
