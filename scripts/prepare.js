#!/usr/bin/env node
// npm runs `prepare` after `npm ci`, and again when `npx cdktf-sched ...` is run in this repository: npm's
// npx, asked for a bin that the project's own package.json declares, installs the project into npx's
// cache (a link to this directory) before it looks at node_modules/.bin, running `prepare` there on the
// first such run. That run only needs the CLI that is built already: it neither builds nor links bins
// (npx links them in its cache). The `prepare` script in package.json ends that run in the shell
// before this script's Node starts (a tenth of a second or more of a first `npx cdktf-sched`); the
// check below does it where the shell has no `test` (cmd.exe). Otherwise the build is skipped when
// dist/ was built from exactly the files it is built from now; `npm run build` always builds.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const stampFile = path.join(root, 'dist', '.build-inputs');
const INPUT_DIRS = ['src', 'constructs', 'bench', 'scripts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : filesUnder(full);
    return e.isFile() ? [full] : [];
  });
}

/** A digest of every build input's path and content. */
function inputsDigest() {
  const files = [
    ...INPUT_DIRS.flatMap((d) => filesUnder(path.join(root, d))),
    ...INPUT_FILES.map((f) => path.join(root, f)).filter((f) => fs.existsSync(f)),
  ].sort();
  const hash = crypto.createHash('sha256');
  hash.update(process.version);
  for (const f of files) hash.update(path.relative(root, f)).update('\0').update(fs.readFileSync(f));
  return hash.digest('hex');
}

function binsBuilt() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.values(pkg.bin ?? {}).every((rel) => fs.existsSync(path.join(root, rel)));
}

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function main() {
  // npm_command is the npm command whose lifecycle runs this script: `exec` for npx.
  if (process.env.npm_command === 'exec' && binsBuilt()) return;
  const upToDate =
    binsBuilt() && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === inputsDigest();
  if (upToDate) {
    process.stderr.write('prepare: dist/ is already built from these sources; build skipped\n');
  } else {
    const npmCli = process.env.npm_execpath;
    if (npmCli) run(process.execPath, [npmCli, 'run', 'build']);
    else run('npm', ['run', 'build']);
    // Taken after the build: the build writes generated bindings under constructs/.
    fs.writeFileSync(stampFile, inputsDigest());
  }
  run(process.execPath, [path.join(__dirname, 'link-bin.js')]);
}

main();
