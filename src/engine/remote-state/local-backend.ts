/**
 * Terraform's `local` backend, for reading: where a workspace's state file is, and its outputs.
 * The default workspace lives at `path` (default `terraform.tfstate`); any other at
 * `<workspace_dir>/<name>/terraform.tfstate` (default `terraform.tfstate.d`), both relative to the
 * working directory, as terraform resolves them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StateFile } from '../state';
import { DEFAULT_WORKSPACE, RemoteStateError, type RemoteOutput, type RemoteStateRequest } from './types';

const DEFAULT_STATE_FILENAME = 'terraform.tfstate';
const DEFAULT_WORKSPACE_DIR = 'terraform.tfstate.d';

function setting(config: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = config[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v === '')
    throw new RemoteStateError(
      `terraform_remote_state: config.${name} of the local backend must be a non-empty string`,
    );
  return v;
}

/** The state file of `workspace` for a local backend block with these settings. */
export function localStateFile(
  config: Readonly<Record<string, unknown>>,
  workspace: string,
  baseDir: string,
): string {
  if (workspace === DEFAULT_WORKSPACE)
    return path.resolve(baseDir, setting(config, 'path') ?? DEFAULT_STATE_FILENAME);
  const dir = setting(config, 'workspace_dir') ?? DEFAULT_WORKSPACE_DIR;
  return path.resolve(baseDir, dir, workspace, DEFAULT_STATE_FILENAME);
}

/** The outputs in the local state file, or null when there is none (missing or empty file). */
export async function readLocalOutputs(
  req: RemoteStateRequest,
): Promise<Record<string, RemoteOutput> | null> {
  const file = localStateFile(req.config, req.workspace, req.baseDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (text.trim() === '') return null;
  const outputs: Record<string, RemoteOutput> = {};
  for (const [name, o] of Object.entries(StateFile.parse(text, file).outputs()))
    outputs[name] = { value: o.value, sensitive: o.sensitive };
  return outputs;
}
