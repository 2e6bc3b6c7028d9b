/**
 * The filesystem mirror: Terraform's unpacked layout, launchers that start the plugin, the CLI
 * configuration, and the `cdktf-sched terraform-mirror` command.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/io';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../../src/plugin/handshake';
import { PROVIDER_VERSION, currentPlatform, launcherScript, writeMirror } from '../../../src/plugin/mirror';
import { ROOT, compilePlugin } from './helpers/compile';

function io(cwd: string): CliIO & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { stdout, stderr, env: {}, cwd, out: () => out, err: () => err };
}

describe('terraform mirror', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-mirror-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('has the version of the package', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
      bin: object;
    };
    expect(PROVIDER_VERSION).toBe(pkg.version);
    expect(pkg.bin).toMatchObject({
      'terraform-provider-sched': 'dist/src/plugin/main-sched.bundle.js',
      'terraform-provider-reg': 'dist/src/plugin/main-reg.bundle.js',
    });
  });

  it('lays out both providers in the unpacked layout with launchers that start the plugin', async () => {
    const { entries } = compilePlugin();
    const dir = path.join(tmp, 'mirror');
    const m = writeMirror({ dir, entries });
    const platform = currentPlatform();
    expect(m.providers.map((p) => path.relative(dir, p.executable)).sort()).toEqual([
      `registry.terraform.io/cdktf-sched/reg/${PROVIDER_VERSION}/${platform}/terraform-provider-reg_v${PROVIDER_VERSION}`,
      `registry.terraform.io/cdktf-sched/sched/${PROVIDER_VERSION}/${platform}/terraform-provider-sched_v${PROVIDER_VERSION}`,
    ]);
    expect(m.cliConfig).toContain(`path    = ${JSON.stringify(dir)}`);
    expect(m.cliConfig).toContain('include = ["registry.terraform.io/cdktf-sched/*"]');
    expect(m.cliConfig).toMatch(/direct \{\s+exclude = \["registry.terraform.io\/cdktf-sched\/\*"\]/);

    const sched = m.providers.find((p) => p.name === 'sched')!;
    expect(fs.statSync(sched.executable).mode & 0o111).toBe(0o111);
    const child = spawn(sched.executable, [], {
      env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE },
    });
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString()));
      child.once('exit', (code) => reject(new Error(`launcher exited with ${code}`)));
    });
    child.kill('SIGKILL');
    expect(line).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|/);
  });

  it('quotes paths in the launcher', () => {
    const s = launcherScript('sched', '1.0.0', "/opt/no'de", '/a b/main.js', ['--x']);
    expect(s).toContain(`exec '/opt/no'\\''de' '--x' '/a b/main.js' "$@"`);
  });

  it('refuses entries that do not exist and Windows', () => {
    expect(() => writeMirror({ dir: path.join(tmp, 'x'), entries: { sched: '/nope.js' } })).toThrow(
      /build first/,
    );
    expect(() => writeMirror({ dir: path.join(tmp, 'y'), platform: 'windows_amd64' })).toThrow(/Windows/);
  });

  it('is a cdktf-sched command that prints the CLI configuration and writes it beside the mirror', async () => {
    const run = io(tmp);
    const code = await runCli(['terraform-mirror', 'cmd', '--node', '/usr/bin/node'], run);
    if (!fs.existsSync(path.join(ROOT, 'dist', 'src', 'plugin', 'main-sched.bundle.js'))) {
      // Nothing built: the command says how to get the plugin entries it would point at.
      expect(code).toBe(1);
      expect(run.err()).toMatch(/build first/);
      return;
    }
    expect(code).toBe(0);
    expect(run.out()).toMatch(/^provider_installation \{/);
    expect(run.out()).toContain(JSON.stringify(path.join(tmp, 'cmd')));
    expect(fs.readFileSync(path.join(tmp, 'cmd', 'cli.tfrc'), 'utf8')).toBe(run.out());
    expect(run.err()).toContain('TF_CLI_CONFIG_FILE=');
    const launcher = fs.readFileSync(
      path.join(
        tmp,
        'cmd',
        'registry.terraform.io/cdktf-sched/reg',
        PROVIDER_VERSION,
        currentPlatform(),
        `terraform-provider-reg_v${PROVIDER_VERSION}`,
      ),
      'utf8',
    );
    expect(launcher).toContain(
      `exec '/usr/bin/node' '${path.join(ROOT, 'dist', 'src', 'plugin', 'main-reg.bundle.js')}' "$@"`,
    );
  });
});
