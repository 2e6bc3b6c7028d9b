/**
 * Resource state in the form terraform records it, so that one state file reads as unchanged under
 * both engines. Terraform holds every argument to its configured value (an unset optional argument is
 * null, where a handler may normalise it to "" or {}), keeps the prior form of a refreshed value that
 * only changed from one empty form to another, and records absent nested blocks as empty lists. The
 * plugin applies these rules to what the handlers answer (src/plugin/conform.ts); the engine applies
 * the same ones to what it records, and rewrites a state an older engine recorded otherwise.
 */
import {
  appliedAttribute,
  attributeNames,
  conformApplied,
  conformPlanned,
  conformRefreshed,
} from '../plugin/conform';
import type { Config, PlannedChange, State } from '../provider/resource';
import type { TerraformBlock } from '../provider/schema';
import { sameJsonText } from './same-json-text';

/** The planned state terraform would record for `config`: arguments as configured, the rest as planned. */
export function recordedPlanned(block: TerraformBlock, planned: State, config: Config): State {
  return conformPlanned(block, planned, config);
}

/** What to record after an apply that returned `state`, for a plan recorded as `planned`. */
export function recordedState(block: TerraformBlock, state: State, planned: State | undefined): State {
  return planned ? conformApplied(block, state, planned) : state;
}

/** A refreshed state that keeps the prior form of values that are empty both before and after. */
export function refreshedState(block: TerraformBlock, read: State, prior: State): State {
  return conformRefreshed(block, read, prior);
}

/**
 * For an instance that plans no change: its state in terraform's form, when the stored one differs
 * (written by an older engine with "" for unset arguments); undefined when there is nothing to upgrade.
 */
export function upgradedState(
  block: TerraformBlock,
  stored: State,
  refreshed: State,
  planned: State,
): State | undefined {
  // Attribute by attribute: the whole form is only built for a state that needs it (rarely).
  for (const name of attributeNames(block)) {
    if (!sameJsonText(stored[name] ?? null, appliedAttribute(block, name, refreshed, planned)))
      return conformApplied(block, refreshed, planned);
  }
  return undefined;
}

/**
 * What a planned change records: `recordAs`, the planned state in terraform's form, and `upgrade`, the
 * state to write in place of a stored one in an older form when nothing else changes.
 */
export function recordForm(
  block: TerraformBlock,
  change: PlannedChange,
  config: Config,
  stored: State | undefined,
): { recordAs?: State; upgrade?: State } {
  if (!change.planned) return {};
  const recordAs = recordedPlanned(block, change.planned, config);
  if (change.action !== 'noop' || !change.prior || !stored) return { recordAs };
  const upgrade = upgradedState(block, stored, change.prior, recordAs);
  return upgrade ? { recordAs, upgrade } : { recordAs };
}
