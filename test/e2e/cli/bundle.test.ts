/**
 * The built single-file bundles, as the package's bin and the benchmark run them: each runs its command
 * once (a bundle makes `require.main === module` true in every module it holds, so an entry check that
 * leaked into a bundle ran the command twice), and the bin deploys and re-plans a stack. Skipped with a
 * message when the project has not been built (`npm ci` builds it).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as protoLoader from '@grpc/proto-loader';
import { MAGIC_COOKIE_VALUE } from '../../../src/plugin/handshake';
import { PROTO_FILES, PROTO_OPTIONS } from '../../../src/plugin/server';
import { createProject, jobspec, REPO, stackJson, withPath, type Project } from './helpers';

const run = promisify(execFile);
const BIN = path.join(REPO, 'dist/src/cli/main.bundle.js');
const BENCH_CLI = path.join(REPO, 'dist/bench/engine-cli.bundle.js');
const PLUGIN = path.join(REPO, 'dist/src/plugin/main-sched.bundle.js');
const CODE = [
  'dist/src/cli/main',
  'dist/src/agent/agent',
  'dist/src/api/undici-index',
  'dist/src/plugin/main-sched',
  'dist/src/plugin/main-reg',
  'dist/bench/engine-cli',
];
const cacheFiles = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : [];
const built = existsSync(BIN) && existsSync(BENCH_CLI);
if (!built) console.warn('skipping bundle tests: run `npm run build` first (npm ci does)');
const maybe = built ? describe : describe.skip;

jest.setTimeout(60_000);

maybe('built bundles', () => {
  let project: Project;
  beforeAll(async () => {
    project = await createProject();
  });
  afterAll(() => project.close());

  test.each([
    ['the bin', BIN],
    ["the benchmark's engine command", BENCH_CLI],
  ])('%s runs a command once', async (_, file) => {
    const { stdout } = await run(process.execPath, [file, '--version']);
    expect(stdout).toBe('0.1.0\n');
  });

  test('the bin deploys a stack, waits for the deployment, and plans no changes after', async () => {
    project.writeStack(
      'app',
      stackJson({
        resource: {
          sched_job: { web: withPath('app', 'web', { jobspec: jobspec('bundled-web', { count: 2 }) }) },
        },
      }),
    );
    const opts = { cwd: project.dir, env: project.env };
    const deploy = await run(process.execPath, [BIN, 'deploy', '--no-synth', '--auto-approve'], opts);
    expect(deploy.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    const plan = await run(process.execPath, [BIN, 'plan', '--no-synth', '--detailed-exitcode'], opts);
    expect(plan.stdout).toContain('No changes.');
    const job = await project.agent.sched.jobs.read('bundled-web');
    expect(job.value.Status).toBe('running');
  });

  test("a deploy with no cluster address runs the agent from its own bundle, under the bin's flags", async () => {
    const cache = mkdtempSync(path.join(os.tmpdir(), 'code-cache-target-'));
    try {
      project.writeStack(
        'app',
        stackJson({
          resource: { sched_job: { solo: withPath('app', 'solo', { jobspec: jobspec('solo') }) } },
        }),
      );
      const env = { PATH: project.env['PATH']!, CI: '1', CDKTF_SCHED_CODE_CACHE: cache };
      const deploy = await run(process.execPath, [BIN, 'deploy', '--no-synth', '--auto-approve'], {
        cwd: project.dir,
        env,
      });
      expect(deploy.stderr).toContain('started the embedded dev agent');
      expect(deploy.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      expect(cacheFiles(cache).sort()).toEqual([
        expect.stringMatching(/^agent\.code-[0-9a-f]{16}-.*-liftoff\.v8$/),
        expect.stringMatching(/^main\.code-[0-9a-f]{16}-.*-liftoff-deploy\.v8$/),
      ]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  test('a plan loads neither the agent, the HTTP/2 client nor child_process', async () => {
    const probe = path.join(project.dir, 'probe.js');
    writeFileSync(
      probe,
      `process.on('exit', () => process.stderr.write('\\n' + JSON.stringify(process.moduleLoadList)));`,
    );
    project.writeStack(
      'app',
      stackJson({
        resource: { sched_job: { probe: withPath('app', 'probe', { jobspec: jobspec('bundled-probe') }) } },
      }),
    );
    // The code cache was written by a plan that synthesized first (child_process at once): the
    // built-ins it preloads are those of the bin's top level, not of that one run.
    const cache = mkdtempSync(path.join(os.tmpdir(), 'code-cache-plan-'));
    const synthDir = mkdtempSync(path.join(os.tmpdir(), 'synth-plan-'));
    try {
      writeFileSync(
        path.join(synthDir, 'cdktf.json'),
        JSON.stringify({ language: 'typescript', app: 'node -e 0' }),
      );
      const env = { ...project.env, CDKTF_SCHED_CODE_CACHE: cache };
      const synthesizing = await run(process.execPath, [BIN, 'plan'], { cwd: synthDir, env }).catch(
        (e: { stdout: string; stderr: string }) => e,
      );
      expect(synthesizing.stdout + synthesizing.stderr).toContain('Synthesizing: node -e 0');
      expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^main\.code-.*-plan\.v8$/)]);
      const plan = await run(process.execPath, ['--require', probe, BIN, 'plan', '--no-synth'], {
        cwd: project.dir,
        env,
      });
      expect(plan.stdout).toContain('Plan:');
      const loaded = JSON.parse(plan.stderr.trim().split('\n').pop()!) as string[];
      expect(loaded).toContain('NativeModule http');
      for (const m of ['http2', 'tls', 'child_process', 'dgram'])
        expect(loaded).not.toContain(`NativeModule ${m}`);
    } finally {
      rmSync(cache, { recursive: true, force: true });
      rmSync(synthDir, { recursive: true, force: true });
    }
  });
});

maybe('the bins run their bundle through a V8 code cache', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const version = (env: Record<string, string>) =>
    run(process.execPath, [BIN, '--version'], { env: { ...process.env, ...env } });

  test.each(CODE)(
    '%s.code.js is ASCII (Node decodes anything else into a two-byte string at every start)',
    (f) => {
      const bytes = readFileSync(path.join(REPO, `${f}.code.js`));
      expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
    },
  );

  test('the first run writes the cache, later runs use it as it is', async () => {
    const dir = path.join(tmp, 'cache');
    expect((await version({ CDKTF_SCHED_CODE_CACHE: dir })).stdout).toBe('0.1.0\n');
    const [file] = cacheFiles(dir);
    // A command other than `dev` compiles WebAssembly with Liftoff only, and V8 checks the flags.
    expect(file).toMatch(
      new RegExp(`^main\\.code-[0-9a-f]{16}-${process.version}-${process.arch}-liftoff-version\\.v8$`),
    );
    const written = statSync(path.join(dir, file!));
    expect(written.size).toBeGreaterThan(100_000);
    expect((await version({ CDKTF_SCHED_CODE_CACHE: dir })).stdout).toBe('0.1.0\n');
    expect(statSync(path.join(dir, file!)).mtimeMs).toBe(written.mtimeMs);
    expect(readdirSync(dir)).toEqual([file]);
  });

  test('a run with a cache requires the built-ins its first run asked for before any V8 flag changes', async () => {
    const dir = path.join(tmp, 'cache');
    // The built-ins loaded when the bin first changes a V8 flag (Node's own code cache no longer fits after).
    const probe = path.join(tmp, 'probe.js');
    writeFileSync(
      probe,
      [
        "const v8 = require('node:v8');",
        'const set = v8.setFlagsFromString;',
        'let seen;',
        'v8.setFlagsFromString = (f) => { seen ??= process.moduleLoadList.slice(); return set(f); };',
        "process.on('exit', () => process.stderr.write(JSON.stringify(seen)));",
      ].join('\n'),
    );
    const beforeFlags = async (): Promise<string[]> => {
      const { stdout, stderr } = await run(process.execPath, ['--require', probe, BIN, '--version'], {
        env: { ...process.env, CDKTF_SCHED_CODE_CACHE: dir },
      });
      expect(stdout).toBe('0.1.0\n');
      return JSON.parse(stderr) as string[];
    };
    expect(await beforeFlags()).not.toContain('NativeModule crypto');
    const [file] = cacheFiles(dir);
    const named = readFileSync(path.join(dir, file!)).toString('latin1').split('\n')[1]!.split(',');
    expect(named).toEqual(expect.arrayContaining(['node:crypto', 'node:http', 'node:tty']));
    expect(await beforeFlags()).toEqual(expect.arrayContaining(['NativeModule crypto', 'NativeModule http']));
  });

  test('each command keeps a cache of its own; an argument that is no command name shares one', async () => {
    const dir = path.join(tmp, 'cache');
    const env = { ...process.env, CDKTF_SCHED_CODE_CACHE: dir };
    await version({ CDKTF_SCHED_CODE_CACHE: dir });
    await run(process.execPath, [BIN, 'help'], { env });
    await expect(run(process.execPath, [BIN, '/no/such/Command'], { env })).rejects.toMatchObject({
      code: 1,
    });
    expect(cacheFiles(dir).map((f) => f.replace(/^main\.code-[0-9a-f]{16}-[^-]+-[^-]+-liftoff/, ''))).toEqual(
      expect.arrayContaining(['-version.v8', '-help.v8', '.v8']),
    );
    expect(cacheFiles(dir)).toHaveLength(3);
  });

  test('a cache V8 rejects is compiled past and replaced', async () => {
    const dir = path.join(tmp, 'cache');
    await version({ CDKTF_SCHED_CODE_CACHE: dir });
    const file = path.join(dir, cacheFiles(dir)[0]!);
    writeFileSync(file, 'not a code cache');
    expect((await version({ CDKTF_SCHED_CODE_CACHE: dir })).stdout).toBe('0.1.0\n');
    expect(statSync(file).size).toBeGreaterThan(100_000);
  });

  test('a cache directory that cannot be written only costs the compile', async () => {
    const blocker = path.join(tmp, 'a-file');
    writeFileSync(blocker, '');
    const result = await version({ CDKTF_SCHED_CODE_CACHE: path.join(blocker, 'cache') });
    expect(result).toEqual({ stdout: '0.1.0\n', stderr: '' });
  });

  test('off writes nothing; by default the cache is under XDG_CACHE_HOME', async () => {
    await version({ CDKTF_SCHED_CODE_CACHE: 'off', XDG_CACHE_HOME: tmp });
    expect(readdirSync(tmp)).toEqual([]);
    await version({ CDKTF_SCHED_CODE_CACHE: '', XDG_CACHE_HOME: tmp });
    expect(cacheFiles(path.join(tmp, 'cdktf-sched', 'code-cache'))).toHaveLength(1);
  });

  test('a plugin run outside Terraform still refuses with its message, and leaves its cache', async () => {
    const dir = path.join(tmp, 'cache');
    const failed = run(process.execPath, [PLUGIN], { env: { ...process.env, CDKTF_SCHED_CODE_CACHE: dir } });
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Terraform provider plugin'),
    });
    expect(cacheFiles(dir)).toEqual([expect.stringMatching(/^main-sched\.code-.*-liftoff\.v8$/)]);
  });

  test('a plugin serving Terraform that is killed outright still leaves its cache after a second', async () => {
    const dir = path.join(tmp, 'cache');
    const child = spawn(process.execPath, [PLUGIN], {
      env: {
        ...process.env,
        CDKTF_SCHED_CODE_CACHE: dir,
        TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: '5,6',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_, signal) => resolve(signal)),
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const deadline = Date.now() + 20_000;
    while (cacheFiles(dir).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(cacheFiles(dir)).toEqual([expect.stringMatching(/^main-sched\.code-.*-liftoff\.v8$/)]);
  });

  test("requiring the bin gives the bundle's exports without running the command line", async () => {
    const script = `const m = require(${JSON.stringify(BIN)}); process.stdout.write(Object.keys(m).sort().join(','))`;
    const { stdout } = await run(process.execPath, ['-e', script], {
      env: { ...process.env, CDKTF_SCHED_CODE_CACHE: tmp },
    });
    expect(stdout).toBe('buildProgram,runCli');
  });
});

maybe('the plugin protos parsed by the build', () => {
  test('define the same services and messages as the .proto text', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const built = require(
      path.join(REPO, 'dist/src/plugin/server.js'),
    ) as typeof import('../../../src/plugin/server');
    const fromJson = protoLoader.fromJSON(
      JSON.parse(readFileSync(built.PROTO_JSON, 'utf8')),
      built.PROTO_OPTIONS,
    );
    const fromText = protoLoader.loadSync(PROTO_FILES, PROTO_OPTIONS);
    // Functions (the serializers) compare by their presence; descriptors and file descriptors by value.
    const plain = (d: object): unknown =>
      JSON.parse(JSON.stringify(d, (_, v: unknown) => (typeof v === 'function' ? 'function' : v)));
    expect(Object.keys(fromJson).length).toBeGreaterThan(10);
    expect(plain(fromJson)).toEqual(plain(fromText));
  });
});

maybe('the dev agent started from the bin', () => {
  test("keeps the optimising WebAssembly compiler and code caches of its own, the agent's bundle's too", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'code-cache-dev-'));
    const child = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--registry-port', '0'], {
      env: { ...process.env, CDKTF_SCHED_CODE_CACHE: tmp },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      const deadline = Date.now() + 20_000;
      while (cacheFiles(tmp).length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(cacheFiles(tmp).sort()).toEqual([
        expect.stringMatching(/^agent\.code-[0-9a-f]{16}-v[\d.]+-\w+\.v8$/),
        expect.stringMatching(/^main\.code-[0-9a-f]{16}-v[\d.]+-\w+-dev\.v8$/),
      ]);
    } finally {
      child.kill('SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
