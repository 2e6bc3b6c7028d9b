/**
 * The first deploy a new user runs (`node dist/bench/fresh.js`): the repository's HEAD cloned into a
 * temporary directory, `npm ci` there (its time noted, not judged), then the README's `npx cdktf-sched
 * deploy --app examples/hello --auto-approve` with no SCHED_ADDR, so the command synthesizes the example
 * (`node --require tsx/cjs main.ts`) while the embedded dev agent starts, and deploys to it. Its wall time
 * is judged against 6 s, and split into phases by the lines that open them: the CLI's start (npx, Node,
 * the bundle) up to "Synthesizing", the synth up to the moment `cdktf.out/manifest.json` was written, what
 * is left of the dev agent's start after it (it starts beside the synth) up to its announcement, the plan,
 * the apply (whose rollout waits the example's 2 s min_healthy_time) and the outputs and exit; and every
 * Node process it started (npx's npm, our CLI, the synth's npx and tsx, the app), when and with how much
 * CPU.
 *
 * Full mode only: `npm ci` takes minutes. Only committed work is in the clone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processLog, processSummary } from './fresh-procs';
import { outputTail, runTimed, type TimedRun } from './fresh-run';
import { fmt, runAlone, type Figure } from './lib';

const TARGET_S = 6;
const DEPLOY_ARGS = ['cdktf-sched', 'deploy', '--app', 'examples/hello', '--auto-approve'];
const NPM_CI_LIMIT_MS = 20 * 60_000;
const DEPLOY_LIMIT_MS = 120_000;

const NAME = 'first deploy of examples/hello on a fresh clone: wall (s)';

function skipped(why: string): Figure[] {
  return [{ name: NAME, value: 'skipped', comparison: why }];
}

/**
 * The environment of a user's shell: none of the cluster addresses (so the embedded dev agent
 * starts) and none of the variables `npm run` adds for its scripts.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { CHECKPOINT_DISABLE: '1' };
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SCHED_|REG_|NOMAD_|CONSUL_|npm_|INIT_CWD$)/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

/** The checkout this benchmark belongs to: its top directory, HEAD, and whether work is uncommitted. */
function checkout(): { top: string; head: string; dirty: boolean } | undefined {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: __dirname, encoding: 'utf8' }).trim();
  try {
    const top = git('rev-parse', '--show-toplevel');
    return { top, head: git('rev-parse', '--short', 'HEAD'), dirty: git('status', '--porcelain') !== '' };
  } catch {
    return undefined;
  }
}

/** When the first line matching `re` arrived (performance.now()), if one did. */
function lineAt(run: TimedRun, re: RegExp): number | undefined {
  return run.lines.find((l) => re.test(l.text))?.at;
}

/**
 * Where the deploy's time went, by the lines that open each phase; the synth's end is the moment the
 * app wrote its manifest (a file time, on the same clock as performance.timeOrigin + now).
 */
function phases(run: TimedRun, manifest: string): string {
  const synthStart = lineAt(run, /^Synthesizing: /);
  const agentUp = lineAt(run, /started the embedded dev agent/);
  const applyStart = lineAt(run, /: Creating\.\.\.$/);
  const applyEnd = lineAt(run, /^Apply complete! /);
  let synthEnd: number | undefined;
  try {
    synthEnd = statSync(manifest).mtimeMs - performance.timeOrigin;
  } catch {
    synthEnd = undefined;
  }
  const span = (a: number | undefined, b: number | undefined): string =>
    a !== undefined && b !== undefined ? `${fmt((b - a) / 1000, 2)} s` : 'n/a';
  const end = run.startedAt + run.wallMs;
  return (
    `CLI start (npx, Node, the bundle) ${span(run.startedAt, synthStart)}; ` +
    `synth ${span(synthStart, synthEnd)}; synth end to agent announced ${span(synthEnd, agentUp)}; ` +
    `plan ${span(agentUp, applyStart)}; apply ${span(applyStart, applyEnd)} (the rollout waits the canary's 2 s min_healthy_time); ` +
    `outputs and exit ${span(applyEnd, end)}`
  );
}

function deployFigure(deploy: TimedRun, manifest: string, note: string): Figure {
  if (deploy.code === undefined) {
    return {
      name: NAME,
      value: `> ${fmt(deploy.wallMs / 1000, 0)}`,
      target: `< ${TARGET_S} s`,
      pass: false,
      comparison: `stopped at the time limit; ${phases(deploy, manifest)}; ${note}`,
    };
  }
  const text = deploy.lines.map((l) => l.text).join('\n');
  if (deploy.code !== 0 || !/Apply complete! Resources: 2 added/.test(text)) {
    throw new Error(`npx ${DEPLOY_ARGS.join(' ')} exited with ${deploy.code}:\n${outputTail(deploy)}`);
  }
  return {
    name: NAME,
    value: fmt(deploy.wallMs / 1000, 2),
    target: `< ${TARGET_S} s`,
    pass: deploy.wallMs < TARGET_S * 1000,
    comparison: `npx ${DEPLOY_ARGS.join(' ')}, no SCHED_ADDR; ${phases(deploy, manifest)}; CPU ${fmt(deploy.cpuMs / 1000, 2)} s in all its processes; ${note}`,
  };
}

/** The clone's removal fails now and then on a busy disk (ENOTEMPTY); that must not lose the figures. */
function removeClone(root: string, log: (line: string) => void): void {
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (e) {
    log(`fresh bench: could not remove ${root}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function benchFresh(
  opts: { quick?: boolean; log?: (line: string) => void } = {},
): Promise<Figure[]> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  if (opts.quick) return skipped('--quick skips it (it clones the repository and runs npm ci, minutes)');
  const repo = checkout();
  if (!repo) return skipped('not run from a git checkout, so there is nothing to clone');
  const root = mkdtempSync(join(tmpdir(), 'cdktf-sched-bench-fresh-'));
  const dir = join(root, 'cdktf-sched');
  const env = userEnv();
  try {
    log(`fresh bench: git clone of ${repo.head}, then npm ci (not timed)`);
    execFileSync('git', ['clone', '--quiet', repo.top, dir], { stdio: 'ignore' });
    const ci = await runTimed('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: dir,
      env,
      timeoutMs: NPM_CI_LIMIT_MS,
    });
    if (ci.code !== 0) throw new Error(`npm ci exited with ${ci.code}:\n${outputTail(ci)}`);
    log('fresh bench: npx cdktf-sched deploy --app examples/hello --auto-approve');
    const procs = processLog(root, env['NODE_OPTIONS']);
    const deploy = await runTimed('npx', DEPLOY_ARGS, {
      cwd: dir,
      env: { ...env, ...procs.env },
      timeoutMs: DEPLOY_LIMIT_MS,
    });
    const note =
      `Node processes, from the command's start: ${processSummary(procs.read(), performance.timeOrigin + deploy.startedAt)}; ` +
      `clone of ${repo.head}${repo.dirty ? ' (uncommitted changes are not in it)' : ''}`;
    const manifest = join(dir, 'examples', 'hello', 'cdktf.out', 'manifest.json');
    return [
      deployFigure(deploy, manifest, note),
      {
        name: 'npm ci on that fresh clone (s)',
        value: fmt(ci.wallMs / 1000, 1),
        comparison: `not part of the figure above; installs and builds the project (prepare); CPU ${fmt(ci.cpuMs / 1000, 1)} s`,
      },
    ];
  } finally {
    removeClone(root, log);
  }
}

if (require.main === module) {
  runAlone('first deploy on a fresh clone', () => benchFresh({ quick: process.argv.includes('--quick') }));
}
