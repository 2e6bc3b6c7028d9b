/**
 * Which Node processes a command started, when, and the CPU of each: a tiny preload passed through
 * NODE_OPTIONS (so every Node process below the command loads it: npx's npm, our CLI, the synth's
 * `npx tsx` and the app) appends a line when a process starts and when it exits. This tells how much of
 * a first deploy is npm starting up rather than our CLI.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt } from './lib';

// CommonJS so that it loads without a loader; the log path comes from the environment.
const PRELOAD = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const file = process.env.BENCH_FRESH_PROC_LOG;
if (file) {
  const rec = (o) => fs.appendFileSync(file, JSON.stringify({ pid: process.pid, ...o }) + '\\n');
  rec({ startedAt: performance.timeOrigin, name: path.basename(process.argv[1] || 'node') });
  process.on('exit', () => {
    const u = process.cpuUsage();
    rec({ exitedAt: performance.timeOrigin + performance.now(), cpuMs: (u.user + u.system) / 1000 });
  });
}
`;

/** One Node process as its preload saw it (epoch ms). */
export interface NodeProcess {
  pid: number;
  /** The script it ran (basename), e.g. npx-cli.js, main.bundle.js, cli.mjs, main.ts. */
  name: string;
  startedAt: number;
  exitedAt?: number;
  cpuMs?: number;
}

export interface ProcessLog {
  /** Added to the command's environment. */
  env: Record<string, string>;
  read(): NodeProcess[];
}

/** Writes the preload into `dir` and returns the environment that makes every Node process log itself. */
export function processLog(dir: string, nodeOptions: string | undefined): ProcessLog {
  const preload = join(dir, 'proc-preload.cjs');
  const file = join(dir, 'procs.jsonl');
  writeFileSync(preload, PRELOAD);
  return {
    env: {
      NODE_OPTIONS: `${nodeOptions ?? ''} --require ${preload}`.trim(),
      BENCH_FRESH_PROC_LOG: file,
    },
    read() {
      if (!existsSync(file)) return [];
      const byPid = new Map<number, NodeProcess>();
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        const rec = JSON.parse(line) as Partial<NodeProcess> & { pid: number };
        byPid.set(rec.pid, { ...(byPid.get(rec.pid) ?? { name: '?', startedAt: NaN }), ...rec });
      }
      return [...byPid.values()].sort((a, b) => a.startedAt - b.startedAt);
    },
  };
}

/** "npx-cli.js 0.00-2.10 s (CPU 1.52 s), main.bundle.js 2.05-... s (...), ..." from `t0` (epoch ms). */
export function processSummary(procs: NodeProcess[], t0: number): string {
  const at = (t: number | undefined): string => (t === undefined ? '?' : fmt((t - t0) / 1000, 2));
  return procs
    .map(
      (p) =>
        `${p.name} ${at(p.startedAt)}-${at(p.exitedAt)} s (CPU ${p.cpuMs === undefined ? '?' : fmt(p.cpuMs / 1000, 2)} s)`,
    )
    .join(', ');
}
