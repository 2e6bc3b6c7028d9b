/**
 * Moved blocks at plan time (cdktf `moveTo()`/`moveToId()`/`moveFromId()`): before anything is
 * planned, the state's objects under each `from` address are renamed to `to` in a copy of the
 * state, as Terraform applies move statements to the prior state. The plan then sees each object
 * at its new address (with previous_address), and the apply makes the same renames first.
 */
import { diagnostic, type ConfigDiagnostic, type StackConfig } from '../../config';
import { parseAddress, StateMoveError, type StateFile } from '../../state';
import type { PlannedMove } from '../types';

export interface MovedState {
  /** The state with every move made. */
  state: StateFile;
  moves: PlannedMove[];
  /** New instance address -> the address the state had it under. */
  previous: Map<string, string>;
}

export function planMoves(
  config: StackConfig,
  state: StateFile,
  diagnostics: ConfigDiagnostic[],
): MovedState {
  const out: MovedState = { state, moves: [], previous: new Map() };
  if (config.moved.length === 0) return out;
  out.state = state.clone();
  for (const m of config.moved) {
    const refused = stillDeclared(config, m);
    if (refused) {
      diagnostics.push(refused);
      continue;
    }
    if (!hasAny(out.state, m.from)) continue; // already moved, or never created: nothing to do
    try {
      const moved = out.state.move(m.from, m.to);
      out.moves.push({ from: m.from, to: m.to });
      for (const to of moved) out.previous.set(to, previousOf(out.previous, m, to));
    } catch (err) {
      if (!(err instanceof StateMoveError)) throw err;
      diagnostics.push({
        ...diagnostic(
          { address: m.to },
          'Unresolved resource instance address changes',
          `A moved block could not be applied to the state, so ${m.from} stays where it is: ${err.message}`,
        ),
        severity: 'warning',
      });
    }
  }
  return out;
}

/** Terraform refuses a move from a resource the configuration still declares. */
function stillDeclared(config: StackConfig, m: PlannedMove): ConfigDiagnostic | undefined {
  const from = parseAddress(m.from);
  if (from.key !== undefined || !config.resources.has(`${from.type}.${from.name}`)) return undefined;
  return diagnostic(
    { address: m.from },
    'Moved object still exists',
    `This statement declares a move from ${m.from}, but that resource is still declared in the configuration. Remove the resource block, or the moved block.`,
  );
}

function hasAny(state: StateFile, address: string): boolean {
  const a = parseAddress(address);
  if (a.key !== undefined) return state.has(address);
  return state
    .instances()
    .some((e) => e.addr.mode === a.mode && e.addr.type === a.type && e.addr.name === a.name);
}

/** The original address of what now sits at `to`, following chains of moves (a -> b -> c). */
function previousOf(previous: Map<string, string>, m: PlannedMove, to: string): string {
  const from = parseAddress(m.from).key !== undefined ? m.from : `${m.from}${to.slice(m.to.length)}`;
  const earlier = previous.get(from);
  previous.delete(from);
  return earlier ?? from;
}
