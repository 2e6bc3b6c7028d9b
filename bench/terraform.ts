/**
 * Our engine against the real terraform binary (`node dist/bench/terraform.js [--quick]`): one stack of
 * N `sched_job` resources (200; --quick 50), deployed against one dev agent by terraform driving our
 * plugins (terraform-provider-sched) and by our engine (`cdktf-sched`), each with its own job IDs:
 *   - plan of the new stack, apply (`terraform apply -auto-approve` / `cdktf-sched deploy
 *     --auto-approve`), and a plan with nothing changed, all at parallelism 10 (terraform's default);
 *   - wall times side by side and ours / terraform, target <= 0.2 for each, the median of three
 *     alternating runs (each apply on a fresh stack of its own job IDs, so every apply creates);
 *   - where terraform's time goes: its plugin processes (how many, their start-ups up to the handshake),
 *     the agent's requests, the time after its last plugin exited (printing the plan and the provider's
 *     warnings, which terraform folds into one block since they share a summary), terraform's own CPU
 *     and the plugins'; for ours, Node's start and module loading.
 *
 * Both sides pay fixed costs (process and plugin start-ups) that 50 resources (--quick) do not amortize,
 * and from the sources (tsx) our engine also pays for compiling TypeScript: the figures that count are
 * those of 200 resources from dist.
 *
 * The commands of the two alternate (terraform plan, our plan, terraform apply, ...) so that the noise of
 * a shared machine falls on both. `terraform init` is run first and not timed. Without terraform on PATH,
 * or without the plugin bundles, one figure says it was skipped and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevAgent, type DevAgent, type RequestCount } from '../src/agent';
import { STACK, benchJobs, writeProject, type BenchProject } from './engine-project';
import { busyMs, primeCodeCache, routeSummary, runEngine, type EngineRun } from './engine-run';
import { fmt, runAlone, type Figure } from './lib';
import {
  findTerraform,
  pluginEntries,
  terraformWorkspace,
  type PluginEntries,
  type PluginProcess,
  type TerraformRun,
  type TerraformWorkspace,
} from './terraform-run';

const PARALLELISM = 10;
const TARGET = 0.2;
/** Runs of each figure, alternating terraform and ours; the median pair by ratio is reported. */
const RUNS = 3;

const s = (ms: number): string => `${fmt(ms / 1000, 2)} s`;

function skipped(why: string): Figure[] {
  return [{ name: 'engine vs terraform (plan, apply)', value: 'skipped', comparison: why }];
}

/** Total length of the union of the intervals. */
function covered(spans: Array<[number, number]>): number {
  let total = 0;
  let start = 0;
  let end = -Infinity;
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else if (b > end) end = b;
  }
  if (end > start) total += end - start;
  return total;
}

/** Where a terraform command's time went, as far as can be told from outside. */
function terraformBreakdown(run: TerraformRun, requests: RequestCount[], n: number): string {
  const t0 = performance.timeOrigin + run.startedAt;
  const t1 = t0 + run.wallMs;
  const plugins = run.plugins.filter((p) => Number.isFinite(p.startedAt));
  const startups = plugins
    .filter((p): p is PluginProcess & { readyAt: number } => p.readyAt !== undefined)
    .map((p) => p.readyAt - p.startedAt);
  const startupSpans = plugins.map((p): [number, number] => [p.startedAt, p.readyAt ?? p.startedAt]);
  const pluginCpu = plugins.reduce((sum, p) => sum + (p.cpuMs ?? 0), 0);
  const lastExit = Math.max(...plugins.map((p) => p.exitedAt ?? t1));
  const mean = startups.reduce((a, b) => a + b, 0) / startups.length;
  const warnings = (run.stdout.match(/^Warning: /gm) ?? []).length;
  return (
    `terraform: ${plugins.length} plugin processes started, ${fmt(mean, 0)} ms each to the ` +
    `handshake (${s(covered(startupSpans))} of the wall); ` +
    `${fmt(requests.length / n, 1)} agent requests per resource, ${s(busyMs(requests))} with one in flight; ` +
    `${s(t1 - lastExit)} after the last plugin exited (printing${warnings > 0 ? `, with ${warnings} provider warnings` : ''}); ` +
    `CPU: terraform ${s(run.cpuMs - pluginCpu)}, plugins ${s(pluginCpu)}`
  );
}

function engineBreakdown(run: EngineRun, n: number): string {
  const loading = run.stats ? run.wallMs - run.stats.commandMs : NaN;
  return (
    `ours: ${s(loading)} starting Node and loading modules; ` +
    `${fmt(run.requests.length / n, 1)} agent requests per resource, ${s(busyMs(run.requests))} with one in flight; ` +
    `engine CPU ${fmt(run.cpuS, 2)} s`
  );
}

