/**
 * Running the real `terraform` for the Terraform comparison: an offline workspace that installs our
 * plugins from a filesystem mirror, and each command's wall time, the CPU of terraform and its plugins,
 * and a record of every plugin process it started (when it became ready, how long it lived, its CPU),
 * written by a tiny preload the mirror's launchers pass to Node.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeMirror, type PluginName } from '../src/plugin/mirror';
import { childrenCpuMs } from './lib';
import { offlineTerraformEnv } from '../src/plugin/terraform-env';

export { findTerraform } from '../src/plugin/terraform-env';

export type PluginEntries = Record<PluginName, string>;

/**
 * The plugin bundles Terraform will run. From dist (`npm run bench`) the ones `npm run build` left
 * beside the compiled plugin; from the sources (tsx) a fresh esbuild bundle of src/plugin, so a change
 * there is measured without a rebuild. A string says why there are none.
 */
export async function pluginEntries(outDir: string): Promise<PluginEntries | string> {
  if (__filename.endsWith('.ts')) {
    const { buildSync } = await import('esbuild');
    const src = join(__dirname, '..', 'src', 'plugin');
    buildSync({
      entryPoints: [join(src, 'main-sched.ts'), join(src, 'main-reg.ts')],
      entryNames: '[name].bundle',
      bundle: true,
      platform: 'node',
      target: 'node20',
      outdir: outDir,
      logLevel: 'warning',
    });
    // The bundle finds its .proto files beside itself, as in dist.
    const { cpSync } = await import('node:fs');
    cpSync(join(src, 'proto'), join(outDir, 'proto'), { recursive: true });
    return { sched: join(outDir, 'main-sched.bundle.js'), reg: join(outDir, 'main-reg.bundle.js') };
  }
  const dir = join(__dirname, '..', 'src', 'plugin');
  const entries = { sched: join(dir, 'main-sched.bundle.js'), reg: join(dir, 'main-reg.bundle.js') };
  const missing = Object.values(entries).filter((e) => !existsSync(e));
  if (missing.length > 0) return `plugin bundles missing (${missing.join(', ')}); run npm run build first`;
  return entries;
}

/** One plugin process as its preload saw it (epoch ms). */
export interface PluginProcess {
  pid: number;
  /** Node's time origin (the process start, give or take the exec). */
  startedAt: number;
  /** When it wrote its handshake line (undefined if it never did). */
  readyAt?: number;
  exitedAt?: number;
  cpuMs?: number;
}

// CommonJS so that it loads without a loader; the log path comes from the environment so one mirror
// serves every run.
const PRELOAD = `'use strict';
const fs = require('node:fs');
const file = process.env.BENCH_TF_PLUGIN_LOG;
if (file) {
  const rec = (o) => fs.appendFileSync(file, JSON.stringify({ pid: process.pid, ...o }) + '\\n');
  rec({ startedAt: performance.timeOrigin });
  const write = process.stdout.write;
  process.stdout.write = function (...args) {
    process.stdout.write = write;
    rec({ readyAt: performance.timeOrigin + performance.now() });
    return write.apply(this, args);
  };
  process.on('exit', () => {
    const u = process.cpuUsage();
    rec({ exitedAt: performance.timeOrigin + performance.now(), cpuMs: (u.user + u.system) / 1000 });
  });
}
`;

export interface TerraformRun {
  args: string[];
  wallMs: number;
  /** CPU (ms) of terraform and every plugin it started, summed. */
  cpuMs: number;
  plugins: PluginProcess[];
  stdout: string;
  /** performance.now() when terraform was spawned. */
  startedAt: number;
}

export interface TerraformWorkspace {
  /** Where terraform runs (the stack directory holding cdk.tf.json). */
  dir: string;
  env: Record<string, string>;
  run(args: string[], codes?: number[]): Promise<TerraformRun>;
}

function readPluginLog(file: string): PluginProcess[] {
  if (!existsSync(file)) return [];
  const byPid = new Map<number, PluginProcess>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as Partial<PluginProcess> & { pid: number };
    byPid.set(rec.pid, { ...(byPid.get(rec.pid) ?? { startedAt: NaN }), ...rec });
  }
  return [...byPid.values()].sort((a, b) => a.startedAt - b.startedAt);
}

export interface WorkspaceOptions {
  bin: string;
  /** Scratch directory for the mirror, CLI configuration, data dir and logs. */
  root: string;
  /** Where terraform runs. */
  dir: string;
  entries: PluginEntries;
  /** Added to the environment (the agent's addresses). */
  env: Record<string, string>;
}

export function terraformWorkspace(opts: WorkspaceOptions): TerraformWorkspace {
  mkdirSync(opts.root, { recursive: true });
  const preload = join(opts.root, 'plugin-preload.cjs');
  writeFileSync(preload, PRELOAD);
  const mirror = writeMirror({
    dir: join(opts.root, 'mirror'),
    entries: opts.entries,
    nodeArgs: ['--require', preload],
  });
  const cliConfig = join(opts.root, 'cli.tfrc');
  writeFileSync(cliConfig, mirror.cliConfig);
  const env = offlineTerraformEnv({
    cliConfigFile: cliConfig,
    dataDir: join(opts.root, 'tf-data'),
    ...(opts.env ? { extra: opts.env } : {}),
  });
  let runs = 0;
  const run = (args: string[], codes = [0]): Promise<TerraformRun> => {
    const log = join(opts.root, `plugins-${++runs}.jsonl`);
    const cpu0 = childrenCpuMs();
    const startedAt = performance.now();
    return new Promise((resolve, reject) => {
      const child = spawn(opts.bin, args, {
        cwd: opts.dir,
        env: { ...env, BENCH_TF_PLUGIN_LOG: log },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('error', reject);
      child.once('close', (code) => {
        const wallMs = performance.now() - startedAt;
        if (!codes.includes(code ?? -1)) {
          const tail = (s: string): string => (s.length > 4000 ? `...${s.slice(-4000)}` : s);
          reject(
            new Error(`terraform ${args.join(' ')} exited with ${code}\n${tail(stdout)}\n${tail(stderr)}`),
          );
          return;
        }
        resolve({
          args,
          wallMs,
          cpuMs: childrenCpuMs() - cpu0,
          plugins: readPluginLog(log),
          stdout,
          startedAt,
        });
      });
    });
  };
  return { dir: opts.dir, env, run };
}
