/** `cdktf-sched plan`: what a deploy would change, for people (text), machines (json) and pull requests (markdown). */
import { Command } from 'commander';
import { planStack } from '../engine/plan/plan';
import { savePlan } from '../engine/plan/saved';
import { ownStateLocation, PendingOutputs } from '../engine/remote-state';
import {
  addStackOptions,
  planLimits,
  prepare,
  stackPlanInput,
  withStack,
  type StackOptions,
} from './stack-command';
import { ExitCode, type CliIO } from './io';
import { wantsColor } from '../engine/render';
import { RenderAhead } from './render-ahead';
import { parseFormat, planHasChanges, printDiagnostics, printPlan, type PlanFormat } from './render-plan';

interface PlanCliOptions extends StackOptions {
  out?: string;
  format: PlanFormat;
  detailedExitcode?: boolean;
  target?: string[];
  refresh: boolean;
  destroy?: boolean;
  parallelism: number;
}

export function parseBool(name: string) {
  return (v: string): boolean => {
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw new Error(`${name} ${v}: expected true or false`);
  };
}

export function parseParallelism(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--parallelism ${v}: expected a whole number of at least 1`);
  return n;
}

export function planCommand(io: CliIO): Command {
  return addStackOptions(new Command('plan'))
    .description('show what a deploy would change')
    .option('--out <file>', 'save the plan to apply later with `deploy FILE`')
    .option(
      '--format <format>',
      'text, json (Terraform plan JSON) or markdown (pull-request comment)',
      parseFormat,
      'text',
    )
    .option('--detailed-exitcode', 'exit 0 with no changes, 2 with changes, 1 on error')
    .option(
      '--target <address>',
      'limit the plan to a resource and what it depends on (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
      [],
    )
    .option('--refresh <bool>', 'read every resource from the cluster first', parseBool('--refresh'), true)
    .option('--destroy', 'plan to destroy everything in the stack')
    .option('--parallelism <n>', 'resources planned at once', parseParallelism, 10)
    .action(async (o: PlanCliOptions) => {
      const run = await prepare(io, o, { all: !o.out, destroy: o.destroy === true });
      // A stack planned after one it reads outputs from sees the outputs that one changes as unknown.
      const pending = new PendingOutputs();
      run.remoteState = pending.reader(run.remoteState);
      let changes = false;
      let errored = false;
      // The text of each resource is rendered while the plan waits on the cluster.
      const ahead = o.format === 'text' ? new RenderAhead(wantsColor(io.stdout, io.env)) : undefined;
      try {
        for (const stack of run.stacks) {
          const { plan, priorState } = await withStack(
            run,
            stack,
            'OperationTypePlan',
            async (s) => {
              const p = await planStack({
                ...stackPlanInput(run, stack, s, o),
                mode: o.destroy ? 'destroy' : 'normal',
                refresh: o.refresh,
                ...planLimits(o, io),
                ...(ahead ? { onInstance: ahead.note } : {}),
                // The scheduler's JobDiff is shown by the plan JSON alone, and a saved plan may be shown as JSON.
                ...(o.format !== 'json' && !o.out ? { serviceDiff: false } : {}),
              });
              pending.record(
                ownStateLocation(s.loaded, s.workspace),
                p.outputChanges.filter((c) => c.action !== 'noop').map((c) => c.name),
              );
              return { plan: p, priorState: s.state };
            },
            io,
            (planned) => {
              printDiagnostics(io, planned.plan, o.format);
              printPlan(io, planned.plan, o.format, {
                ...(run.stacks.length > 1 ? { title: `Stack: ${stack.name}` } : {}),
                priorState: planned.priorState,
                ...(ahead ? { ahead } : {}),
              });
            },
          );
          errored ||= plan.errored;
          changes ||= planHasChanges(plan);
          if (o.out && !plan.errored) {
            await savePlan(o.out, plan, priorState);
            io.stderr.write(
              `Saved the plan to ${o.out}. Apply exactly this plan with: cdktf-sched deploy ${o.out}\n`,
            );
          }
        }
      } finally {
        await run.close();
      }
      if (errored) throw new ExitCode(1);
      if (o.detailedExitcode && changes) throw new ExitCode(2);
    });
}
