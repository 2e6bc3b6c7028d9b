/**
 * Running one engine command for the benchmark: in a child process (`engine-cli.js`) against an agent
 * that lives in this process, with its wall time, its own CPU and peak RSS, the CPU this process (the
 * agent) spent meanwhile, and every request the agent served for it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DevAgent, RequestCount } from '../src/agent';
import { CODE_CACHE_ENV } from '../src/common/code-cache';
import type { CliStats } from './engine-cli';
import { benchJobs, writeProject, type BenchProject } from './engine-project';
import { cpuSeconds, nodeEntry } from './lib';

/**
 * The code cache every engine command of this process uses: one of the benchmark's own, primed by
 * primeCodeCache before anything is timed. A bin compiles its bundle from source at the first run of a
 * command after an install and takes it from its cache at every run after (common/code-cache.ts), so
 * the figures are of the runs after the first, whatever the machine's own cache held; the first run
 * after an install is the fresh-clone benchmark's figure.
 */
let codeCache: string | undefined;

function benchCodeCache(): string {
  if (codeCache === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'cdktf-sched-bench-code-cache-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    codeCache = dir;
  }
  return codeCache;
}

/**
 * Runs each command the benchmarks time (plan, deploy, destroy) once, untimed, on a small stack of its
 * own (job IDs `prime-*`, in a new folder under `root`), so that each has its code cache.
 */
export async function primeCodeCache(agent: DevAgent, root: string): Promise<void> {
  const project = writeProject(mkdtempSync(join(root, 'prime-')), benchJobs(5, 'service', 'prime'));
  for (const args of [['plan'], ['deploy', '--auto-approve'], ['destroy', '--auto-approve']]) {
    await runEngine(agent, project, args);
  }
}

export interface EngineRun {
  /** performance.now() when the child was spawned. */
  startedAt: number;
  wallMs: number;
  /** Exit code; undefined when the run was stopped at its time limit. */
  code: number | undefined;
  timedOut: boolean;
  /** The command's own report (absent when it was stopped). */
  stats?: CliStats;
  /** Engine CPU seconds (user + system). */
  cpuS: number;
  /** Peak RSS of the engine process (MB), from its own report or, when stopped, from /proc. */
  peakRssMB: number;
  output: string;
  requests: RequestCount[];
  /** CPU of this process (the agent) during the run, ms. */
  agentCpuMs: number;
}

function tail(text: string, n = 4000): string {
  return text.length > n ? `...${text.slice(-n)}` : text;
}

function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export interface RunOptions {
  /** Exit codes that count as success (default [0]). */
  expect?: number[];
  /** Stop the command after this long (its figures are then partial). */
  timeoutMs?: number;
}

/** Runs `cdktf-sched <args> --app <project> --no-synth` against the agent. */
export async function runEngine(
  agent: DevAgent,
  project: BenchProject,
  args: string[],
  opts: RunOptions = {},
): Promise<EngineRun> {
  const statsFile = join(project.dir, `stats-${Date.now()}.json`);
  const cli = nodeEntry(join(__dirname, 'engine-cli'));
  const before = agent.requests.length;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  // BENCH_ENGINE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every engine command.
  const nodeArgs = (process.env['BENCH_ENGINE_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...cli, ...args, '--app', project.dir, '--no-synth'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SCHED_ADDR: agent.schedulerUrl,
      REG_HTTP_ADDR: agent.registryUrl ?? '',
      BENCH_STATS: statsFile,
      [CODE_CACHE_ENV]: benchCodeCache(),
      CI: '1',
      NO_COLOR: '1',
    },
  });
  let output = '';
  const keep = (d: Buffer): void => {
    output = tail(output + d.toString(), 20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const pid = child.pid!;
  let polledRss = 0;
  let polledCpu = 0;
  const poll = setInterval(() => {
    polledRss = Math.max(polledRss, peakRss(pid) || 0);
    try {
      polledCpu = cpuSeconds(pid);
    } catch {
      // exited between two polls
    }
  }, 250);
  let timedOut = false;
  const limit =
    opts.timeoutMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          polledRss = Math.max(polledRss, peakRss(pid) || 0);
          try {
            polledCpu = cpuSeconds(pid);
          } catch {
            // already gone
          }
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  });
  clearInterval(poll);
  if (limit) clearTimeout(limit);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const requests = agent.requests.slice(before);
  const agentCpuMs = (cpu.user + cpu.system) / 1000;
  if (timedOut) {
    return {
      startedAt: started,
      wallMs,
      code: undefined,
      timedOut,
      cpuS: polledCpu,
      peakRssMB: polledRss,
      output,
      requests,
      agentCpuMs,
    };
  }
  if (!(opts.expect ?? [0]).includes(code) || !existsSync(statsFile)) {
    throw new Error(`cdktf-sched ${args.join(' ')} exited with ${code}:\n${tail(output)}`);
  }
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as CliStats;
  return {
    startedAt: started,
    wallMs,
    code,
    timedOut,
    stats,
    cpuS: (stats.cpuUserMs + stats.cpuSystemMs) / 1000,
    peakRssMB: stats.maxRssMB,
    output,
    requests,
    agentCpuMs,
  };
}

/** Time (ms) during which at least one request was being served. */
export function busyMs(requests: RequestCount[]): number {
  const spans = requests
    .map((r) => [r.finishedAt - r.durationMs, r.finishedAt] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let start = 0;
  let end = -Infinity;
  for (const [s, e] of spans) {
    if (s > end) {
      if (end > start) total += end - start;
      start = s;
      end = e;
    } else if (e > end) end = e;
  }
  if (end > start) total += end - start;
  return total;
}

const JOB_PATH = /^\/v1\/job\/([^/]+)/;

/** Requests per job, by the job their path names (/v1/job/<id>...); `other` names none. */
export function requestsPerJob(requests: RequestCount[]): {
  counts: Map<string, number>;
  other: RequestCount[];
} {
  const counts = new Map<string, number>();
  const other: RequestCount[] = [];
  for (const r of requests) {
    const m = JOB_PATH.exec(r.path);
    if (!m) {
      other.push(r);
      continue;
    }
    const id = decodeURIComponent(m[1]!);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return { counts, other };
}

/** "GET /v1/job/:id 1000, ..." by route, most frequent first. */
export function routeSummary(requests: RequestCount[]): string {
  const byRoute = new Map<string, number>();
  for (const r of requests) {
    const path = r.path
      .replace(JOB_PATH, '/v1/job/:id')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':uuid');
    const route = `${r.method} ${path}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  return [...byRoute.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** The time of the last request naming each job (epoch ms). */
export function lastRequestPerJob(requests: RequestCount[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of requests) {
    const m = JOB_PATH.exec(r.path);
    if (m) out.set(decodeURIComponent(m[1]!), performance.timeOrigin + r.finishedAt);
  }
  return out;
}
