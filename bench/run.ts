/**
 * `npm run bench` (`node dist/bench/run.js [--quick]`): every benchmark in sequence, each printing its
 * figures beside their comparisons and targets. Exits non-zero when a benchmark fails to run (a missed
 * target is a MISS in the output, not a failure).
 */
import { benchAgent } from './agent';
import { benchEngine } from './engine';
import { printFigures, type Figure } from './lib';

const benches: Array<[string, (o: { quick: boolean }) => Promise<Figure[]>]> = [
  ['dev agent', benchAgent],
  ['engine', benchEngine],
];

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const started = performance.now();
  let failed = false;
  for (const [title, run] of benches) {
    try {
      printFigures(title, await run({ quick }));
    } catch (e) {
      failed = true;
      process.stderr.write(
        `${title} benchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
    }
  }
  process.stdout.write(`\nall benchmarks: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  if (failed) process.exitCode = 1;
}

void main();
