/**
 * The plugin as Terraform runs it, without `npm run build`: src/ compiled with swc (seconds, no type
 * check) into node_modules/.cache, keyed by the sources' sizes and times so test files and runs share
 * one copy, with the .proto files beside the code as the build puts them. Node resolves packages from
 * there through the repository's node_modules.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { transformFileSync } from '@swc/core';

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
  const files = walk(src).sort();
  const hash = createHash('sha256');
  for (const f of files) {
    const st = fs.statSync(f);
    hash.update(`${f}\0${st.size}\0${st.mtimeMs}\n`);
  }
  const dir = path.join(
    ROOT,
    'node_modules',
    '.cache',
    'cdktf-sched-plugin',
    hash.digest('hex').slice(0, 16),
  );
  const entries = {
    sched: path.join(dir, 'src', 'plugin', 'main-sched.js'),
    reg: path.join(dir, 'src', 'plugin', 'main-reg.js'),
  };
  if (fs.existsSync(path.join(dir, '.complete'))) return { dir, entries };
  const staging = `${dir}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  for (const f of files) {
    const rel = path.relative(ROOT, f);
    const out = path.join(staging, rel);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    if (f.endsWith('.ts') && !f.endsWith('.d.ts')) {
      const { code } = transformFileSync(f, {
        jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
        swcrc: false,
      });
      fs.writeFileSync(out.replace(/\.ts$/, '.js'), code);
    } else if (!f.endsWith('.d.ts')) {
      fs.copyFileSync(f, out);
    }
  }
  fs.writeFileSync(path.join(staging, '.complete'), '');
  removeStale(path.dirname(dir));
  try {
    fs.renameSync(staging, dir);
  } catch {
    // Another worker finished first: use its copy.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return { dir, entries };
}
