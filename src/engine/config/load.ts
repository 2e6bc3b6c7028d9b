/**
 * Finding and reading synthesized stacks: `cdktf.out/manifest.json` lists them, each stack's
 * `cdk.tf.json` sits under `stacks/<name>/`.
 */
import { safeParseOnce } from '../../common/parse-once';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, diagnostic } from './errors';
import { parseStackConfig, type ParseOptions } from './parse';
import type { StackConfig } from './types';

export const ManifestSchema = z.looseObject({
  version: z.string().optional(),
  stacks: z.record(
    z.string(),
    z.looseObject({
      name: z.string(),
      constructPath: z.string().optional(),
      synthesizedStackPath: z.string(),
      workingDirectory: z.string().optional(),
      dependencies: z.array(z.string()).optional(),
    }),
  ),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export interface SynthesizedStack {
  name: string;
  constructPath?: string;
  /** Absolute path of the stack's cdk.tf.json. */
  file: string;
  /** Absolute working directory of the stack (where cdktf keeps its state by default). */
  workingDirectory: string;
  /** Names of stacks this one depends on (cross-stack references). */
  dependencies: string[];
}

/** Stacks listed in `<outdir>/manifest.json`, in manifest order. */
export async function listSynthesizedStacks(outdir: string): Promise<SynthesizedStack[]> {
  const file = path.join(outdir, 'manifest.json');
  const text = await readOrExplain(
    file,
    'No synthesized stacks found',
    (reason) => `cannot read ${file} (${reason}); run "cdktf synth" first`,
  );
  const parsed = safeParseOnce(ManifestSchema, safeJson(text, file));
  if (!parsed.success) {
    throw new ConfigError([
      diagnostic(
        { address: file },
        'Invalid manifest',
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      ),
    ]);
  }
  return Object.values(parsed.data.stacks).map((s) => ({
    name: s.name,
    ...(s.constructPath !== undefined ? { constructPath: s.constructPath } : {}),
    file: path.resolve(outdir, s.synthesizedStackPath),
    workingDirectory: path.resolve(outdir, s.workingDirectory ?? path.dirname(s.synthesizedStackPath)),
    dependencies: s.dependencies ?? [],
  }));
}

/** Reads a file, or throws a ConfigError saying which file could not be read and why. */
async function readOrExplain(
  file: string,
  summary: string,
  detail: (reason: string) => string,
): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ConfigError([diagnostic({ address: file }, summary, detail(reason))]);
  }
}

function safeJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ConfigError([diagnostic({ address: file }, 'Invalid JSON', (e as Error).message)]);
  }
}

/**
 * Reads and parses one stack's configuration: a path to a cdk.tf.json, or a stack directory that
 * contains one. Throws ConfigError for unreadable files, bad JSON and configuration errors.
 */
export async function loadStackConfig(
  fileOrDir: string,
  opts: Omit<ParseOptions, 'file'> = {},
): Promise<StackConfig> {
  return (await readStackConfig(fileOrDir, opts)).config;
}

/** A stack's configuration and the text it was parsed from (a plan hashes the text). */
export interface ReadStackConfig {
  config: StackConfig;
  text: string;
}

/** loadStackConfig, keeping the text. */
export async function readStackConfig(
  fileOrDir: string,
  opts: Omit<ParseOptions, 'file'> = {},
): Promise<ReadStackConfig> {
  const file = fileOrDir.endsWith('.json') ? fileOrDir : path.join(fileOrDir, 'cdk.tf.json');
  const text = await readOrExplain(file, 'Cannot read configuration', (reason) => reason);
  return { config: parseStackConfigText(text, file, opts), text };
}

/** The configuration in `text`, read from `file` by the caller (who also keeps the text). */
export function parseStackConfigText(
  text: string,
  file: string,
  opts: Omit<ParseOptions, 'file'> = {},
): StackConfig {
  return parseStackConfig(safeJson(text, file), { ...opts, file });
}

/**
 * The state file a local backend asks for (`terraform.backend.local.path`). cdktf writes an absolute
 * path by default; a relative one resolves against the stack's working directory, where Terraform
 * itself would run. Undefined when the stack has no local backend.
 */
export function localStatePath(config: StackConfig, stackWorkingDirectory: string): string | undefined {
  const b = config.backend;
  if (!b || b.type !== 'local') return undefined;
  const p = typeof b.config['path'] === 'string' ? b.config['path'] : 'terraform.tfstate';
  return path.resolve(stackWorkingDirectory, p);
}
