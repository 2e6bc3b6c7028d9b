/**
 * One interface over where a stack's state lives (Terraform's "backend"): a local file, a
 * PostgreSQL row, an HTTP endpoint. Every backend keeps one state per workspace, locks it for the
 * run, and hands the engine the state's text; the engine never sees which backend it is using.
 */
import type { LockInfo } from '../lock';
import type { PendingLine } from '../pending';

export const DEFAULT_WORKSPACE = 'default';

/** What a lock says about its holder (Terraform's LockInfo, ID filled in by the backend). */
export interface LockRequest {
  /** e.g. "OperationTypeApply" (Terraform's names). */
  operation: string;
  info?: string;
  version?: string;
}

/** One workspace's state, opened (and locked, when asked) for one command. */
export interface StateStore {
  /** Human words for where the state is, without secrets (e.g. `pg schema "x", workspace "staging"`). */
  readonly description: string;
  /** The local file, for a local backend (the pending journal and the backup live beside it). */
  readonly localPath?: string;
  /** The lock this store holds, if it was opened with one. */
  readonly lock?: LockInfo;
  /** The state as stored now; undefined when the workspace has none yet. */
  read(): Promise<string | undefined>;
  /**
   * Replaces the stored state. `meta` is the state's lineage and serial: a write that would put an
   * older serial or another lineage over what this store read or wrote is refused.
   */
  write(text: string, meta: { lineage: string; serial: number }): Promise<void>;
  /**
   * Journals a create about to start (see ../pending.ts). Backends without a cheap append leave this
   * out: the writer then stores the whole state with the pending create in it.
   */
  appendPending?(line: PendingLine): Promise<void>;
  /** Marks a line journaled ahead (its `ahead` token) as started; without it, nothing is journaled ahead. */
  markPendingStarted?(token: string): Promise<void> | void;
  readPending?(): Promise<PendingLine[]>;
  removePending?(): Promise<void>;
  /** Releases the lock and any connection; safe to call twice. */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Lock the workspace for the command (false: read only, as terraform_remote_state does). */
  lock: LockRequest | false;
}

export interface StateBackend {
  /** The backend type as written in the configuration (`local`, `pg`, `http`). */
  readonly type: string;
  /** Existing workspaces, `default` first, as `terraform workspace list` shows them. */
  workspaces(): Promise<string[]>;
  /** Makes a new, empty workspace (`workspace new`); refused where the backend has none. */
  createWorkspace(name: string): Promise<void>;
  /** Deletes a workspace's state; the default workspace cannot be deleted. */
  deleteWorkspace(name: string): Promise<void>;
  open(workspace: string, opts: OpenStoreOptions): Promise<StateStore>;
  /** Closes connections the backend keeps (stores opened from it close on their own). */
  close(): Promise<void>;
}

export class BackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendError';
  }
}
