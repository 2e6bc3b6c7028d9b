/**
 * What the plan steps of one resource block share: its handler, provider, dependencies and schema,
 * and reading an instance's prior object from the state and the cluster.
 */
import { diagnostic, type InstanceKey, type ResourceConfig } from '../../config';
import type { ResourceHandler, State } from '../../../provider/resource';
import type { PlanContext } from '../context';
import { ctxOf } from '../context';
import { refreshedState } from '../../terraform-form';
import type { BatchKey } from '../batch-refresh';
import { providerAddressOf, providerOfState } from './diagnostics';
import { noteDrift } from '../drift';

export interface ResourceStep {
  readonly ctx: PlanContext;
  readonly r: ResourceConfig;
  readonly handler: ResourceHandler;
  /** Provider configuration address: `sched` or `sched.west`. */
  readonly providerAddr: string;
  /** A block only the state still has (removed from the configuration): every instance goes. */
  readonly removed: boolean;
  readonly dependencies: string[];
  readonly sensitive: string[];
  readonly schemaVersion: number;
  /** The resource type's schema block: the state records values in terraform's form through it. */
  readonly block: ReturnType<PlanContext['providers']['block']>;
  /** What the plan's batch refresh needs to find this block's batch. */
  readonly batchKey: BatchKey;
}

function providerAddrOfState(provider: string, type: string): string {
  const p = providerOfState(provider, type.split('_')[0]!);
  return `${p.name}${p.alias ? `.${p.alias}` : ''}`;
}

export function createResourceStep(ctx: PlanContext, r: ResourceConfig): ResourceStep {
  const providerAddr = providerAddressOf(r);
  const handler = ctx.providers.resource(providerAddr, r.type);
  const schemaVersion = ctx.providers.schemaVersion(r.provider.name, r.type);
  return {
    ctx,
    r,
    handler,
    providerAddr,
    removed: !ctx.config.resources.has(r.address),
    dependencies: ctx.graphDeps(r.address),
    sensitive: ctx.providers.sensitive(r.provider.name, r.type, 'managed'),
    schemaVersion,
    block: ctx.providers.block(r.provider.name, r.type),
    batchKey: { providerAddr, type: r.type, handler, schemaVersion, providerAddrOfState },
  };
}

/** The instance's object as the state has it (upgraded to the current schema), refreshed from the cluster. */
export async function refreshPrior(step: ResourceStep, address: string): Promise<State | null> {
  const stored = step.ctx.state.peek(address);
  if (!stored) return null;
  // An interrupted create is always looked up: only the cluster knows whether it happened.
  const batched =
    step.ctx.refresh && !stored.createPending
      ? await step.ctx.batchRefresh.lookup(step.batchKey, address)
      : undefined;
  // The batch's copy of this very object is the prior: a second copy was only compared with it.
  const prior = batched?.source === stored ? batched.prior : storedPrior(step, address);
  if (!step.ctx.refresh && !stored.createPending) return prior;
  if (stored.createPending) return conformed(step, await step.handler.read(prior), prior);
  const read = batched !== undefined ? batched.refreshed : await step.handler.read(prior);
  const refreshed = conformed(step, read, prior);
  noteDrift(step, address, prior, refreshed);
  return refreshed;
}

/** A copy of the instance's recorded attributes, upgraded to the current schema. */
function storedPrior(step: ResourceStep, address: string): State {
  const obj = step.ctx.state.get(address)!;
  return step.handler.upgrade && obj.schemaVersion < step.schemaVersion
    ? step.handler.upgrade(obj.attributes, obj.schemaVersion)
    : obj.attributes;
}

function conformed(step: ResourceStep, read: State | null, prior: State): State | null {
  return read && step.block ? refreshedState(step.block, read, prior) : read;
}

export function pendingCreate(step: ResourceStep, address: string): boolean {
  return step.ctx.state.isCreatePending(address);
}

export function adoptionNote(step: ResourceStep, key: InstanceKey, address: string): void {
  step.ctx.diagnostics.push({
    ...diagnostic(
      ctxOf(step.r, key),
      'Recording an object an interrupted apply created',
      `the last apply stopped while creating ${address}; the object exists, so it is recorded in the state (and updated if it differs) instead of created again`,
    ),
    severity: 'warning',
  });
}
