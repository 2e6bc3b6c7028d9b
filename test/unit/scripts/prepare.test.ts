/**
 * scripts/prepare.js, run as npm runs it, in a throwaway project holding a copy of the script: an
 * install builds and links the bins; npx's own install of the project (npm_command=exec) runs the CLI
 * already built, neither building nor linking, and builds only when there is nothing built to run.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPTS = path.resolve(__dirname, '..', '..', '..', 'scripts');

/** A project whose build writes its bin and counts how often it ran. */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdktf-sched-prepare-'));
  mkdirSync(path.join(dir, 'scripts'));
  for (const f of ['prepare.js', 'link-bin.js'])
    copyFileSync(path.join(SCRIPTS, f), path.join(dir, 'scripts', f));
  const build =
    "const fs=require('fs');fs.mkdirSync('dist',{recursive:true});fs.writeFileSync('dist/cli.js','');" +
    "fs.appendFileSync('builds','x')";
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'p',
      version: '1.0.0',
      bin: { p: 'dist/cli.js' },
      scripts: { build: `node -e "${build}"` },
    }),
  );
  return dir;
}

function prepare(dir: string, npmCommand: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_command: npmCommand };
  delete env['npm_execpath'];
  const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'prepare.js')], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`prepare.js exited with ${r.status}:\n${r.stderr}`);
}

const builds = (dir: string): number =>
  existsSync(path.join(dir, 'builds')) ? readFileSync(path.join(dir, 'builds'), 'utf8').length : 0;
const linked = (dir: string): boolean => existsSync(path.join(dir, 'node_modules', '.bin', 'p'));

describe('scripts/prepare.js', () => {
  let dir: string;
  beforeEach(() => {
    dir = project();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('an install builds and links the bins, and skips a build whose inputs did not change', () => {
    prepare(dir, 'ci');
    expect([builds(dir), linked(dir)]).toEqual([1, true]);
    prepare(dir, 'install');
    expect(builds(dir)).toBe(1);
  });

  test("npx's install of the project runs the built CLI as it is: no build, no link", () => {
    prepare(dir, 'ci');
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    writeFileSync(path.join(dir, 'scripts', 'changed.js'), '');
    prepare(dir, 'exec');
    expect([builds(dir), linked(dir)]).toEqual([1, false]);
  });

  test('npx builds when nothing is built yet', () => {
    prepare(dir, 'exec');
    expect([builds(dir), linked(dir)]).toEqual([1, true]);
  });
});

/**
 * The `prepare` script itself, as npm's shell runs it: npx's run (npm_command=exec) ends in the shell
 * when the CLI is built, so no Node process starts for it; anything else goes on to prepare.js.
 */
describe("package.json's prepare script", () => {
  const script = (
    JSON.parse(readFileSync(path.join(SCRIPTS, '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts['prepare']!;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cdktf-sched-prepare-script-'));
    mkdirSync(path.join(dir, 'scripts'));
    // Stands in for prepare.js: records that it ran.
    writeFileSync(path.join(dir, 'scripts', 'prepare.js'), "require('fs').appendFileSync('ran', 'x')");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (npmCommand: string): boolean => {
    const r = spawnSync('sh', ['-c', script], {
      cwd: dir,
      env: { ...process.env, npm_command: npmCommand },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`prepare exited with ${r.status}:\n${r.stderr}`);
    return existsSync(path.join(dir, 'ran'));
  };
  const buildCli = (): void => {
    mkdirSync(path.join(dir, 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(path.join(dir, 'dist', 'src', 'cli', 'main.bundle.js'), '');
  };

  test('npx with the CLI built: prepare.js does not run', () => {
    buildCli();
    expect(run('exec')).toBe(false);
  });

  test('npx with nothing built, and npm ci: prepare.js runs', () => {
    expect(run('exec')).toBe(true);
    rmSync(path.join(dir, 'ran'));
    buildCli();
    expect(run('ci')).toBe(true);
  });
});
