/**
 * The apply of a registry resource, action by action, and what to report when it fails half way: the state
 * that exists at that moment (a replace whose destroy went through leaves nothing; a create that made the
 * object but failed waiting for it leaves the object), so the engine records the truth and the next plan
 * starts from it.
 */
import type { Action, PlannedChange, State } from '../resource';
import { isUnknown } from '../values';
import { applyFailure, type Redactor } from './redact';

export interface ApplySteps {
  /** `record` notes an object that exists before create has finished (e.g. established, not yet ACTIVE). */
  create(planned: State, record: (state: State) => void): Promise<State>;
  update(prior: State, planned: State): Promise<State>;
  destroy(prior: State): Promise<void>;
}

export async function runApply(
  change: PlannedChange,
  steps: ApplySteps,
  operation: (action: Action) => string,
  redactor: Redactor,
): Promise<State | null> {
  const { action, prior, planned } = change;
  let current: State | null = prior;
  const record = (s: State): void => {
    current = s;
  };
  try {
    switch (action) {
      case 'noop':
        return planned;
      case 'delete':
        await steps.destroy(prior!);
        return null;
      case 'create':
        return await steps.create(planned!, record);
      case 'replace':
        await steps.destroy(prior!);
        current = null;
        return await steps.create(planned!, record);
      case 'update':
        return await steps.update(prior!, planned!);
    }
  } catch (err) {
    throw applyFailure(operation(action), err, redactor, current);
  }
}

/** `creating`, `updating`, `deleting`, `replacing`: the verb of an action in messages. */
export function verb(action: Action): string {
  return {
    noop: 'keeping',
    create: 'creating',
    update: 'updating',
    replace: 'replacing',
    delete: 'deleting',
  }[action];
}

/** A planned state with the values still unknown set to null: what can be recorded before they are known. */
export function settled(planned: State): State {
  return Object.fromEntries(Object.entries(planned).map(([k, v]) => [k, isUnknown(v) ? null : v]));
}
