/**
 * A stack's state as a command sees it: its backend (from the stack's `terraform.backend` block),
 * the workspace, the store opened (and locked) in it, and the state read from there with the creates
 * an unfinished run journaled.
 */
import path from 'node:path';
import { StateFile, StateWriter, mergePending, type LoadedState } from './state';
import {
  createBackend,
  currentWorkspace,
  DEFAULT_WORKSPACE,
  type LockRequest,
  type StateBackend,
  type StateStore,
} from './state/backends';
import type { LoadedStack, Project } from './project';

type Env = Readonly<Record<string, string | undefined>>;

/** The backend of a loaded stack; an unsupported backend throws here, before anything is locked. */
export function backendOf(project: Project, loaded: LoadedStack, env: Env): StateBackend {
  return createBackend(loaded.config.backend, {
    baseDir: loaded.stack.workingDirectory,
    env,
    implicitPath: path.join(project.dir, `terraform.${loaded.stack.name}.tfstate`),
    stack: loaded.stack.name,
  });
}

/** The workspace a command on this project works in (see state/backends/workspace.ts). */
export async function workspaceOf(project: Project, env: Env, flag?: string): Promise<string> {
  return (await currentWorkspace({ flag, env, projectDir: project.dir })).name;
}

export interface OpenedState extends LoadedState {
  store: StateStore;
}

/** Opens the workspace's store (locked when asked) and reads its state; closes the store on failure. */
export async function openStackState(
  backend: StateBackend,
  workspace: string,
  lock: LockRequest | false,
): Promise<OpenedState> {
  const store = await backend.open(workspace || DEFAULT_WORKSPACE, { lock });
  try {
    const text = await store.read();
    const state = text === undefined ? StateFile.empty() : StateFile.parse(text, store.description);
    const lines = (await store.readPending?.()) ?? [];
    const persistedFingerprint = lines.length > 0 ? state.fingerprint() : undefined;
    mergePending(state, lines);
    return { store, state, persistedFingerprint };
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** The writer that records a run's changes in the store the state came from. */
export function stateWriterFor(s: {
  store: StateStore;
  state: StateFile;
  persistedFingerprint: string | undefined;
}): StateWriter {
  return new StateWriter(s.store.localPath ?? s.store.description, s.state, {
    persistedFingerprint: s.persistedFingerprint,
    store: s.store,
  });
}
