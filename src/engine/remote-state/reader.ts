/**
 * The engine's default remote-state reader (the local backend as terraform resolves its paths, pg and
 * http through the state backends), and a view of it that knows what this run's plans will change. A
 * backend the engine does not serve is refused by name.
 */
import { UNKNOWN } from '../../provider/values';
import { readBackendState } from '../state/backends';
import { localStateFile, readLocalOutputs } from './local-backend';
import {
  RemoteStateError,
  type RemoteOutput,
  type RemoteStateReader,
  type RemoteStateRequest,
} from './types';

/** Backends whose states the engine reads (and keeps its own in). */
const READABLE = new Set(['local', 'pg', 'http']);

export const readRemoteState: RemoteStateReader = async (req) => {
  if (req.backend === 'local') return readLocalOutputs(req);
  if (!READABLE.has(req.backend)) {
    throw new RemoteStateError(
      `terraform_remote_state: backend "${req.backend}" is not supported by cdktf-sched; it reads remote state from the "local", "pg" and "http" backends`,
    );
  }
  const state = await readBackendState(
    { type: req.backend, config: { ...req.config } },
    { baseDir: req.baseDir, workspace: req.workspace },
  );
  if (!state) return null;
  const outputs: Record<string, RemoteOutput> = {};
  for (const [name, o] of Object.entries(state.outputs()))
    outputs[name] = { value: o.value, sensitive: o.sensitive };
  return outputs;
};

/** A key naming one workspace's state in one backend, equal for every spelling of the same place. */
export function stateLocation(req: RemoteStateRequest): string {
  if (req.backend === 'local') return `local:${localStateFile(req.config, req.workspace, req.baseDir)}`;
  const sorted = Object.fromEntries(Object.entries(req.config).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${req.backend}:${req.workspace}:${JSON.stringify(sorted)}`;
}

/**
 * Reads through `inner`, except that outputs a stack planned earlier in the same run will change are
 * not known yet: terraform through cdktf plans a dependant against what is recorded, and a value its
 * dependency is about to change can only be known once that dependency is applied.
 */
export class PendingOutputs {
  private readonly byLocation = new Map<string, Set<string>>();

  /** The outputs (by name) a plan of the state at `location` changes. */
  record(location: string, changed: Iterable<string>): void {
    this.byLocation.set(location, new Set(changed));
  }

  reader(inner: RemoteStateReader): RemoteStateReader {
    return async (req) => {
      const recorded = await inner(req);
      const pending = this.byLocation.get(stateLocation(req));
      if (!pending || pending.size === 0) return recorded;
      const out: Record<string, RemoteOutput> = { ...(recorded ?? {}) };
      for (const name of pending) out[name] = { value: UNKNOWN, sensitive: out[name]?.sensitive ?? false };
      return out;
    };
  }
}
