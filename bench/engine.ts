/**
 * The engine end to end, measured in one run against the dev agent (`node dist/bench/engine.js
 * [--quick] [--jobs=N] [--big=N]`):
 *   - deploy of 200 new service jobs at parallelism 10, each rolling out for about a second: wall
 *     time against the sum of the agent's own deployment durations (CreateTime to the successful
 *     ModifyTime), and against that sum packed into the 10 slots; then the rest of the N jobs
 *     (N = 1,000; --quick 200, rollouts of about 100 ms) in a second deploy beside the first 200;
 *   - plan of the N unchanged jobs at parallelism 10 (three times, the median reported): wall time,
 *     the share of it with no request in flight at the agent, and the requests each job cost (counted
 *     by the agent);
 *   - plan after changing 10 jobs (5 of them rewritten as HCL2): requests per changed job;
 *   - destroy of the N jobs;
 *   - plan of 10,000 unchanged resources (--quick: 2,000) against an agent holding them, three times:
 *     the median wall time, and the engine's peak RSS (the highest of the three).
 *
 * The agent runs in this process (it counts requests itself; its CPU is this process's); every engine
 * command runs in a child process that reports its own CPU and peak RSS. Commands that overrun their
 * time limit are stopped and reported as a MISS with what they got through, so the run always ends.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startDevAgent, type RequestCount } from '../src/agent';
import {
  benchJobs,
  jobSpec,
  writeProject,
  writeStateFrom,
  type BenchJob,
  type StateTemplate,
} from './engine-project';
import {
  busyMs,
  lastRequestPerJob,
  requestsPerJob,
  routeSummary,
  runEngine,
  type EngineRun,
  primeCodeCache,
} from './engine-run';
import { fmt, runAlone, type Figure } from './lib';

const PARALLELISM = 10;
const PLAN_RUNS = 3;
/** Issue 19's targets. */
const SLOTS_TARGET = 1.05;
const PLAN_TARGET_S = 1.0;
const BIG_PLAN_TARGET_S = 3;
const BIG_RSS_TARGET_MB = 250;
/** New jobs in the deploy figure (the issue's 200); the rest of the stack follows in a second deploy. */
const DEPLOY_FIRST = 200;
/**
 * min_healthy_time of the first deploy's jobs: 1 s of real time at the agent's time scale. Rollouts as
 * short as the rest's (100 ms) would make the per-slot figure measure Node's start and the up-front
 * plan rather than the engine's overhead per deployment; real rollouts last tens of seconds.
 */
const FIRST_MIN_HEALTHY_S = 50;

interface DeploymentTimes {
  count: number;
  sumMs: number;
  /** Means per job (ms): registration to deployment created, deployment success to the job's last request. */
  beforeMs: number;
  afterMs: number;
}

