/**
 * What the built-in `terraform` provider's `terraform_remote_state` data source asks of a backend: the
 * root outputs recorded in one workspace of another configuration's state. Backends are reached
 * through one injected function, so any backend the engine can read its own state from (local, pg,
 * http) serves cross-stack references the same way.
 */

/** One `terraform_remote_state` read: the backend block's type and settings, and the workspace. */
export interface RemoteStateRequest {
  backend: string;
  config: Readonly<Record<string, unknown>>;
  workspace: string;
  /** The reading stack's working directory: relative local paths resolve against it, as terraform's do. */
  baseDir: string;
}

export interface RemoteOutput {
  value: unknown;
  sensitive: boolean;
}

/** The outputs of the stored state, or null when no state is stored in that workspace. */
export type RemoteStateReader = (req: RemoteStateRequest) => Promise<Record<string, RemoteOutput> | null>;

/** A backend the reader does not serve: refused with its name, never read as an empty state. */
export class RemoteStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteStateError';
  }
}

export const DEFAULT_WORKSPACE = 'default';
