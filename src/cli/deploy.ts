/** `cdktf-sched deploy [PLANFILE]` (alias `apply`) and `cdktf-sched destroy`. */
import { Command } from 'commander';
import { planStack } from '../engine/plan/plan';
import { checkPlanIsCurrent, loadPlan } from '../engine/plan/saved';
import { hasStateOnlyChanges, type StackPlan } from '../engine/plan/types';
import { applyWhilePrinting } from './apply-early';
import { applyWithProgress, printApplySummary, printOutputs, printTargetingWarning } from './apply-flow';
import { ExitCode, type CliIO } from './io';
import { parseParallelism } from './plan';
import { planHasChanges, printDiagnostics, printPlan } from './render-plan';
import {
  addStackOptions,
  planLimits,
  prepare,
  stackPlanInput,
  withStack,
  type StackOptions,
} from './stack-command';
import { createHash } from 'node:crypto';

interface DeployOptions extends StackOptions {
  autoApprove?: boolean;
  parallelism: number;
  target?: string[];
  refresh?: boolean;
}

async function approve(io: CliIO, what: string, auto: boolean | undefined): Promise<void> {
  if (auto) return;
  if (!io.confirm) {
    throw new ExitCode(1, `${what} needs approval: run it on a terminal, or pass --auto-approve`);
  }
  const ok = await io.confirm(
    `\nDo you want to ${what}?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `,
  );
  if (!ok) throw new ExitCode(1, `${what} cancelled.`);
}

function withCommonOptions(cmd: Command): Command {
  return addStackOptions(cmd)
    .option('--auto-approve', 'do not ask for approval')
    .option('--parallelism <n>', 'resources changed at once', parseParallelism, 10)
    .option(
      '--target <address>',
      'limit to a resource and what it depends on (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
      [],
    );
}

async function planAndApply(io: CliIO, o: DeployOptions, mode: 'normal' | 'destroy'): Promise<void> {
  const run = await prepare(io, o, { all: true, destroy: mode === 'destroy' });
  let failed = false;
  try {
    for (const stack of run.stacks) {
      await withStack(
        run,
        stack,
        mode === 'destroy' ? 'OperationTypeDestroy' : 'OperationTypeApply',
        async (s) => {
          // Shown as text only: the scheduler's JobDiff (the plan JSON's) is not asked for.
          const plan = await planStack({
            ...stackPlanInput(run, stack, s, o),
            mode,
            ...planLimits(o, io),
            serviceDiff: false,
          });
          printDiagnostics(io, plan);
          const print = (): void =>
            printPlan(io, plan, 'text', run.stacks.length > 1 ? { title: `Stack: ${stack.name}` } : {});
          const changes = !plan.errored && planHasChanges(plan);
          // Approved in advance: the apply need not wait for the plan's text (apply-early.ts).
          const early = o.autoApprove === true && changes;
          if (!early) print();
          if (plan.errored) {
            failed = true;
            return;
          }
          if (!changes) {
            // Nothing changes on the cluster; the state may still need to catch up with it.
            if (hasStateOnlyChanges(plan)) await applyWithProgress(io, s, plan, o.parallelism);
            return;
          }
          await approve(
            io,
            mode === 'destroy'
              ? `destroy all resources of stack ${stack.name}`
              : `perform these actions on stack ${stack.name}`,
            o.autoApprove,
          );
          const result = early
            ? await applyWhilePrinting(io, s, plan, o.parallelism, print)
            : await applyWithProgress(io, s, plan, o.parallelism);
          printApplySummary(io, result, mode === 'destroy' ? 'Destroy' : 'Apply');
          printTargetingWarning(io, plan);
          printOutputs(io, result.outputs);
          if (result.failed.length > 0 || result.interrupted) failed = true;
        },
        io,
      );
      if (failed) break;
    }
  } finally {
    await run.close();
  }
  if (failed) throw new ExitCode(1);
}

async function applySaved(io: CliIO, file: string, o: DeployOptions): Promise<void> {
  const plan: StackPlan = await loadPlan(file);
  // Exactly what was reviewed: no new synth; the stack's configuration must hash as it did.
  const run = await prepare(io, { ...o, stack: plan.stack, synth: false });
  let failed = false;
  try {
    await withStack(
      run,
      run.stacks[0]!,
      plan.mode === 'destroy' ? 'OperationTypeDestroy' : 'OperationTypeApply',
      async (s) => {
        // A plan made before the stack had any state names the lineage the state will have
        // (a state that does not exist yet gets a fresh lineage each time it is loaded).
        if (s.state.serial === 0 && plan.stateSerial === 0 && s.state.addresses().length === 0)
          s.state.lineage = plan.stateLineage;
        checkPlanIsCurrent(plan, {
          stack: s.loaded.stack.name,
          lineage: s.state.lineage,
          serial: s.state.serial,
          configHash: createHash('sha256').update(s.loaded.configText).digest('hex'),
        });
        const result = await applyWithProgress(io, s, plan, o.parallelism);
        printApplySummary(io, result, plan.mode === 'destroy' ? 'Destroy' : 'Apply');
        printTargetingWarning(io, plan);
        printOutputs(io, result.outputs);
        failed = result.failed.length > 0 || result.interrupted;
      },
      io,
    );
  } finally {
    await run.close();
  }
  if (failed) throw new ExitCode(1);
}

export function deployCommand(io: CliIO): Command {
  return withCommonOptions(new Command('deploy'))
    .alias('apply')
    .description('plan and apply the stacks, or apply a saved plan exactly')
    .argument('[planfile]', 'a plan saved with `plan --out`')
    .action(async (planfile: string | undefined, o: DeployOptions) => {
      if (planfile) await applySaved(io, planfile, o);
      else await planAndApply(io, o, 'normal');
    });
}

export function destroyCommand(io: CliIO): Command {
  return withCommonOptions(new Command('destroy'))
    .description('destroy every resource of the stacks (dependants first)')
    .action(async (o: DeployOptions) => planAndApply(io, o, 'destroy'));
}
