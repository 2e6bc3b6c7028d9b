/**
 * One command's hold on one stack: its configuration, its state (locked for the duration), and the
 * providers that reach the cluster. Closing releases everything.
 */
import { acquireLock, loadStateWithPending, type StateFile, type StateLock } from './state';
import { loadStack, type LoadedStack, type Project } from './project';
import { ProviderSet } from './providers';
import type { SynthesizedStack } from './config';
import type { Env } from '../api/env';
import {
  BUILTIN_PROVIDER,
  readRemoteState,
  terraformBuiltinProvider,
  type RemoteStateReader,
} from './remote-state';

export interface StackSession {
  project: Project;
  loaded: LoadedStack;
  /** The state, with the creates an unfinished run journaled (see state/pending.ts). */
  state: StateFile;
  /** What a StateWriter for `state` starts from: the file as read. */
  persistedFingerprint: string | undefined;
  providers: ProviderSet;
  close(): Promise<void>;
}

export interface OpenOptions {
  operation: string;
  env: Env;
  /** Take the state lock (every command that may write state, and plan, as Terraform does). */
  lock?: boolean;
  log?: (line: string) => void;
  /**
   * How `terraform_remote_state` reads other states (default: the local backend only). The place to
   * plug in every backend the engine keeps state in, and a multi-stack run's view of pending outputs.
   */
  remoteState?: RemoteStateReader;
}

export async function openStack(
  project: Project,
  stack: SynthesizedStack,
  opts: OpenOptions,
): Promise<StackSession> {
  const loaded = await loadStack(project, stack);
  let lock: StateLock | undefined;
  if (opts.lock !== false) {
    // A lock left by a process that died on this host is taken over, as the OS releases
    // Terraform's local lock when its holder dies; a live holder still refuses.
    lock = await acquireLock(loaded.statePath, {
      operation: opts.operation,
      version: '0.1.0',
      takeStale: true,
    });
  }
  let state: StateFile;
  let persistedFingerprint: string | undefined;
  try {
    ({ state, persistedFingerprint } = await loadStateWithPending(loaded.statePath));
  } catch (e) {
    await lock?.release();
    throw e;
  }
  const providers = new ProviderSet(undefined, opts.env, {
    [BUILTIN_PROVIDER]: terraformBuiltinProvider({
      read: opts.remoteState ?? readRemoteState,
      baseDir: stack.workingDirectory,
    }),
  });
  return {
    project,
    loaded,
    state,
    persistedFingerprint,
    providers,
    async close() {
      await providers.close();
      await lock?.release();
    },
  };
}
