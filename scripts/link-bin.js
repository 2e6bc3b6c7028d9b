#!/usr/bin/env node
// `npm ci` in this repository builds the CLI (prepare) but npm links the bins of dependencies only, not
// the project's own. Linking it into node_modules/.bin makes `npx cdktf-sched ...` work right after install.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const binDir = path.join(root, 'node_modules', '.bin');
fs.mkdirSync(binDir, { recursive: true });
for (const [name, rel] of Object.entries(pkg.bin ?? {})) {
  const target = path.join(root, rel);
  if (!fs.existsSync(target)) {
    process.stderr.write(`link-bin: ${rel} does not exist; run the build first\n`);
    process.exit(1);
  }
  fs.chmodSync(target, 0o755);
  const link = path.join(binDir, name);
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.relative(binDir, target), link);
}
