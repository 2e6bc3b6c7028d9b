/**
 * The backend layer's entry points: a stack's backend block in, a StateBackend (or one opened
 * workspace) out. `readBackendState` is what reads another stack's or workspace's state (for
 * terraform_remote_state and cross-stack references) without locking it.
 */
import { parseBackend } from './config';
import { httpBackend } from './http';
import { localBackend, localLayout } from './local';
import { pgBackend } from './pg';
import { StateFile } from '../state-file';
import { DEFAULT_WORKSPACE, type LockRequest, type StateBackend, type StateStore } from './types';

export * from './types';
export { parseBackend, refusal, type BackendSpec } from './config';
export { localLayout, localStatePathFor, type LocalLayout } from './local';
export * from './workspace';

type Env = Readonly<Record<string, string | undefined>>;

export interface BackendPlace {
  /** Where terraform would run for this stack (the stack's working directory): relative paths resolve here. */
  baseDir: string;
  /** Environment for PG_CONN_STR, TF_HTTP_*, PG*; default process.env. */
  env?: Env;
  /** The state of a stack without a backend block (cdktf-sched's `terraform.<stack>.tfstate`). */
  implicitPath?: string;
  /** Names the stack in errors. */
  stack?: string;
}

/** The backend a `terraform.backend` block describes; an unsupported type throws before anything runs. */
export function createBackend(
  block: { type: string; config: Record<string, unknown> } | undefined,
  place: BackendPlace,
): StateBackend {
  const env = place.env ?? process.env;
  const spec = parseBackend(block, env, place.stack);
  switch (spec.type) {
    case 'local':
      return localBackend(localLayout(block ? spec.config : undefined, place.baseDir, place.implicitPath));
    case 'pg':
      return pgBackend(spec.config, env);
    case 'http':
      return httpBackend(spec.config);
  }
}

/** Opens one workspace of a backend; `lock: false` reads without locking. Close the store when done. */
export async function openBackend(
  block: { type: string; config: Record<string, unknown> } | undefined,
  opts: BackendPlace & { workspace?: string; lock?: LockRequest | false },
): Promise<StateStore> {
  const backend = createBackend(block, opts);
  return backend.open(opts.workspace ?? DEFAULT_WORKSPACE, { lock: opts.lock ?? false });
}

/** Another stack's or workspace's state, read without a lock; undefined when it has none yet. */
export async function readBackendState(
  block: { type: string; config: Record<string, unknown> } | undefined,
  opts: BackendPlace & { workspace?: string },
): Promise<StateFile | undefined> {
  const store = await openBackend(block, { ...opts, lock: false });
  try {
    const text = await store.read();
    return text === undefined ? undefined : StateFile.parse(text, store.description);
  } finally {
    await store.close();
  }
}
