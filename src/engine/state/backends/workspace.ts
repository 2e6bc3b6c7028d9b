/**
 * Which workspace a command works in: `--workspace`, else TF_WORKSPACE (as terraform), else the one
 * `cdktf-sched workspace select` recorded, else "default". Terraform records the selection in
 * `.terraform/environment` of the directory it runs in; a cdktf project runs every stack from its
 * own directory under cdktf.out (rewritten by each synth), so the selection is kept once for the
 * project in `.cdktf-sched/environment`, beside the dev agent's data.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BackendError, DEFAULT_WORKSPACE } from './types';

type Env = Readonly<Record<string, string | undefined>>;

export function environmentFile(projectDir: string): string {
  return path.join(projectDir, '.cdktf-sched', 'environment');
}

/** Terraform's rule: a workspace name must be usable as a URL path segment unchanged. */
export function checkWorkspaceName(name: string, source: string): string {
  if (name === '' || encodeURIComponent(name) !== name || name === '.' || name === '..') {
    throw new BackendError(
      `${source}: invalid workspace name ${JSON.stringify(name)}: a workspace name must be usable in a URL path unchanged (letters, digits, - _ . ~)`,
    );
  }
  return name;
}

export async function selectedWorkspace(projectDir: string): Promise<string | undefined> {
  try {
    const text = (await readFile(environmentFile(projectDir), 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

export async function recordSelection(projectDir: string, name: string): Promise<void> {
  await mkdir(path.dirname(environmentFile(projectDir)), { recursive: true });
  await writeFile(environmentFile(projectDir), `${name}\n`, 'utf8');
}

export interface WorkspaceChoice {
  name: string;
  /** Where the name came from, for messages. */
  source: '--workspace' | 'TF_WORKSPACE' | 'workspace select' | 'default';
}

export async function currentWorkspace(opts: {
  flag?: string | undefined;
  env: Env;
  projectDir: string;
}): Promise<WorkspaceChoice> {
  if (opts.flag !== undefined)
    return { name: checkWorkspaceName(opts.flag, '--workspace'), source: '--workspace' };
  const fromEnv = opts.env['TF_WORKSPACE'];
  if (fromEnv) return { name: checkWorkspaceName(fromEnv, 'TF_WORKSPACE'), source: 'TF_WORKSPACE' };
  const selected = await selectedWorkspace(opts.projectDir);
  if (selected)
    return {
      name: checkWorkspaceName(selected, environmentFile(opts.projectDir)),
      source: 'workspace select',
    };
  return { name: DEFAULT_WORKSPACE, source: 'default' };
}
