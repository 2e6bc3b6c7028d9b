#!/usr/bin/env node
// Builds the typed constructs a second time, for cdktn (`cdktf-sched/cdktn`), from the one source in
// constructs/: a cdktn App resolves only tokens and classes of its own library, so the layer must import
// `cdktn` and extend the bindings made by cdktn's generator (constructs/generated-cdktn). Run after the
// main build. Each file is copied into dist/cdktn with those two imports changed and compiled there, in
// place: beside dist/src and dist/constructs, its other imports (../src/...) find the declarations the
// main build emitted, so this checks the layer against cdktn's types without compiling src again.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'constructs');
const out = path.join(root, 'dist', 'cdktn');

/** The two imports that differ between the libraries; everything else is the same text. */
function forCdktn(text, file) {
  const rewritten = text
    .replace(/from 'cdktf'/g, "from 'cdktn'")
    .replace(/from '\.\/generated\//g, "from '../constructs/generated-cdktn/");
  if (/['"]cdktf['"]|\.\/generated\//.test(rewritten)) {
    throw new Error(
      `build-cdktn: ${file} imports cdktf or the cdktf bindings in a form this build does not rewrite`,
    );
  }
  return rewritten;
}

function main() {
  if (!fs.existsSync(path.join(root, 'dist', 'constructs', 'generated-cdktn'))) {
    throw new Error(
      'build-cdktn: dist/constructs/generated-cdktn is missing; run the main build (tsc) first',
    );
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const staged = [];
  for (const name of fs
    .readdirSync(source)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const target = path.join(out, name);
    fs.writeFileSync(target, forCdktn(fs.readFileSync(path.join(source, name), 'utf8'), name));
    staged.push(target);
  }
  const base = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8')).compilerOptions;
  const config = path.join(out, 'tsconfig.json');
  const compilerOptions = { ...base, rootDir: '.', types: ['node'], sourceMap: false };
  delete compilerOptions.outDir;
  fs.writeFileSync(config, JSON.stringify({ compilerOptions, files: staged.map((f) => path.basename(f)) }));
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', config], {
      stdio: 'inherit',
    });
  } finally {
    // Left beside the .d.ts files, the sources would be what a user's compiler reads.
    for (const f of [...staged, config]) fs.rmSync(f, { force: true });
  }
}

main();