interface Pair {
  tf: TerraformRun;
  tfRequests: RequestCount[];
  ours: EngineRun;
}

/** The median pair by ratio, and every ratio when there were several runs. */
function median(pairs: Pair[]): { pair: Pair; spread: string } {
  const sorted = [...pairs].sort((a, b) => a.ours.wallMs / a.tf.wallMs - b.ours.wallMs / b.tf.wallMs);
  const pair = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const spread =
    pairs.length > 1
      ? `median of ${pairs.length} (${pairs.map((p) => `${fmt(p.ours.wallMs / 1000, 2)}/${fmt(p.tf.wallMs / 1000, 2)}`).join(', ')}); `
      : '';
  return { pair, spread };
}

function ratioFigure(name: string, pairs: Pair[], n: number, note = ''): Figure {
  const { pair, spread } = median(pairs);
  const { ours, tf, tfRequests } = pair;
  const ratio = ours.wallMs / tf.wallMs;
  return {
    name: `${name}: ours / terraform wall`,
    value: fmt(ratio, 2),
    target: `<= ${TARGET}`,
    pass: ratio <= TARGET,
    comparison: `${spread}${note}ours ${s(ours.wallMs)}, terraform ${s(tf.wallMs)}; ${terraformBreakdown(tf, tfRequests, n)}; ${engineBreakdown(ours, n)}`,
  };
}

/**
 * Checks that each side's jobs (by ID prefix) got one successful deployment, and says how long the
 * agent took for them.
 */
async function deploymentSummary(
  schedulerUrl: string,
  n: number,
  prefixes: readonly [string, string],
): Promise<string> {
  const res = await fetch(`${schedulerUrl}/v1/deployments`);
  const all = (await res.json()) as Array<{
    JobID: string;
    Status: string;
    CreateTime: number;
    ModifyTime: number;
  }>;
  const parts: string[] = [];
  for (const prefix of prefixes.map((p) => `${p}-`)) {
    const done = all.filter((d) => d.JobID.startsWith(prefix) && d.Status === 'successful');
    if (done.length !== n)
      throw new Error(`expected ${n} successful deployments of ${prefix}* jobs, found ${done.length}`);
    const mean = done.reduce((sum, d) => sum + (d.ModifyTime - d.CreateTime) / 1e6, 0) / n;
    parts.push(`${prefix.slice(0, -1)} ${fmt(mean, 0)} ms`);
  }
  return `${parts.join(', ')}`;
}

export interface TerraformBenchOptions {
  quick?: boolean;
  /** Resources in the stack (default 200; quick 50). */
  jobs?: number;
  log?: (line: string) => void;
}

/** One side-by-side pair of stacks: terraform's workspace and our project, each with its own job IDs. */
interface Stacks {
  ws: TerraformWorkspace;
  ours: BenchProject;
  /** The job ID prefixes: terraform's, ours. */
  prefixes: readonly [string, string];
}

interface BenchContext {
  bin: string;
  root: string;
  entries: PluginEntries;
  agent: DevAgent;
  n: number;
}

/**
 * A fresh pair of stacks (the first with the prefixes `tf` and `ours`, the next `tf2`/`ours2`, ...),
 * terraform initialized for it (not timed). An apply creates only on a stack nothing was applied to,
 * so each apply run gets one of these rather than a purge of the last run's jobs.
 */
async function freshStacks(ctx: BenchContext, run: number): Promise<Stacks> {
  const suffix = run === 0 ? '' : `${run + 1}`;
  const prefixes = [`tf${suffix}`, `ours${suffix}`] as const;
  const tfProject = writeProject(
    mkdtempSync(join(ctx.root, `${prefixes[0]}-`)),
    benchJobs(ctx.n, 'service', prefixes[0]),
  );
  const ours = writeProject(
    mkdtempSync(join(ctx.root, `${prefixes[1]}-`)),
    benchJobs(ctx.n, 'service', prefixes[1]),
  );
  const ws = terraformWorkspace({
    bin: ctx.bin,
    root: join(ctx.root, `terraform${suffix}`),
    dir: join(tfProject.dir, 'cdktf.out', 'stacks', STACK),
    entries: ctx.entries,
    env: { SCHED_ADDR: ctx.agent.schedulerUrl, REG_HTTP_ADDR: ctx.agent.registryUrl ?? '' },
  });
  await ws.run(['init', '-input=false', '-no-color']);
  return { ws, ours, prefixes };
}

/** Terraform then ours, on one pair of stacks, with the agent's requests of each. */
async function pair(ctx: BenchContext, stacks: Stacks, tfArgs: string[], ourArgs: string[]): Promise<Pair> {
  const before = ctx.agent.requests.length;
  const tf = await stacks.ws.run(tfArgs);
  const tfRequests = ctx.agent.requests.slice(before);
  const ours = await runEngine(ctx.agent, stacks.ours, ourArgs);
  return { tf, tfRequests, ours };
}

