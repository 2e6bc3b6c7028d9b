/**
 * The engine end to end, measured in one run against the dev agent:
 *   - deploy of N new service jobs (N = 1,000; --quick 200) at parallelism 10: wall time beside the
 *     agent's own deployment durations (CreateTime to the successful ModifyTime), as an overhead ratio;
 *   - plan of the N unchanged jobs at parallelism 10: wall time, the share of it with no request in
 *     flight at the agent, and the requests each job cost (counted by the agent);
 *   - plan after changing 10 jobs: requests per changed job;
 *   - destroy of the N jobs;
 *   - peak RSS of the engine planning 10,000 resources (--quick: 2,000) against an agent holding them.
 *
 * The agent runs in this process (so it counts requests itself); every engine command runs in a child
 * process (`engine-cli.js`), which reports its own CPU time and peak RSS.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startDevAgent, type DevAgent, type RequestCount } from '../src/agent';
import type { CliStats } from './engine-cli';
import {
  benchJobs,
  canonicalJson,
  jobSpec,
  writeProject,
  type BenchJob,
  type BenchProject,
} from './engine-project';
import { fmt, printFigures, type Figure } from './lib';

const PARALLELISM = 10;

interface EngineRun {
  /** performance.now() when the child was spawned. */
  startedAt: number;
  wallMs: number;
  stats: CliStats;
  output: string;
  requests: RequestCount[];
  /** CPU of this process (the agent) during the run. */
  agentCpuMs: number;
}

function tail(text: string, n = 4000): string {
  return text.length > n ? `...${text.slice(-n)}` : text;
}

