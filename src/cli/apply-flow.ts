/**
 * Applying a plan from the command line: live progress per resource (redrawn in place on a terminal,
 * plain lines otherwise), state written after each resource, a summary of what was created, changed,
 * destroyed and failed, then the outputs.
 */
import { applyPlan, type ApplyResult } from '../engine/apply/apply';
import type { StackPlan } from '../engine/plan/types';
import { createProgress, wantsColor } from '../engine/render';
import type { StackSession } from '../engine/session';
import { stateWriterFor } from '../engine/stack-state';
import { targetingApplyWarning } from '../engine/plan/targeting';
import { formatDiagnostic } from '../provider/values';
import { collectSecretsOfPlan, noteSecrets } from './secrets';
import type { CliIO } from './io';

/** Told when each instance starts, reports progress and finishes (see apply-early.ts). */
export interface ApplyWatch {
  started(address: string): void;
  moved(address: string): void;
}

export async function applyWithProgress(
  io: CliIO,
  s: StackSession,
  plan: StackPlan,
  parallelism: number,
  watch?: ApplyWatch,
): Promise<ApplyResult> {
  const interactive = !!io.stderr.isTTY && !isCI(io.env);
  const secrets = collectSecretsOfPlan(plan);
  noteSecrets(io, secrets);
  const progress = createProgress({
    stream: io.stderr,
    interactive,
    color: wantsColor(io.stderr, io.env),
    secrets,
    coalesce: true,
  });
  const writer = stateWriterFor(s);
  let result: ApplyResult;
  try {
    result = await applyPlan({
      plan,
      config: s.loaded.config,
      state: s.state,
      writer,
      providers: s.providers,
      parallelism,
      ...(io.interrupts ? { signal: io.interrupts.soft, hardSignal: io.interrupts.hard } : {}),
      onStart: (ip) => {
        watch?.started(ip.address);
        progress.start(ip.address, ip.change.action === 'noop' ? 'update' : ip.change.action);
      },
      onProgress: (address, e) => {
        watch?.moved(address);
        progress.event(address, e);
      },
      onDone: (ip, outcome, error) => {
        watch?.moved(ip.address);
        progress.finish(
          ip.address,
          outcome === 'ok'
            ? { ok: true }
            : { ok: false, error: error instanceof Error ? error.message : String(error) },
        );
      },
    });
  } finally {
    progress.close();
  }
  return result;
}

export function isCI(env: CliIO['env']): boolean {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

export function printApplySummary(io: CliIO, r: ApplyResult, verb: 'Apply' | 'Destroy'): void {
  const added = r.created.length + r.replaced.length;
  const destroyed = r.destroyed.length + r.replaced.length;
  // Terraform words a destroy run's summary by what it destroyed only.
  // As Terraform: "N imported, " leads when something was imported, ", N forgotten" trails when forgotten.
  const imported = r.imported.length > 0 ? `${r.imported.length} imported, ` : '';
  const forgotten = r.forgotten.length > 0 ? `, ${r.forgotten.length} forgotten` : '';
  const counts =
    verb === 'Destroy' && added === 0 && r.updated.length === 0
      ? `${destroyed} destroyed`
      : `${imported}${added} added, ${r.updated.length} changed, ${destroyed} destroyed${forgotten}`;
  if (r.failed.length === 0 && !r.interrupted) {
    io.stdout.write(`\n${verb} complete! Resources: ${counts}.\n`);
    return;
  }
  io.stdout.write(
    `\n${verb} ${r.interrupted ? 'interrupted' : 'failed'}. Resources: ${counts}, ${r.failed.length} failed.\n`,
  );
  for (const f of r.failed) {
    io.stderr.write(
      `\nError: ${f.address}${f.constructPath ? ` (${f.constructPath})` : ''}\n  ${f.message.split('\n').join('\n  ')}\n`,
    );
  }
  if (r.skipped.length > 0) {
    io.stderr.write(`\nNot attempted:\n`);
    for (const s of r.skipped) io.stderr.write(`  ${s.address}: ${s.reason}\n`);
  }
}

/** After a targeted apply, Terraform's warning that the configuration may not be fully applied. */
export function printTargetingWarning(io: CliIO, plan: StackPlan): void {
  if (!plan.targets) return;
  io.stderr.write(`\n${formatDiagnostic(targetingApplyWarning(`cdktf-sched plan --stack ${plan.stack}`))}\n`);
}

export function printOutputs(io: CliIO, outputs: ApplyResult['outputs']): void {
  const names = Object.keys(outputs).sort();
  if (names.length === 0) return;
  io.stdout.write('\nOutputs:\n\n');
  for (const n of names) {
    const o = outputs[n]!;
    io.stdout.write(`${n} = ${o.sensitive ? '<sensitive>' : formatValue(o.value)}\n`);
  }
}

export function formatValue(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v, null, 2);
}