/** RUNS pairs, one per stack given (the same stack again for plans, a fresh one for each apply). */
async function alternate(
  ctx: BenchContext,
  stacks: Stacks[],
  tfArgs: string[],
  ourArgs: string[],
): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (const st of stacks) pairs.push(await pair(ctx, st, tfArgs, ourArgs));
  return pairs;
}

/** Every apply created all n resources on both sides; the agent's mean deployment time of each run. */
async function checkApplies(ctx: BenchContext, stacks: Stacks[], applies: Pair[]): Promise<string> {
  const means: string[] = [];
  for (const [i, a] of applies.entries()) {
    if (!a.tf.stdout.includes(`Apply complete! Resources: ${ctx.n} added`)) {
      throw new Error(`terraform apply did not add ${ctx.n} resources:\n${a.tf.stdout.slice(-2000)}`);
    }
    means.push(await deploymentSummary(ctx.agent.schedulerUrl, ctx.n, stacks[i]!.prefixes));
  }
  return `${ctx.n} successful deployments each per run, each on fresh job IDs; the agent's mean deployment time ${means.join('; ')}; `;
}

export async function benchTerraform(opts: TerraformBenchOptions = {}): Promise<Figure[]> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const bin = findTerraform();
  if (!bin) return skipped('no terraform on PATH');
  const n = opts.jobs ?? (opts.quick ? 50 : 200);
  const root = mkdtempSync(join(tmpdir(), 'cdktf-sched-bench-tf-'));
  const entries = await pluginEntries(join(root, 'plugins'));
  if (typeof entries === 'string') {
    rmSync(root, { recursive: true, force: true });
    return skipped(entries);
  }
  // Deployments wait min_healthy_time (5 s) scaled by 0.002, tens of milliseconds each in all (the apply
  // figure reports the agent's own mean), so both sides measure their own overhead rather than the
  // agent's clock; ten nodes hold every allocation.
  const agent = await startDevAgent({
    recordRequests: true,
    port: 0,
    registryPort: 0,
    timeScale: 0.002,
    nodes: 10,
    nodeCpu: 64_000,
    nodeMemory: 65_536,
  });
  try {
    const ctx: BenchContext = { bin, root, entries, agent, n };
    await primeCodeCache(agent, root);
    log(`terraform bench: terraform init of ${RUNS} stacks (not timed)`);
    const stacks: Stacks[] = [];
    for (let i = 0; i < RUNS; i++) stacks.push(await freshStacks(ctx, i));
    const first = Array.from({ length: RUNS }, () => stacks[0]!);
    const flags = ['-input=false', '-no-color', `-parallelism=${PARALLELISM}`];
    const par = ['--parallelism', `${PARALLELISM}`];

    log(`terraform bench: plan of ${n} new resources (${RUNS} times)`);
    const plans = await alternate(ctx, first, ['plan', ...flags], ['plan', ...par]);

    log(`terraform bench: apply of ${n} new resources (${RUNS} times, each on fresh job IDs)`);
    const applies = await alternate(
      ctx,
      stacks,
      ['apply', '-auto-approve', ...flags],
      ['deploy', '--auto-approve', ...par],
    );
    const deployments = await checkApplies(ctx, stacks, applies);

    log(`terraform bench: plan of ${n} unchanged resources (${RUNS} times)`);
    // -detailed-exitcode: exit code 0 (checked) means neither found a change.
    const noops = await alternate(
      ctx,
      first,
      ['plan', '-detailed-exitcode', ...flags],
      ['plan', '--detailed-exitcode', ...par],
    );

    const noop = median(noops).pair;
    return [
      ratioFigure(`plan of ${n} new resources`, plans, n),
      ratioFigure(`apply of ${n} new resources`, applies, n, deployments),
      ratioFigure(`plan of ${n} unchanged resources`, noops, n),
      {
        name: `agent requests, plan of ${n} unchanged resources`,
        value: `${noop.ours.requests.length} ours, ${noop.tfRequests.length} terraform`,
        comparison: `ours: ${routeSummary(noop.ours.requests)}; terraform: ${routeSummary(noop.tfRequests)}`,
      },
    ];
  } finally {
    await agent.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const arg = process.argv.find((a) => a.startsWith('--jobs='));
  runAlone(
    'engine vs terraform',
    () =>
      benchTerraform({
        quick: process.argv.includes('--quick'),
        jobs: arg ? Number(arg.slice(7)) : undefined,
      }),
    ['--quick', '--jobs=N'],
  );
}
