/**
 * Running the real `terraform` binary against our plugins: a temporary working directory, a filesystem
 * mirror of the freshly compiled plugins, and an environment that keeps Terraform offline and away from
 * the user's configuration (no checkpoint calls, a CLI configuration, data dir and plugin cache of its
 * own).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeMirror } from '../../../src/plugin/mirror';
import { findTerraform, offlineTerraformEnv } from '../../../src/plugin/terraform-env';
import { compilePlugin } from '../../integration/plugin/helpers/compile';
import { runCli } from '../../../src/cli/main';
import { Capture } from '../cli/helpers';

export { findTerraform };

export function terraformVersion(bin: string): string {
  const env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: '/dev/null' };
  const out = execFileSync(bin, ['version'], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n')[0]!;
}

export interface TfResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Workspace {
  dir: string;
  env: Record<string, string>;
  /** Writes main.tf. */
  write(hcl: string): void;
  /** Runs terraform; fails with its output when the exit code is not one of `codes`. */
  run(args: string[], codes?: number[]): Promise<TfResult>;
  /** `terraform output -json`, as values. */
  outputs(): Promise<Record<string, unknown>>;
  remove(): void;
}

export function createWorkspace(bin: string): Workspace {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-sched-tf-'));
  const dir = path.join(root, 'work');
  const cache = path.join(root, 'plugin-cache');
  fs.mkdirSync(dir);
  fs.mkdirSync(cache);
  const { entries } = compilePlugin();
  const mirror = writeMirror({ dir: path.join(root, 'mirror'), entries });
  const cliConfig = path.join(root, 'cli.tfrc');
  fs.writeFileSync(cliConfig, mirror.cliConfig);
  const env = offlineTerraformEnv({
    cliConfigFile: cliConfig,
    dataDir: path.join(root, 'tf-data'),
    extra: { TF_PLUGIN_CACHE_DIR: cache },
  });
  const run = (args: string[], codes = [0]): Promise<TfResult> =>
    new Promise((resolve, reject) => {
      const child = spawn(bin, [...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const res = { code, stdout, stderr };
        if (codes.includes(code ?? -1)) resolve(res);
        else reject(new Error(`terraform ${args.join(' ')} exited with ${code}\n${stdout}\n${stderr}`));
      });
    });
  return {
    dir,
    env,
    write: (hcl) => fs.writeFileSync(path.join(dir, 'main.tf'), hcl),
    run,
    async outputs() {
      const { stdout } = await run(['output', '-json', '-no-color']);
      const parsed = JSON.parse(stdout) as Record<string, { value: unknown }>;
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v.value]));
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Runs `cdktf-sched <argv>` in-process in `cwd` against the agent's addresses (and nothing else from
 * the environment); fails with its output unless it exits with one of `codes`. Returns stdout.
 */
export async function engineRun(
  cwd: string,
  argv: string[],
  agent: { schedulerUrl: string; registryUrl?: string | undefined },
  codes = [0],
): Promise<string> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(argv, {
    stdout,
    stderr,
    cwd,
    env: {
      SCHED_ADDR: agent.schedulerUrl,
      REG_HTTP_ADDR: agent.registryUrl ?? '',
      PATH: process.env['PATH'] ?? '',
      CI: '1',
    },
  });
  if (!codes.includes(code))
    throw new Error(`cdktf-sched ${argv.join(' ')} exited with ${code}\n${stdout.text}\n${stderr.text}`);
  return stdout.text;
}
