/**
 * Applying while the plan is printed, for `deploy --auto-approve`: nobody reads the plan before the
 * apply starts, so rendering it (a large plan's text takes a good part of a second) need not hold the
 * first changes back. The apply starts at once; the plan is printed once every instance started so far
 * has got past its first request (a progress report, or done), when the first wave is waiting on the
 * cluster, or after FIRST_WAVE_CAP_MS at most. The apply's progress lines are held until the plan is
 * out, so the output reads as it would have. Without --auto-approve the plan is printed and approved
 * first, as before.
 */
import type { ApplyResult } from '../engine/apply/apply';
import type { StackPlan } from '../engine/plan/types';
import type { StackSession } from '../engine/session';
import { applyWithProgress, type ApplyWatch } from './apply-flow';
import { HeldStream } from './held-stream';
import type { CliIO } from './io';

/** The longest the plan's text waits for the first wave (a create that waits on the cluster at once). */
const FIRST_WAVE_CAP_MS = 1_000;

/** Resolves once every instance started so far has moved past its start. */
class FirstWave implements ApplyWatch {
  private readonly waiting = new Set<string>();
  private startedAny = false;
  private resolve!: () => void;
  readonly reached = new Promise<void>((r) => (this.resolve = r));

  started(address: string): void {
    this.startedAny = true;
    this.waiting.add(address);
  }

  moved(address: string): void {
    this.waiting.delete(address);
    if (this.startedAny && this.waiting.size === 0) this.resolve();
  }
}

export async function applyWhilePrinting(
  io: CliIO,
  s: StackSession,
  plan: StackPlan,
  parallelism: number,
  printPlan: () => void,
): Promise<ApplyResult> {
  const held = new HeldStream(io.stderr);
  const wave = new FirstWave();
  const applying = applyWithProgress({ ...io, stderr: held }, s, plan, parallelism, wave);
  let cap: NodeJS.Timeout | undefined;
  await Promise.race([
    wave.reached,
    applying.catch(() => undefined),
    new Promise<void>((r) => (cap = setTimeout(r, FIRST_WAVE_CAP_MS))),
  ]);
  clearTimeout(cap);
  // The apply runs on whatever happens to the plan's text: it is awaited before any error is raised,
  // so the session (and its lock) is never closed under it.
  let printed: { error: unknown } | undefined;
  try {
    printPlan();
  } catch (error) {
    printed = { error };
  } finally {
    held.release();
  }
  const result = await applying;
  if (printed) throw printed.error;
  return result;
}
