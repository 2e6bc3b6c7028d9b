/**
 * Runs an example through the real command line, in-process, against a dev agent the test owns.
 *
 * Each run works in a fresh copy of the example's project settings in a temporary directory: the
 * example's own `main.ts` is the app, but `cdktf.out/` and the state file land in the temporary
 * directory. Two tests of the same example, or someone deploying the example by hand at the same time,
 * then never share a state file or an output directory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startDevAgent, type DevAgent } from '../../src/agent';
import type { Env } from '../../src/api/env';
import type { CliIO } from '../../src/cli/io';
import { dialectEnv, TEST_DIALECT } from '../helpers/dialect';
import { runCli } from '../../src/cli/main';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
/**
 * The examples import `cdktf-sched`, which a user's synth gets as built (dist/); the repository's
 * tsconfig maps it to the sources, so a test runs the constructs as they are now, built or not.
 */
const SOURCES_TSCONFIG = path.join(REPO_ROOT, 'tsconfig.json');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface ExampleProject {
  /** The temporary project directory (pass it as `--app`, or as the working directory). */
  dir: string;
  /** Runs `cdktf-sched <argv>` in-process with `env` as the whole environment the command sees (and TSX_TSCONFIG_PATH). */
  cli(argv: string[], env: Env): Promise<CliResult>;
  remove(): void;
}

/**
 * A temporary project whose cdktf.json is the example's with only the app changed: the example's
 * main.ts run by the repository's tsx, so nothing is resolved from the temporary directory.
 */
export function exampleProject(example: string, main = 'main.ts'): ExampleProject {
  return projectOf(path.join(REPO_ROOT, 'examples', example), main);
}

/** As exampleProject, for an app in any directory (test fixtures). */
export function projectOf(exampleDir: string, main = 'main.ts'): ExampleProject {
  const example = path.basename(exampleDir);
  const settings = JSON.parse(readFileSync(path.join(exampleDir, 'cdktf.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const dir = mkdtempSync(path.join(tmpdir(), `cdktf-sched-example-${example}-`));
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ ...settings, app: `"${TSX}" "${path.join(exampleDir, main)}"` }, null, 2),
  );
  return {
    dir,
    async cli(argv, env) {
      const stdout = new Capture();
      const stderr = new Capture();
      const io: CliIO = {
        stdout,
        stderr,
        env: { ...dialectEnv(env), TSX_TSCONFIG_PATH: SOURCES_TSCONFIG },
        cwd: dir,
      };
      const code = await runCli(argv, io);
      // Every example test targets its own agent; the embedded one would hide a missing address.
      if (stderr.text.includes('started the embedded dev agent')) {
        throw new Error(`cdktf-sched ${argv.join(' ')} started the embedded dev agent:\n${stderr.text}`);
      }
      return { code, stdout: stdout.text, stderr: stderr.text };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A dev agent on free ports, a hundred times faster than real time. */
export function startExampleAgent(): Promise<DevAgent> {
  return startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01, dialect: TEST_DIALECT });
}

/** The environment a command sees: only the agent's addresses (plus PATH for the synth). */
export function agentEnv(agent: DevAgent, extra: Env = {}): Env {
  return {
    PATH: process.env['PATH'],
    SCHED_ADDR: agent.schedulerUrl,
    REG_HTTP_ADDR: agent.registryUrl,
    ...extra,
  };
}

/** Fails with the command's output when it did not exit as expected. */
export function expectExit(result: CliResult, code: number): CliResult {
  if (result.code !== code) {
    throw new Error(
      `expected exit ${code}, got ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
  return result;
}