async function getJson<T>(pool: Pool, path: string): Promise<T> {
  const res = await pool.request({ method: 'GET', path });
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode}`);
  return (await res.body.json()) as T;
}

/** The agent's own deployment durations of the given jobs, and what surrounds them. */
async function deploymentTimes(
  pool: Pool,
  ids: Set<string>,
  requests: RequestCount[],
): Promise<DeploymentTimes> {
  const deployments = await getJson<
    Array<{ JobID: string; Status: string; CreateTime: number; ModifyTime: number }>
  >(pool, '/v1/deployments');
  const jobs = await getJson<Array<{ ID: string; SubmitTime: number }>>(pool, '/v1/jobs');
  const submitted = new Map(jobs.map((j) => [j.ID, j.SubmitTime / 1e6]));
  const last = lastRequestPerJob(requests);
  const t: DeploymentTimes = { count: 0, sumMs: 0, beforeMs: 0, afterMs: 0 };
  for (const d of deployments) {
    if (!ids.has(d.JobID) || d.Status !== 'successful') continue;
    t.count++;
    t.sumMs += (d.ModifyTime - d.CreateTime) / 1e6;
    t.beforeMs += d.CreateTime / 1e6 - (submitted.get(d.JobID) ?? NaN);
    t.afterMs += (last.get(d.JobID) ?? NaN) - d.ModifyTime / 1e6;
  }
  t.beforeMs /= t.count;
  t.afterMs /= t.count;
  return t;
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

const s = (ms: number): string => `${fmt(ms / 1000, 2)} s`;

/** The run of median wall time, and "median of 3 (1.10, 1.25, 1.36); " when there were several. */
function medianByWall(runs: EngineRun[]): { run: EngineRun; spread: string } {
  const byWall = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const run = byWall[Math.floor((byWall.length - 1) / 2)]!;
  const spread =
    runs.length > 1
      ? `median of ${runs.length} (${byWall.map((r) => fmt(r.wallMs / 1000, 2)).join(', ')}); `
      : '';
  return { run, spread };
}

/** Runs the command up to `times` times (fewer when one overruns its limit). */
async function repeatRuns(
  times: number,
  label: string,
  once: () => Promise<EngineRun>,
  log: (l: string) => void,
): Promise<EngineRun[]> {
  const runs: EngineRun[] = [];
  for (let i = 1; i <= times; i++) {
    log(`engine bench: ${label} (${i} of ${times})`);
    const run = await once();
    runs.push(run);
    if (run.timedOut) break;
  }
  return runs;
}

/** "engine CPU 1.2 s, agent CPU 0.4 s" */
function cpuOf(run: EngineRun): string {
  return `engine CPU ${fmt(run.cpuS, 2)} s, agent CPU ${fmt(run.agentCpuMs / 1000, 2)} s`;
}

/** For a command stopped at its limit: how far it got, by the requests the agent saw. */
function stopped(run: EngineRun, perResource: number, total: number): string {
  const done = Math.min(total, Math.floor(run.requests.length / perResource));
  return `stopped after ${s(run.wallMs)} (time limit), about ${done} of ${total} resources refreshed`;
}

/**
 * The 10,000-resource plan: its wall time (the median run) and the engine's peak RSS (the highest of
 * the runs, the kernel's high-water mark of each engine process).
 */
function bigPlanFigures(runs: EngineRun[], big: number): Figure[] {
  const { run, spread } = medianByWall(runs);
  const scaled = big === 10_000 ? '' : `; ${big} resources, the targets are for 10,000`;
  const peak = runs.reduce((a, b) => (b.peakRssMB > a.peakRssMB ? b : a));
  const timedOut = runs.some((r) => r.timedOut);
  return [
    {
      name: `plan of ${big} unchanged resources, parallelism ${PARALLELISM}: wall (s)`,
      value: run.timedOut ? `> ${fmt(run.wallMs / 1000, 0)}` : fmt(run.wallMs / 1000, 2),
      target: `< ${BIG_PLAN_TARGET_S} s`,
      pass: !run.timedOut && run.wallMs < BIG_PLAN_TARGET_S * 1000,
      comparison: `${spread}${run.timedOut ? stopped(run, 1, big) : `${fmt((1 - busyMs(run.requests) / run.wallMs) * 100, 0)}% of it with no request in flight at the agent`}; ${cpuOf(run)}${run.stats ? `; ${s(run.stats.commandMs)} after loading the modules` : ''}; ${fmt(run.requests.length / big, 3)} requests per resource${scaled}`,
    },
    {
      name: `engine peak RSS, plan of ${big} resources (MB)`,
      value: `${timedOut ? '>= ' : ''}${fmt(peak.peakRssMB, 0)}`,
      target: `< ${BIG_RSS_TARGET_MB} MB`,
      pass: !timedOut && peak.peakRssMB < BIG_RSS_TARGET_MB,
      comparison: `the highest of ${runs.length} runs (${runs.map((r) => fmt(r.peakRssMB, 0)).join(', ')} MB)${scaled}`,
    },
  ];
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
  const planLimitMs = opts.quick ? 60_000 : 120_000;
  const figures: Figure[] = [];
  const root = mkdtempSync(join(tmpdir(), 'cdktf-sched-bench-'));
  // Deployments take about 100 ms of real time each (min_healthy_time 5 s at time scale 0.02; the
  // first deploy's about 1 s); ten nodes have room for every allocation (10 MHz and 16 MB each).
  const agent = await startDevAgent({
    recordRequests: true,
    port: 0,
    registryPort: 0,
    timeScale: 0.02,
    nodes: 10,
    nodeCpu: 64_000,
    nodeMemory: 65_536,
  });
  const pool = new Pool(agent.schedulerUrl, { connections: 16 });
  const par = ['--parallelism', `${PARALLELISM}`];
  try {
    await primeCodeCache(agent, root);
    const dir = mkdtempSync(join(root, 'stack-'));
    const jobs = benchJobs(n, 'service');
    const first = Math.min(DEPLOY_FIRST, n);
    for (const j of jobs.slice(0, first)) j.minHealthyS = FIRST_MIN_HEALTHY_S;

    // The issue's deploy figure is for 200 new jobs; the rest of the N join them in a second deploy
    // (an incremental one: the first 200 are planned unchanged beside the new ones).
    const deploys: Array<{ jobs: BenchJob[]; label: string }> = [
      { jobs: jobs.slice(0, first), label: `deploy ${first} new jobs` },
      ...(n > first
        ? [{ jobs: jobs.slice(first), label: `deploy ${n - first} more beside ${first} unchanged` }]
        : []),
    ];
    let project = writeProject(dir, []);
    for (const [i, d] of deploys.entries()) {
      project = writeProject(
        dir,
        jobs.slice(
          0,
          deploys.slice(0, i + 1).reduce((k, x) => k + x.jobs.length, 0),
        ),
      );
      log(`engine bench: ${d.label}`);
      const deploy = await runEngine(agent, project, ['deploy', '--auto-approve', ...par]);
      const ids = new Set(d.jobs.map((j) => j.id));
      const count = d.jobs.length;
      const dep = await deploymentTimes(pool, ids, deploy.requests);
      if (dep.count !== count)
        throw new Error(`expected ${count} successful deployments, found ${dep.count}`);
      const writes = deploy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/jobs');
      const at = (r: RequestCount | undefined): string => s((r?.finishedAt ?? NaN) - deploy.startedAt);
      const ratio = deploy.wallMs / dep.sumMs;
      figures.push({
        name: `${d.label}: wall / sum of the agent's deployment times`,
        value: fmt(ratio, 3),
        ...(i === 0 ? { target: '< 1.1', pass: ratio < 1.1 } : {}),
        comparison: `wall ${s(deploy.wallMs)}, deployments ${fmt(dep.sumMs / 1000, 1)} s in all (${fmt(dep.sumMs / count, 0)} ms each), parallelism ${PARALLELISM}`,
      });
      // The stricter reading: the deployments packed into the engine's slots are the least wall time
      // any engine could take, so what is above 1 is overhead.
      const slots = deploy.wallMs / (dep.sumMs / PARALLELISM);
      figures.push({
        name: `${d.label}: wall / (that sum / ${PARALLELISM} slots)`,
        value: fmt(slots, 2),
        ...(i === 0 ? { target: `< ${SLOTS_TARGET} (ours)`, pass: slots < SLOTS_TARGET } : {}),
        comparison: `first request at ${at(deploy.requests[0])}, first registration at ${at(writes[0])}, last at ${at(writes[writes.length - 1])}; per job: registration to deployment ${fmt(dep.beforeMs, 0)} ms, deployment success to last request ${fmt(dep.afterMs, 0)} ms; ${cpuOf(deploy)}; ${fmt(deploy.requests.length / count, 1)} requests per new job`,
      });
    }

    // Three plans, the median one reported: a single run on a shared two-core machine varies by a
    // second either way.
    const plans = await repeatRuns(
      PLAN_RUNS,
      `planning ${n} unchanged jobs`,
      () => runEngine(agent, project, ['plan', ...par, '--detailed-exitcode'], { timeoutMs: planLimitMs }),
      log,
    );
    const { run: plan, spread } = medianByWall(plans);
    const outside = 1 - busyMs(plan.requests) / plan.wallMs;
    figures.push({
      name: `plan ${n} unchanged jobs, parallelism ${PARALLELISM}: wall (s)`,
      value: plan.timedOut ? `> ${fmt(plan.wallMs / 1000, 0)}` : fmt(plan.wallMs / 1000, 2),
      target: `< ${fmt(PLAN_TARGET_S, 1)} s`,
      pass: !plan.timedOut && plan.wallMs < PLAN_TARGET_S * 1000,
      comparison: `${spread}${plan.timedOut ? `${stopped(plan, 2, n)}; ` : ''}${fmt(outside * 100, 0)}% of it with no request in flight at the agent; ${cpuOf(plan)}${plan.stats ? `; ${s(plan.stats.commandMs)} after loading the modules` : ''}; engine peak RSS ${fmt(plan.peakRssMB, 0)} MB`,
    });
    // Refresh by index: one listing of job stubs for the whole stack, no request of a job's own.
    const planPer = requestsPerJob(plan.requests);
    const perUnchanged = plan.requests.length / n;
    const budget = Math.max(1, Math.floor(n * 0.02));
    figures.push({
      name: 'agent requests per unchanged job (refresh + plan)',
      value: fmt(perUnchanged, 3),
      target: '<= 0.02 (one listing below 50 jobs)',
      pass: plan.requests.length > 0 && plan.requests.length <= budget,
      comparison: `${plan.requests.length} requests for ${n} jobs, ${planPer.counts.size} jobs read on their own; ${routeSummary(plan.requests)}`,
    });

    // Ten jobs change: five stay JSON, five are rewritten as HCL2 (which the cluster parses).
    const changed = jobs.filter((_, i) => i % Math.floor(n / 10) === 0).slice(0, 10);
    for (const [i, j] of changed.entries()) {
      j.revision++;
      if (i % 2 === 1) j.format = 'hcl2';
    }
    writeProject(dir, jobs);
    log('engine bench: planning after changing 10 jobs (5 of them rewritten as HCL2)');
    const replan = await runEngine(agent, project, ['plan', ...par, '--detailed-exitcode'], {
      expect: [2],
      timeoutMs: planLimitMs,
    });
    const replanPer = requestsPerJob(replan.requests);
    // The parse endpoint's path names no job: its requests are shared out over the HCL2 jobs.
    const parses = replanPer.other.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/jobs/parse'));
    for (const format of ['json', 'hcl2'] as const) {
      const mine = changed.filter((j) => (j.format ?? 'json') === format).map((j) => j.id);
      const ids = mine.filter((id) => replanPer.counts.has(id));
      const perParse = format === 'hcl2' ? parses.length / Math.max(1, mine.length) : 0;
      const max = maxOf(replanPer.counts, ids) + perParse;
      figures.push({
        name: `HTTP requests per changed ${format === 'json' ? 'JSON' : 'HCL2'} job (refresh + plan)`,
        value: fmt(max, perParse % 1 === 0 ? 0 : 2),
        target: '<= 3',
        pass: ids.length === mine.length && max <= 3,
        comparison: `mean ${fmt(sumOf(replanPer.counts, ids) / ids.length + perParse, 2)} over ${ids.length} changed jobs${format === 'hcl2' ? `, with ${parses.length} parse requests for them` : ''}; ${routeSummary(replan.requests.filter((r) => ids.some((id) => r.path.startsWith(`/v1/job/${id}`)) || (format === 'hcl2' && parses.includes(r))))}; plan ${replan.timedOut ? stopped(replan, 2, n) : `wall ${s(replan.wallMs)}`}`,
      });
    }

    const template = JSON.parse(readFileSync(project.statePath, 'utf8')) as StateTemplate;

    log(`engine bench: destroying ${n} jobs`);
    const destroy = await runEngine(agent, project, ['destroy', '--auto-approve', ...par]);
    figures.push({
      name: `destroy ${n} jobs, parallelism ${PARALLELISM}: wall (s)`,
      value: fmt(destroy.wallMs / 1000, 2),
      comparison: `${cpuOf(destroy)}; ${fmt(destroy.requests.length / n, 1)} requests per job`,
    });

    log(`engine bench: registering ${big} parameterized jobs for the memory figure`);
    const bigDir = mkdtempSync(join(root, 'big-'));
    const bigJobs = benchJobs(big, 'parameterized', 'param');
    const bigProject = writeProject(bigDir, bigJobs);
    await registerDirectly(pool, bigJobs, 16);
    const stubs = await getJson<Array<{ ID: string; JobModifyIndex: number }>>(
      pool,
      '/v1/jobs?prefix=param-',
    );
    writeStateFrom(
      template,
      bigJobs,
      new Map(stubs.map((j) => [j.ID, j.JobModifyIndex])),
      bigProject.statePath,
    );
    const bigPlans = await repeatRuns(
      PLAN_RUNS,
      `planning ${big} unchanged resources`,
      () =>
        runEngine(agent, bigProject, ['plan', ...par, '--detailed-exitcode'], {
          timeoutMs: opts.quick ? 90_000 : 150_000,
        }),
      log,
    );
    figures.push(...bigPlanFigures(bigPlans, big));
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
  runAlone(
    'engine',
    () => benchEngine({ quick: process.argv.includes('--quick'), jobs: num('--jobs'), big: num('--big') }),
    ['--quick', '--jobs=N', '--big=N'],
  );
}
