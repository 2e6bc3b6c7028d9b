/**
 * The command line as the engine benchmark runs it: `runCli` in this process, then the process's own
 * CPU time and peak RSS written to the file named by BENCH_STATS, so the engine is measured apart from
 * the agent and from the benchmark that drives it.
 */
import { writeFileSync } from 'node:fs';
import { runCli } from '../src/cli/run';
import { exitWhenFlushed, ignoreClosedReaders } from '../src/cli/flushed-exit';
import { processIO } from '../src/cli/io';

export interface CliStats {
  code: number;
  /** From the first line of this module to the end of the command (module loading excluded). */
  commandMs: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  maxRssMB: number;
}

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: the first read of the `performance` global
 * loads perf_hooks (3 ms, from source once the bin has set its V8 flags), which a plan itself does not.
 */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

async function main(): Promise<void> {
  const started = nowMs();
  ignoreClosedReaders();
  const code = await runCli(process.argv.slice(2), processIO());
  const usage = process.resourceUsage();
  const stats: CliStats = {
    code,
    commandMs: nowMs() - started,
    cpuUserMs: usage.userCPUTime / 1000,
    cpuSystemMs: usage.systemCPUTime / 1000,
    maxRssMB: usage.maxRSS / 1024,
  };
  const file = process.env['BENCH_STATS'];
  if (file) writeFileSync(file, JSON.stringify(stats));
  // As the executable does: the benchmark reads all of the output before the command counts as done.
  await exitWhenFlushed(code);
}

void main();
