/**
 * The engine's CPU per API call (`node dist/bench/transport.js [--calls N]`): fresh processes, each
 * making N reads of a small object through the scheduler client, 10 at a time as a deploy does, against
 * a dev agent of its own process. Reported: the median over the runs of the CPU per call of the first N
 * calls (cold, as in a command) and of the next N (warm). The process runs with the V8 flag the bins
 * set (`--liftoff-only`), so undici's parser runs as in a command; the client is the compiled module tree,
 * not a bundle, so the cold figure holds some compiling a bin would take from its code cache.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fmt, nodeEntry, percentile, runAlone, spawnAgent, type Figure } from './lib';

const RUNS = 5;

interface CallsCpu {
  coldMs: number;
  warmMs: number;
}

export async function benchTransport(opts: { calls: number }): Promise<Figure[]> {
  const agent = await spawnAgent();
  try {
    const child = [
      ...nodeEntry(join(__dirname, 'transport-calls')),
      agent.schedulerUrl,
      String(opts.calls),
      '10',
    ];
    const runs: CallsCpu[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = execFileSync(process.execPath, ['--liftoff-only', ...child], { encoding: 'utf8' });
      runs.push(JSON.parse(out) as CallsCpu);
    }
    const perCall = (ms: number[]): number =>
      (percentile(
        [...ms].sort((a, b) => a - b),
        50,
      ) *
        1000) /
      opts.calls;
    const note = `median of ${RUNS} fresh processes, ${opts.calls} calls each, 10 at a time`;
    return [
      {
        name: `CPU per API call, first ${opts.calls} of a process (us)`,
        value: fmt(perCall(runs.map((r) => r.coldMs)), 0),
        comparison: note,
      },
      {
        name: `CPU per API call, the ${opts.calls} after (us)`,
        value: fmt(perCall(runs.map((r) => r.warmMs)), 0),
      },
    ];
  } finally {
    await agent.stop();
  }
}

if (require.main === module) {
  const at = process.argv.indexOf('--calls');
  const calls = at > 0 ? Number(process.argv[at + 1]) : 1200;
  runAlone('transport', () => benchTransport({ calls }), ['--calls N']);
}
