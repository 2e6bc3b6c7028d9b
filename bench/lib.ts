/** Helpers shared by the benchmarks: a dev agent in its own process, percentiles, CPU of a pid. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useLateTierUp } from '../src/common/code-cache';

// The dev agents the benchmarks start in their own process run as `cdktf-sched dev` does.
useLateTierUp();

export interface AgentProcess {
  child: ChildProcess;
  schedulerUrl: string;
  registryUrl: string;
  stop(): Promise<void>;
}

/**
 * Node arguments that run a module given without its extension: the compiled `.js` beside this file
 * (`npm run bench` runs from dist/), or the `.ts` source through tsx when the benchmark itself runs
 * from source (`node --import tsx bench/<name>.ts`, handy while working on one).
 */
export function nodeEntry(pathWithoutExt: string): string[] {
  // The single-file bundle is what the package's bins run; the compiled module tree, or the sources
  // through tsx, where it has not been built.
  const js = [`${pathWithoutExt}.bundle.js`, `${pathWithoutExt}.js`].find((f) => existsSync(f));
  return js ? [js] : ['--import', 'tsx', `${pathWithoutExt}.ts`];
}

/** Starts `cdktf-sched dev` as a separate process so its CPU can be measured on its own. */
export function spawnAgent(args: string[] = []): Promise<AgentProcess> {
  const main = nodeEntry(join(__dirname, '..', 'src', 'cli', 'main'));
  const child = spawn(process.execPath, [...main, 'dev', '--port', '0', '--registry-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The agent's stderr is kept for a failure's message: on a normal stop it only says it got SIGTERM,
  // which would land in the middle of the figures.
  let err = '';
  child.stderr!.on('data', (d: Buffer) => void (err = (err + d.toString()).slice(-4096)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`agent did not start: ${out}${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const sched = /scheduler: (\S+)/.exec(out);
      const reg = /registry: (\S+)/.exec(out);
      if (sched && reg) {
        clearTimeout(timer);
        resolve({
          child,
          schedulerUrl: sched[1]!,
          registryUrl: reg[1]!,
          stop: () =>
            new Promise<void>((r) => {
              child.once('exit', () => r());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`agent exited with ${code}: ${out}${err}`)));
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** CPU seconds (user + system) a process has used, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

/** CPU (ms) of this process's children that have been waited for (and theirs, as they waited for them). */
export function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) / 100) * 1000;
}

export function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

export interface Figure {
  name: string;
  value: string;
  target?: string;
  pass?: boolean;
  comparison?: string;
}

export function printFigures(title: string, figures: Figure[]): void {
  process.stdout.write(`\n${title}\n`);
  for (const f of figures) {
    const verdict = f.pass === undefined ? '' : f.pass ? '  PASS' : '  MISS';
    const target = f.target ? `  (target ${f.target})` : '';
    const cmp = f.comparison ? `  [${f.comparison}]` : '';
    process.stdout.write(`  ${f.name.padEnd(52)} ${f.value}${target}${cmp}${verdict}\n`);
  }
}

/**
 * For `node dist/bench/<name>.js`: one benchmark alone, its figures printed, exit 1 if it cannot run.
 * `flags` are the options it takes (`--quick`, `--jobs=N`, ...): `--help` lists them, and any other
 * option is refused before anything runs (a benchmark started by mistake holds a shared machine for
 * minutes).
 */
export function runAlone(title: string, run: () => Promise<Figure[]>, flags: string[] = ['--quick']): void {
  const usage = `usage: node ${process.argv[1] ?? 'bench'} ${flags.map((f) => `[${f}]`).join(' ')}`;
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const names = flags.map((f) => f.split(/[= ]/)[0]!);
  const unknown = args.filter((a) => a.startsWith('-') && !names.includes(a.split('=')[0]!));
  if (unknown.length > 0) {
    process.stderr.write(`${title}: unknown option ${unknown.join(', ')}\n${usage}\n`);
    process.exit(2);
  }
  run()
    .then((f) => printFigures(title, f))
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
}
