/**
 * A user's own infrastructure repository, as the README's "Use it in your own project" describes it: a
 * new directory outside this repository, the packed tarball installed from npm's cache with cdktf,
 * cdktn, constructs and TypeScript at the versions this repository uses, and three apps compiled by the
 * project's own tsc. The apps are the README's main.ts (so the README is what is tested), the same for a
 * cdktn App, and one more copy for the cdktf CLI, each with its own job and namespace.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface Cmd {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without blocking the event loop (the dev agent serves from this process), with no
 * stdin, as in CI: the cdktf CLI would otherwise wait on an open pipe for answers.
 */
export function sh(
  file: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Cmd> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function ok(file: string, args: string[], cwd: string): Promise<string> {
  const r = await sh(file, args, { cwd });
  if (r.code !== 0)
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function versionOf(pkg: string): string {
  const file = path.join(REPO_ROOT, 'node_modules', pkg, 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The first ```lang block after `heading` in the README. */
export function readmeBlock(heading: string, lang: string): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf(heading);
  if (from < 0) throw new Error(`README.md has no "${heading}"`);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(readme.slice(from));
  if (!m) throw new Error(`README.md has no ${lang} block after "${heading}"`);
  return m[1]!;
}

export const APPS = ['cdktf-app', 'cdktn-app', 'cli-app'] as const;
export type AppName = (typeof APPS)[number];

/** Job ID and namespace of each app, so the three never touch each other's objects on one agent. */
export const NAMES: Record<AppName, { job: string; namespace: string }> = {
  'cdktf-app': { job: 'my-web', namespace: 'apps' },
  'cdktn-app': { job: 'my-web-cdktn', namespace: 'apps-cdktn' },
  'cli-app': { job: 'my-web-cli', namespace: 'apps-cli' },
};

function appSource(app: AppName): string {
  let text = readmeBlock('## Use it in your own project', 'ts')
    .replace("ID: 'my-web'", `ID: '${NAMES[app].job}'`)
    .replace("name: 'apps'", `name: '${NAMES[app].namespace}'`);
  if (app === 'cdktn-app')
    text = text
      .replace("from 'cdktf';", "from 'cdktn';")
      .replace("from 'cdktf-sched';", "from 'cdktf-sched/cdktn';");
  return text;
}

/** Every other entry point, with types: fails to compile (or prints false) when one is missing. */
const ENTRY_POINTS = `import { AuthMethod, Peering, PeeringToken, RegProvider, sched } from 'cdktf-sched';
import { SchedClient, RegClient, NotFoundError } from 'cdktf-sched/api';
import { startDevAgent } from 'cdktf-sched/agent';
import { job } from 'cdktf-sched/sched';
import { namespace } from 'cdktf-sched/reg';
import * as forCdktn from 'cdktf-sched/cdktn';
import { job as cdktnJob } from 'cdktf-sched/cdktn/sched';
const found: Record<string, boolean> = {
  AuthMethod: typeof AuthMethod === 'function',
  Peering: typeof Peering === 'function',
  PeeringToken: typeof PeeringToken === 'function',
  RegProvider: typeof RegProvider === 'function',
  'sched.job.Job': typeof sched.job.Job === 'function',
  SchedClient: typeof SchedClient === 'function',
  RegClient: typeof RegClient === 'function',
  NotFoundError: typeof NotFoundError === 'function',
  startDevAgent: typeof startDevAgent === 'function',
  'sched/job.Job': job.Job === sched.job.Job,
  'reg/namespace.Namespace': typeof namespace.Namespace === 'function',
  'cdktn.Job': typeof forCdktn.Job === 'function' && forCdktn.Job !== (sched.job.Job as unknown),
  'cdktn/sched/job.Job': typeof cdktnJob.Job === 'function' && (cdktnJob.Job as unknown) !== job.Job,
};
console.log(JSON.stringify(found));
`;

export interface UserProject {
  dir: string;
  appDir(app: AppName): string;
  bin(name: string): string;
  installMs: number;
  compileMs: number;
  remove(): void;
}

function writeFiles(dir: string, tarball: string): void {
  const pkg = {
    name: 'my-infra',
    private: true,
    dependencies: {
      'cdktf-sched': `file:./${tarball}`,
      cdktf: versionOf('cdktf'),
      cdktn: versionOf('cdktn'),
      constructs: versionOf('constructs'),
      typescript: versionOf('typescript'),
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  // As `cdktf init --template typescript` writes it, in short: CommonJS, so the subpaths resolve
  // through typesVersions (node10 resolution) as well as through exports.
  const tsconfig = {
    compilerOptions: {
      target: 'ES2020',
      module: 'CommonJS',
      lib: ['ES2020'],
      strict: true,
      skipLibCheck: true,
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  fs.writeFileSync(path.join(dir, 'entry-points.ts'), ENTRY_POINTS);
  for (const app of APPS) {
    fs.mkdirSync(path.join(dir, app));
    fs.writeFileSync(path.join(dir, app, 'main.ts'), appSource(app));
    fs.writeFileSync(path.join(dir, app, 'cdktf.json'), readmeBlock('## Use it in your own project', 'json'));
  }
}

/** npm pack (dist must be built: `npm ci` builds it), npm install from the cache, tsc. */
export async function createUserProject(): Promise<UserProject> {
  for (const f of ['dist/src/index.js', 'dist/cdktn/index.js', 'dist/src/cli/main.bundle.js']) {
    if (!fs.existsSync(path.join(REPO_ROOT, f)))
      throw new Error(`${f} is missing: run \`npm run build\` first`);
  }
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-sched-user-')));
  if (!path.relative(REPO_ROOT, dir).startsWith('..')) throw new Error(`${dir} is inside the repository`);
  const npm = 'npm';
  // The build already ran; prepare would run it again.
  const packed = await ok(
    npm,
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir],
    REPO_ROOT,
  );
  const tarball = packed.trim().split('\n').pop()!;
  writeFiles(dir, tarball);
  const t0 = Date.now();
  await ok(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  const installMs = Date.now() - t0;
  const t1 = Date.now();
  await ok(path.join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], dir);
  const compileMs = Date.now() - t1;
  return {
    dir,
    appDir: (app) => path.join(dir, app),
    bin: (name) => path.join(dir, 'node_modules', '.bin', name),
    installMs,
    compileMs,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