/** Runs one command of the command line in a child process against the agent. */
async function runEngine(
  agent: DevAgent,
  project: BenchProject,
  args: string[],
  expect: number[] = [0],
): Promise<EngineRun> {
  const statsFile = join(project.dir, `stats-${Date.now()}.json`);
  const cli = join(__dirname, 'engine-cli.js');
  const before = agent.requests.length;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  // BENCH_ENGINE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every engine command.
  const nodeArgs = (process.env['BENCH_ENGINE_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, cli, ...args, '--app', project.dir, '--no-synth'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SCHED_ADDR: agent.schedulerUrl,
      REG_HTTP_ADDR: agent.registryUrl ?? '',
      BENCH_STATS: statsFile,
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
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  if (!expect.includes(code)) {
    throw new Error(`cdktf-sched ${args.join(' ')} exited with ${code}:\n${tail(output)}`);
  }
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as CliStats;
  return {
    startedAt: started,
    wallMs,
    stats,
    output,
    requests: agent.requests.slice(before),
    agentCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/** Time (ms) during which at least one request was being served, within the run. */
function busyMs(requests: RequestCount[]): number {
  const spans = requests
    .map((r) => [r.finishedAt - r.durationMs, r.finishedAt] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  let start = -Infinity;
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

interface PerJob {
  counts: Map<string, number>;
  /** Requests that name no job (parse, list endpoints, ...). */
  other: RequestCount[];
}

/** Requests attributed to the job their path names (/v1/job/<id>...). */
function requestsPerJob(requests: RequestCount[]): PerJob {
  const counts = new Map<string, number>();
  const other: RequestCount[] = [];
  for (const r of requests) {
    const m = /^\/v1\/job\/([^/]+)/.exec(r.path);
    if (!m) {
      other.push(r);
      continue;
    }
    const id = decodeURIComponent(m[1]!);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return { counts, other };
}

function routeSummary(requests: RequestCount[]): string {
  const byRoute = new Map<string, number>();
  for (const r of requests) {
    const route = `${r.method} ${r.path.replace(/^\/v1\/job\/[^/]+/, '/v1/job/:id').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':uuid')}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  return [...byRoute.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

interface DeploymentTimes {
  count: number;
  sumMs: number;
  /** Per job, means (ms): registration to deployment created, and deployment success to the job's last request. */
  beforeMs: number;
  afterMs: number;
}

/**
 * The agent's own deployment durations (CreateTime to the successful ModifyTime) of the given jobs,
 * and around them, from the job's SubmitTime and the last request that named the job.
 */
async function deploymentTimes(
  pool: Pool,
  ids: Set<string>,
  requests: RequestCount[],
): Promise<DeploymentTimes> {
  const get = async <T>(path: string): Promise<T> => {
    const res = await pool.request({ method: 'GET', path });
    return (await res.body.json()) as T;
  };
  const deployments =
    await get<Array<{ JobID: string; Status: string; CreateTime: number; ModifyTime: number }>>(
      '/v1/deployments',
    );
  const submitted = new Map(
    (await get<Array<{ ID: string; SubmitTime: number }>>('/v1/jobs')).map((j) => [j.ID, j.SubmitTime / 1e6]),
  );
  const lastRequest = new Map<string, number>();
  for (const r of requests) {
    const m = /^\/v1\/job\/([^/]+)/.exec(r.path);
    if (m) lastRequest.set(decodeURIComponent(m[1]!), performance.timeOrigin + r.finishedAt);
  }
  let count = 0;
  let sumMs = 0;
  let beforeMs = 0;
  let afterMs = 0;
  for (const d of deployments) {
    if (!ids.has(d.JobID) || d.Status !== 'successful') continue;
    count++;
    sumMs += (d.ModifyTime - d.CreateTime) / 1e6;
    beforeMs += d.CreateTime / 1e6 - (submitted.get(d.JobID) ?? NaN);
    afterMs += (lastRequest.get(d.JobID) ?? NaN) - d.ModifyTime / 1e6;
  }
  return { count, sumMs, beforeMs: beforeMs / count, afterMs: afterMs / count };
}

async function registerDirectly(pool: Pool, jobs: BenchJob[], concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const j = jobs[next++]!;
        const res = await pool.request({
          method: 'POST',
          path: '/v1/jobs',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Job: jobSpec(j) }),
        });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`register ${j.id}: ${res.statusCode}`);
      }
    }),
  );
}

interface StateV4Like {
  resources: Array<{ name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
  [k: string]: unknown;
}

/**
 * A state file for `jobs`, shaped like one the engine wrote: the instance of a job it deployed is the
 * template, with each job's own ID, spec and modify index (as the agent reports them).
 */
function writeStateFrom(
  template: StateV4Like,
  jobs: BenchJob[],
  modifyIndexes: Map<string, number>,
  statePath: string,
): void {
  const model = template.resources[0]!;
  const state = {
    ...template,
    serial: 1,
    resources: jobs.map((j) => ({
      ...model,
      name: j.name,
      instances: [
        {
          ...model.instances[0]!,
          attributes: {
            ...model.instances[0]!.attributes,
            id: j.id,
            name: j.id,
            type: 'batch',
            version: 0,
            job_modify_index: modifyIndexes.get(j.id) ?? 0,
            jobspec: canonicalJson(jobSpec(j)),
            task_groups: [
              {
                name: 'work',
                count: 1,
                tasks: ['main'],
                meta: null,
                running: 0,
                pending: 0,
                complete: 0,
                failed: 0,
                lost: 0,
              },
            ],
            allocation_ids: [],
            deployment_id: null,
            deployment_status: null,
          },
        },
      ],
    })),
  };
  writeFileSync(statePath, JSON.stringify(state));
}

function maxOf(m: Map<string, number>, ids: Iterable<string>): number {
  let max = 0;
  for (const id of ids) max = Math.max(max, m.get(id) ?? 0);
  return max;
}

function sumOf(m: Map<string, number>, ids: Iterable<string>): number {
  let sum = 0;
  for (const id of ids) sum += m.get(id) ?? 0;
  return sum;
}

export interface EngineBenchOptions {
  quick?: boolean;
  /** Jobs deployed, planned and destroyed (default 1,000; quick 200). */
  jobs?: number;
  /** Resources in the memory figure's plan (default 10,000; quick 2,000). */
  big?: number;
  log?: (line: string) => void;
}

export async function benchEngine(opts: EngineBenchOptions = {}): Promise<Figure[]> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const n = opts.jobs ?? (opts.quick ? 200 : 1000);
  const big = opts.big ?? (opts.quick ? 2000 : 10_000);
  const figures: Figure[] = [];
  const root = mkdtempSync(join(tmpdir(), 'cdktf-sched-bench-'));
  const agent = await startDevAgent({
    port: 0,
    registryPort: 0,
    timeScale: 0.02,
    nodes: 50,
    nodeCpu: 64_000,
    nodeMemory: 65_536,
  });
  const pool = new Pool(agent.schedulerUrl, { connections: 16 });
  try {
    const dir = mkdtempSync(join(root, 'stack-'));
    const jobs = benchJobs(n, 'service');
    const ids = new Set(jobs.map((j) => j.id));
    const project = writeProject(dir, jobs);

    // Deploy of N new jobs.
    log(`engine bench: deploying ${n} service jobs`);
    const deploy = await runEngine(agent, project, [
      'deploy',
      '--auto-approve',
      '--parallelism',
      `${PARALLELISM}`,
    ]);
    const dep = await deploymentTimes(pool, ids, deploy.requests);
    if (dep.count !== n) throw new Error(`expected ${n} successful deployments, found ${dep.count}`);
    const ideal = dep.sumMs / PARALLELISM;
    const firstWrite = deploy.requests.find((r) => r.method === 'POST' && r.path === '/v1/jobs');
    const lastWrite = deploy.requests.findLast((r) => r.method === 'POST' && r.path === '/v1/jobs');
    const firstRequest = deploy.requests[0];
    const ratio = deploy.wallMs / ideal;
    figures.push({
      name: `deploy ${n} new jobs, parallelism ${PARALLELISM}: overhead ratio`,
      value: fmt(ratio, 2),
      target: '< 1.1',
      pass: ratio < 1.1,
      comparison: `wall ${fmt(deploy.wallMs / 1000, 2)} s against the agent's own deployment time ${fmt(dep.sumMs / 1000, 1)} s / ${PARALLELISM} slots = ${fmt(ideal / 1000, 2)} s; first request at ${fmt(((firstRequest?.finishedAt ?? NaN) - deploy.startedAt) / 1000, 2)} s, first registration at ${fmt(((firstWrite?.finishedAt ?? NaN) - deploy.startedAt) / 1000, 2)} s, last at ${fmt(((lastWrite?.finishedAt ?? NaN) - deploy.startedAt) / 1000, 2)} s; per job: registration to deployment ${fmt(dep.beforeMs, 0)} ms, deployment ${fmt(dep.sumMs / n, 0)} ms, success to last request ${fmt(dep.afterMs, 0)} ms; engine CPU ${fmt((deploy.stats.cpuUserMs + deploy.stats.cpuSystemMs) / 1000, 2)} s, agent CPU ${fmt(deploy.agentCpuMs / 1000, 2)} s; ${fmt(deploy.requests.length / n, 1)} requests per job`,
    });

    // Plan of N unchanged jobs.
    log(`engine bench: planning ${n} unchanged jobs`);
    const plan = await runEngine(agent, project, [
      'plan',
      '--parallelism',
      `${PARALLELISM}`,
      '--detailed-exitcode',
    ]);
    const planBusy = busyMs(plan.requests);
    const outside = 1 - planBusy / plan.wallMs;
    figures.push({
      name: `plan ${n} unchanged jobs, parallelism ${PARALLELISM}: wall (s)`,
      value: fmt(plan.wallMs / 1000, 2),
      target: '< 3 s',
      pass: plan.wallMs < 3000,
      comparison: `${fmt(outside * 100, 0)}% of it with no request in flight at the agent; engine CPU ${fmt((plan.stats.cpuUserMs + plan.stats.cpuSystemMs) / 1000, 2)} s, agent CPU ${fmt(plan.agentCpuMs / 1000, 2)} s; command ${fmt(plan.stats.commandMs / 1000, 2)} s after module loading; engine peak RSS ${fmt(plan.stats.maxRssMB, 0)} MB`,
    });
    const planPer = requestsPerJob(plan.requests);
    const unchangedMax = maxOf(planPer.counts, ids);
    figures.push({
      name: 'HTTP requests per unchanged job (refresh + plan)',
      value: String(unchangedMax),
      target: '<= 1',
      pass: unchangedMax <= 1,
      comparison: `mean ${fmt(sumOf(planPer.counts, ids) / n, 2)}, plus ${planPer.other.length} naming no job; ${routeSummary(plan.requests)}`,
    });

    // Plan after changing 10 jobs.
    const changed = jobs.filter((_, i) => i % Math.floor(n / 10) === 0).slice(0, 10);
    for (const j of changed) j.revision++;
    writeProject(dir, jobs);
    log('engine bench: planning after changing 10 jobs');
    const replan = await runEngine(
      agent,
      project,
      ['plan', '--parallelism', `${PARALLELISM}`, '--detailed-exitcode'],
      [2],
    );
    const replanPer = requestsPerJob(replan.requests);
    const changedIds = changed.map((j) => j.id);
    const changedMax = maxOf(replanPer.counts, changedIds);
    figures.push({
      name: 'HTTP requests per changed job (refresh + plan)',
      value: String(changedMax),
      target: '<= 3',
      pass: changedMax <= 3,
      comparison: `mean ${fmt(sumOf(replanPer.counts, changedIds) / changedIds.length, 2)} over ${changedIds.length} changed jobs; ${replanPer.other.length} naming no job; plan wall ${fmt(replan.wallMs / 1000, 2)} s`,
    });

    const template = JSON.parse(readFileSync(project.statePath, 'utf8')) as StateV4Like;

    log(`engine bench: destroying ${n} jobs`);
    const destroy = await runEngine(agent, project, [
      'destroy',
      '--auto-approve',
      '--parallelism',
      `${PARALLELISM}`,
    ]);
    figures.push({
      name: `destroy ${n} jobs, parallelism ${PARALLELISM}: wall (s)`,
      value: fmt(destroy.wallMs / 1000, 2),
      comparison: `engine CPU ${fmt((destroy.stats.cpuUserMs + destroy.stats.cpuSystemMs) / 1000, 2)} s, agent CPU ${fmt(destroy.agentCpuMs / 1000, 2)} s; ${fmt(destroy.requests.length / n, 1)} requests per job`,
    });

    // Peak RSS of a plan over many resources.
    log(`engine bench: registering ${big} parameterized jobs for the memory figure`);
    const bigDir = mkdtempSync(join(root, 'big-'));
    const bigJobs = benchJobs(big, 'parameterized', 'param');
    const bigProject = writeProject(bigDir, bigJobs);
    await registerDirectly(pool, bigJobs, 16);
    const listed = await pool.request({ method: 'GET', path: '/v1/jobs?prefix=param-' });
    const stubs = (await listed.body.json()) as Array<{ ID: string; JobModifyIndex: number }>;
    writeStateFrom(
      template,
      bigJobs,
      new Map(stubs.map((j) => [j.ID, j.JobModifyIndex])),
      bigProject.statePath,
    );
    log(`engine bench: planning ${big} unchanged resources`);
    const bigPlan = await runEngine(agent, bigProject, [
      'plan',
      '--parallelism',
      `${PARALLELISM}`,
      '--detailed-exitcode',
    ]);
    const scaled = big === 10_000 ? '' : ` (${big} resources; the target is for 10,000)`;
    figures.push({
      name: `engine peak RSS, plan of ${big} resources (MB)`,
      value: fmt(bigPlan.stats.maxRssMB, 0),
      target: '< 400 MB',
      pass: bigPlan.stats.maxRssMB < 400,
      comparison: `plan wall ${fmt(bigPlan.wallMs / 1000, 2)} s, engine CPU ${fmt((bigPlan.stats.cpuUserMs + bigPlan.stats.cpuSystemMs) / 1000, 2)} s, ${fmt(bigPlan.requests.length / big, 2)} requests per resource${scaled}`,
    });
  } finally {
    await pool.close();
    await agent.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return figures;
}

if (require.main === module) {
  const num = (flag: string): number | undefined => {
    const arg = process.argv.find((a) => a.startsWith(`${flag}=`));
    return arg ? Number(arg.slice(flag.length + 1)) : undefined;
  };
  benchEngine({ quick: process.argv.includes('--quick'), jobs: num('--jobs'), big: num('--big') })
    .then((f) => printFigures('engine', f))
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
}
