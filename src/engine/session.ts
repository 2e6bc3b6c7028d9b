/**
 * One command's hold on one stack: its configuration, its state (locked for the duration), and the
 * providers that reach the cluster. Closing releases everything.
 */
import type { StateFile } from './state';
import type { StateStore } from './state/backends';
import { loadStack, type LoadedStack, type Project } from './project';
import { backendOf, openStackState, workspaceOf } from './stack-state';
import { ProviderSet } from './providers';
import type { ReadStackConfig, SynthesizedStack } from './config';
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
  /** Where the state lives (the stack's backend, in the workspace), locked unless opened without. */
  store: StateStore;
  workspace: string;
  providers: ProviderSet;
  close(): Promise<void>;
}

export interface OpenOptions {
  operation: string;
  env: Env;
  /** Take the state lock (every command that may write state, and plan, as Terraform does). */
  lock?: boolean;
  log?: (line: string) => void;
  /** The workspace; default: TF_WORKSPACE, else the selected one, else "default". */
  workspace?: string;
  /**
   * How `terraform_remote_state` reads other states (default: local, pg and http). The place to
   * plug in every backend the engine keeps state in, and a multi-stack run's view of pending outputs.
   */
  remoteState?: RemoteStateReader;
  /** The stack's configuration as the caller already read it (a large one is not parsed twice). */
  config?: ReadStackConfig;
}

export async function openStack(
  project: Project,
  stack: SynthesizedStack,
  opts: OpenOptions,
): Promise<StackSession> {
  const loaded = await loadStack(project, stack, opts.config);
  const backend = backendOf(project, loaded, opts.env);
  const workspace = opts.workspace ?? (await workspaceOf(project, opts.env));
  loaded.config.workspace = workspace;
  const { store, state, persistedFingerprint } = await openStackState(
    backend,
    workspace,
    opts.lock === false ? false : { operation: opts.operation, version: '0.1.0' },
  );
  if (store.localPath) loaded.statePath = store.localPath;
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
    store,
    workspace,
    providers,
    async close() {
      await providers.close();
      await store.close();
    },
  };
}
