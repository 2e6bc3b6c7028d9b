/**
 * Terraform's local backend: the default workspace's state at `path`, every other workspace's at
 * `<workspace_dir>/<name>/terraform.tfstate` (workspace_dir defaults to `terraform.tfstate.d` in the
 * directory terraform runs in, the stack's working directory). Locked as terraform locks it (see
 * ../lock.ts), written atomically with `<path>.backup` and the pending journal beside it.
 */
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../atomic';
import { acquireLock, type StateLock } from '../lock';
import { readPending } from '../pending';
import { PendingJournal } from '../pending-journal';
import type { LocalBackendConfig } from './config';
import { SerialGuard } from './serial-guard';
import {
  BackendError,
  DEFAULT_WORKSPACE,
  type OpenStoreOptions,
  type StateBackend,
  type StateStore,
} from './types';

export interface LocalLayout {
  /** The default workspace's state file (absolute). */
  defaultPath: string;
  /** The directory holding one folder per other workspace. */
  workspaceRoot: string;
  /** The file name inside a workspace's folder. */
  workspaceFile: string;
}

/**
 * Where a local backend keeps its states. `baseDir` is where terraform would run (relative settings
 * resolve there); `implicitPath` is the state of a stack with no backend block at all (cdktf-sched's
 * `terraform.<stack>.tfstate` in the project), whose workspaces go to the project's terraform.tfstate.d.
 */
export function localLayout(
  config: LocalBackendConfig | undefined,
  baseDir: string,
  implicitPath?: string,
): LocalLayout {
  if (!config && implicitPath) {
    return {
      defaultPath: implicitPath,
      workspaceRoot: path.join(path.dirname(implicitPath), 'terraform.tfstate.d'),
      workspaceFile: path.basename(implicitPath),
    };
  }
  return {
    defaultPath: path.resolve(baseDir, config?.path ?? 'terraform.tfstate'),
    workspaceRoot: path.resolve(baseDir, config?.workspace_dir ?? 'terraform.tfstate.d'),
    workspaceFile: 'terraform.tfstate',
  };
}

export function localStatePathFor(layout: LocalLayout, workspace: string): string {
  return workspace === DEFAULT_WORKSPACE
    ? layout.defaultPath
    : path.join(layout.workspaceRoot, workspace, layout.workspaceFile);
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function localStore(file: string, lock: StateLock | undefined): StateStore {
  const guard = new SerialGuard(`state file ${file}`);
  let backedUp = false;
  const journal = new PendingJournal(file);
  return {
    description: `local state ${file}`,
    localPath: file,
    ...(lock ? { lock: lock.info } : {}),
    async read() {
      // Through the locked descriptor: opening the path again would drop the OS lock (os-file-lock.ts).
      const text = lock?.file ? await lock.file.read() : await readIfExists(file);
      const found = text === undefined || text.trim() === '' ? undefined : text;
      guard.observe(found);
      return found;
    },
    async write(text, meta) {
      guard.check(meta);
      await writeFileAtomic(file, text, {
        ...(backedUp ? {} : { backupPath: `${file}.backup` }),
        ...(lock?.file ? { lock: lock.file } : {}),
      });
      backedUp = true;
      guard.wrote(meta);
    },
    appendPending: (line) => journal.append(line),
    markPendingStarted: (token) => journal.markStarted(token),
    readPending: () => readPending(file),
    removePending: () => journal.remove(),
    close: async () => {
      try {
        await journal.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

export function localBackend(layout: LocalLayout): StateBackend {
  return {
    type: 'local',
    async workspaces() {
      let names: string[] = [];
      try {
        const entries = await readdir(layout.workspaceRoot, { withFileTypes: true });
        names = entries.filter((e) => e.isDirectory()).map((e) => e.name);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      return [DEFAULT_WORKSPACE, ...names.filter((n) => n !== DEFAULT_WORKSPACE).sort()];
    },
    async createWorkspace(name) {
      await mkdir(path.join(layout.workspaceRoot, name), { recursive: true });
    },
    async deleteWorkspace(name) {
      if (name === DEFAULT_WORKSPACE) throw new BackendError('the default workspace cannot be deleted');
      await rm(path.join(layout.workspaceRoot, name), { recursive: true, force: true });
    },
    async open(workspace: string, opts: OpenStoreOptions) {
      const file = localStatePathFor(layout, workspace);
      const lock = opts.lock
        ? await acquireLock(file, { ...opts.lock, version: opts.lock.version ?? '', takeStale: true })
        : undefined;
      return localStore(file, lock);
    },
    close: async () => undefined,
  };
}
