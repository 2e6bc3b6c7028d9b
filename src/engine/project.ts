/**
 * A CDKTF project on disk: `cdktf.json` names the app; `synth` runs it into `cdktf.out/`; each stack's
 * `cdk.tf.json` is read from there, and its state lives where its local backend says (cdktf's default
 * `terraform.<stack>.tfstate` in the project directory).
 */
import { safeParseOnce } from '../common/parse-once';
import type * as ChildProcess from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { lazyModule } from '../common/lazy-module';
import {
  listSynthesizedStacks,
  parseStackConfigText,
  localStatePath,
  type ReadStackConfig,
  type StackConfig,
  type SynthesizedStack,
} from './config';

// child_process (and the dgram and net servers it loads) only for synth: a plan or deploy with
// --no-synth, and --version, start without it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const childProcess = lazyModule(() => require('node:child_process') as typeof ChildProcess);

const CdktfJsonSchema = z.looseObject({
  app: z.string().min(1, 'cdktf.json: "app" must name the command that synthesizes the stacks'),
  output: z.string().optional(),
  language: z.string().optional(),
});

export interface Project {
  dir: string;
  app: string;
  outdir: string;
}

export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectError';
  }
}

/** Reads `<dir>/cdktf.json`. */
export function loadProject(dir: string): Project {
  const file = path.join(dir, 'cdktf.json');
  if (!existsSync(file))
    throw new ProjectError(`${file} not found: run the command in a CDKTF project or pass --app DIR`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ProjectError(`${file}: ${(e as Error).message}`);
  }
  const r = safeParseOnce(CdktfJsonSchema, raw);
  if (!r.success)
    throw new ProjectError(
      `${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return { dir: path.resolve(dir), app: r.data.app, outdir: path.resolve(dir, r.data.output ?? 'cdktf.out') };
}

/** Runs the app (as `cdktf synth` does) and returns its stacks. */
export async function synth(
  project: Project,
  log: (line: string) => void = () => undefined,
  /** The app's environment: the command's own (an in-process caller's is not process.env). */
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<SynthesizedStack[]> {
  log(`Synthesizing: ${project.app}`);
  const code = await new Promise<number>((resolve, reject) => {
    const child = childProcess().spawn(project.app, {
      cwd: project.dir,
      shell: true,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...env,
        CDKTF_OUTDIR: project.outdir,
        CHECKPOINT_DISABLE: '1',
        CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1',
      },
    });
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new ProjectError(`synth failed: "${project.app}" exited with code ${code}`);
  return listSynthesizedStacks(project.outdir);
}

export async function stacksOf(project: Project): Promise<SynthesizedStack[]> {
  return listSynthesizedStacks(project.outdir);
}

export function selectStack(stacks: SynthesizedStack[], name: string | undefined): SynthesizedStack {
  if (stacks.length === 0) throw new ProjectError('the app synthesized no stacks');
  if (name) {
    const s = stacks.find((x) => x.name === name);
    if (!s)
      throw new ProjectError(
        `no stack "${name}"; the app has ${stacks.map((x) => `"${x.name}"`).join(', ')}`,
      );
    return s;
  }
  if (stacks.length > 1) {
    throw new ProjectError(
      `the app has ${stacks.length} stacks (${stacks.map((x) => x.name).join(', ')}); choose one with --stack`,
    );
  }
  return stacks[0]!;
}

export interface LoadedStack {
  stack: SynthesizedStack;
  config: StackConfig;
  configText: string;
  statePath: string;
}

/** `read`: the stack's configuration as the caller already read it from `stack.file` (it is not read again). */
export async function loadStack(
  project: Project,
  stack: SynthesizedStack,
  read?: ReadStackConfig,
): Promise<LoadedStack> {
  const configText = read?.text ?? (await readFile(stack.file, 'utf8'));
  const config = read?.config ?? parseStackConfigText(configText, stack.file);
  const statePath =
    localStatePath(config, stack.workingDirectory) ??
    path.join(project.dir, `terraform.${stack.name}.tfstate`);
  return { stack, config, configText, statePath };
}
