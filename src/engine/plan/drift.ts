/**
 * Drift: an instance whose refreshed object differs from what the state recorded was changed outside
 * the configuration (or deleted outside it when the refresh finds nothing). Terraform reports these
 * as `resource_drift` in the plan JSON; the plan keeps them so a saved plan shows them too.
 */
import { isDeepStrictEqual } from 'node:util';
import type { State } from '../../provider/resource';
import { parseAddress } from '../state/address';
import type { ResourceStep } from './steps/resource-step';
import type { DriftedInstance } from './types';

/** Records the drift of one refreshed instance, if any. */
export function noteDrift(step: ResourceStep, address: string, prior: State, refreshed: State | null): void {
  if (refreshed !== null && isDeepStrictEqual(prior, refreshed)) return;
  const marks = step.ctx.state.get(address)?.sensitiveAttributes ?? [];
  const { key } = parseAddress(address);
  const drifted: DriftedInstance = {
    address,
    type: step.r.type,
    name: step.r.name,
    ...(key !== undefined ? { key } : {}),
    providerName: step.r.provider.name,
    action: refreshed === null ? 'delete' : 'update',
    before: prior,
    after: refreshed,
    sensitive: [...marks, ...step.sensitive.map((k) => [k])],
  };
  (step.ctx.plan.drift ??= []).push(drifted);
}

/** The plan's drift in address order (instances are refreshed concurrently). */
export function sortDrift(drift: DriftedInstance[] | undefined): void {
  drift?.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}
