/**
 * The plugins as Terraform runs them, without `npm run build`: each bundled from src/ into one file with
 * esbuild (as the build does), with the .proto files beside it, in node_modules/.cache under a key made
 * of the sources' sizes and times, so test files and runs share one copy.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

export const ROOT = path.resolve(__dirname, '../../../..');

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Copies of older sources, left for an hour in case a test run still uses one. */
function removeStale(parent: string): void {
  const cutoff = Date.now() - 3600_000;
  for (const e of fs.readdirSync(parent)) {
    const p = path.join(parent, e);
    try {
      if (fs.statSync(p).mtimeMs < cutoff) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}

export interface CompiledPlugin {
  dir: string;
  entries: { sched: string; reg: string };
}

export function compilePlugin(): CompiledPlugin {
  const src = path.join(ROOT, 'src');
  const hash = createHash('sha256');
  for (const f of walk(src).sort()) {
    const st = fs.statSync(f);
    hash.update(`${f}\0${st.size}\0${st.mtimeMs}\n`);
  }
  const parent = path.join(ROOT, 'node_modules', '.cache', 'cdktf-sched-plugin');
  const dir = path.join(parent, hash.digest('hex').slice(0, 16));
  const entries = {
    sched: path.join(dir, 'main-sched.bundle.js'),
    reg: path.join(dir, 'main-reg.bundle.js'),
  };
  if (fs.existsSync(path.join(dir, '.complete'))) return { dir, entries };
  const staging = `${dir}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  buildSync({
    entryPoints: ['sched', 'reg'].map((n) => path.join(src, 'plugin', `main-${n}.ts`)),
    entryNames: '[name].bundle',
    bundle: true,
    platform: 'node',
    target: 'node20',
    outdir: staging,
    logLevel: 'warning',
  });
  fs.cpSync(path.join(src, 'plugin', 'proto'), path.join(staging, 'proto'), { recursive: true });
  fs.writeFileSync(path.join(staging, '.complete'), '');
  removeStale(parent);
  try {
    fs.renameSync(staging, dir);
  } catch {
    // Another worker finished first: use its copy.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return { dir, entries };
}
