/**
 * An orphan at plan time: an instance the state has and the configuration no longer has (or no
 * longer under this key). It plans a delete, or, when the cluster no longer has it, a state-only forget.
 */
import type { InstanceKey } from '../../config';
import type { PlannedChange } from '../../../provider/resource';
import { recordInstance } from './record-instance';
import { forgetChange, removedBlockFor } from './removed';
import { adoptionNote, pendingCreate, refreshPrior, type ResourceStep } from './resource-step';

export async function planOrphanInstance(
  step: ResourceStep,
  address: string,
  key: InstanceKey | undefined,
): Promise<void> {
  const prior = await refreshPrior(step, address);
  if (!prior) {
    // Already gone: nothing to delete; the apply drops it from the state.
    const change: PlannedChange = { action: 'noop', prior: null, planned: null, diagnostics: [] };
    recordInstance(step, key, address, change, { orphan: true, stateOnly: 'forget' });
    return;
  }
  if (step.ctx.mode === 'normal' && removedBlockFor(step.ctx, address)?.destroy === false) {
    recordInstance(step, key, address, forgetChange(prior), {
      orphan: true,
      stateOnly: 'forget',
      forget: true,
    });
    return;
  }
  const change = await step.handler.plan({ prior, config: null });
  if (pendingCreate(step, address)) adoptionNote(step, key, address);
  recordInstance(step, key, address, change, { orphan: true });
}
