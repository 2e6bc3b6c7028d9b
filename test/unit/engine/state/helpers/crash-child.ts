/**
 * Writes a changing state in a loop until killed. Two ways to die:
 * - the parent kills it -9 at a random moment (CRASH_AT unset);
 * - CRASH_AT=n: it kills itself -9 at the n-th step of its file-system calls (before or after each
 *   open, write, sync, close, link, rename, copy, unlink, stat), so every point between two
 *   operations of a state write is hit deterministically across runs.
 */
import { createRequire } from 'node:module';
import { StateFile } from '../../../../../src/engine/state/state-file';
import { StateWriter } from '../../../../../src/engine/state/writer';

const crashAt = Number(process.env.CRASH_AT ?? 0);
let steps = 0;
function step(): void {
  if (crashAt > 0 && ++steps === crashAt) process.kill(process.pid, 'SIGKILL');
}

type Fn = (...args: unknown[]) => Promise<unknown>;
function wrap<T extends object>(target: T, names: string[], after?: (result: unknown) => void): void {
  const t = target as Record<string, Fn>;
  for (const name of names) {
    const orig = t[name]!;
    t[name] = async function (this: unknown, ...args: unknown[]) {
      step();
      const result = await orig.apply(this, args);
      step();
      after?.(result);
      return result;
    };
  }
}

if (crashAt > 0) {
  // The state modules call these through the shared module object, so patching it reaches them.
  const fsp = createRequire(__filename)('node:fs/promises') as Record<string, Fn>;
  wrap(fsp, ['rename', 'link', 'copyFile', 'unlink', 'stat']);
  wrap(fsp, ['open'], (fh) => wrap(fh as object, ['writeFile', 'sync', 'close']));
}

async function main(): Promise<void> {
  const path = process.argv[2]!;
  const state = await StateFile.load(path);
  const writer = new StateWriter(path, state);
  // Big enough (by default) that each write takes milliseconds, so random kills often land inside one.
  const blob = 'x'.repeat(Number(process.env.BLOB_BYTES ?? 1024 * 1024));
  steps = 0;
  for (let round = 0; ; round++) {
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      writes.push(
        writer.setInstance(`sched_job.web[${i}]`, {
          schemaVersion: 0,
          attributes: { id: `web-${i}`, run: process.pid, round, blob: `${blob}${round}` },
        }),
      );
    }
    await Promise.all(writes);
    if (round === 0) process.stdout.write('ready\n');
  }
}

void main();
