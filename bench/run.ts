/**
 * `npm run bench` (`node dist/bench/run.js [--quick] [--only=a,b] [--record=FILE]`): every benchmark in
 * sequence, each printing its figures beside their comparisons and targets, then a summary of the
 * PASS/MISS words. `--record FILE` also writes the run as Markdown (the machine, its load, every
 * figure) for BENCHMARKS.md. Exits non-zero when a benchmark fails to run; a missed target is a MISS
 * in the output, not a failure.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { benchAgent } from './agent';
import { benchEngine } from './engine';
import { benchFresh } from './fresh';
import { printFigures, type Figure } from './lib';
import { nodeStartSummary } from './node-start';
import { benchTerraform } from './terraform';
import { benchWait } from './wait';

interface Bench {
  key: string;
  title: string;
  run: (o: { quick: boolean }) => Promise<Figure[]>;
}

const BENCHES: Bench[] = [
  { key: 'agent', title: 'dev agent', run: benchAgent },
  { key: 'wait', title: 'deployment-wait reaction', run: benchWait },
  { key: 'engine', title: 'engine', run: benchEngine },
  { key: 'terraform', title: 'engine vs terraform', run: benchTerraform },
  { key: 'fresh', title: 'first deploy on a fresh clone', run: benchFresh },
];

interface Outcome {
  title: string;
  seconds: number;
  figures: Figure[];
  error?: string;
}

function flag(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const arg = process.argv[i]!;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : process.argv[i + 1];
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function markdown(
  outcomes: Outcome[],
  quick: boolean,
  startedAt: Date,
  seconds: number,
  load: number[],
  nodeStart: string,
): string {
  const cpu = cpus();
  const lines = [
    `Run of ${startedAt.toISOString()} (${quick ? '--quick' : 'full'}), ${seconds.toFixed(0)} s in all.`,
    `Machine: ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}; load average ${load.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min) at the start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} at the end.`,
    `Node's own start: ${nodeStart}.`,
    '',
  ];
  for (const o of outcomes) {
    lines.push(`### ${o.title} (${o.seconds.toFixed(0)} s)`, '');
    if (o.error) {
      lines.push(`Failed to run: ${cell(o.error)}`, '');
      continue;
    }
    lines.push('| figure | value | target | verdict | beside it |', '| --- | --- | --- | --- | --- |');
    for (const f of o.figures) {
      const verdict = f.pass === undefined ? '' : f.pass ? 'PASS' : '**MISS**';
      lines.push(
        `| ${cell(f.name)} | ${cell(f.value)} | ${cell(f.target ?? '')} | ${verdict} | ${cell(f.comparison ?? '')} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const only = flag('only')?.split(',');
  const record = flag('record');
  const chosen = only ? BENCHES.filter((b) => only.includes(b.key)) : BENCHES;
  if (only && chosen.length !== only.length) {
    throw new Error(`--only takes ${BENCHES.map((b) => b.key).join(', ')}; got ${only.join(', ')}`);
  }
  const startedAt = new Date();
  const load = loadavg();
  const nodeStart = nodeStartSummary();
  process.stdout.write(`Node's own start: ${nodeStart}\n`);
  const started = performance.now();
  const outcomes: Outcome[] = [];
  for (const b of chosen) {
    const t = performance.now();
    try {
      const figures = await b.run({ quick });
      printFigures(b.title, figures);
      outcomes.push({ title: b.title, seconds: (performance.now() - t) / 1000, figures });
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      process.stderr.write(`${b.title} benchmark failed: ${error}\n`);
      outcomes.push({ title: b.title, seconds: (performance.now() - t) / 1000, figures: [], error });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const all = outcomes.flatMap((o) => o.figures);
  const passed = all.filter((f) => f.pass === true).length;
  const missed = all.filter((f) => f.pass === false);
  const failed = outcomes.filter((o) => o.error);
  process.stdout.write(
    `\nall benchmarks: ${seconds.toFixed(0)} s; ${passed} PASS, ${missed.length} MISS${failed.length ? `, ${failed.length} failed to run` : ''}\n`,
  );
  for (const f of missed) process.stdout.write(`  MISS ${f.name}: ${f.value} (target ${f.target ?? '?'})\n`);
  if (record) {
    writeFileSync(record, markdown(outcomes, quick, startedAt, seconds, load, nodeStart));
    process.stdout.write(`recorded in ${record}\n`);
  }
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
