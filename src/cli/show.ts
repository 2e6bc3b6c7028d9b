/** `cdktf-sched show PLANFILE [--json]`: a saved plan as the plan command printed it, or as plan JSON. */
import { Command } from 'commander';
import { loadSavedPlan } from '../engine/plan/saved';
import type { CliIO } from './io';
import { printPlan } from './render-plan';

export function showCommand(io: CliIO): Command {
  return new Command('show')
    .description('print a saved plan (`plan --out FILE`): as text, or with --json as Terraform plan JSON')
    .argument('<planfile>', 'a plan saved with `cdktf-sched plan --out FILE`')
    .option('--json', 'print Terraform plan JSON (as `terraform show -json PLANFILE`)')
    .action(async (file: string, o: { json?: boolean }) => {
      const { plan, priorState } = await loadSavedPlan(file);
      printPlan(io, plan, o.json ? 'json' : 'text', priorState ? { priorState } : {});
    });
}
