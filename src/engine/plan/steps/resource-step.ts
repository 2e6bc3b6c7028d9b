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
  const obj = step.ctx.state.get(address);
  if (!obj) return null;
  let prior: State = obj.attributes;
  if (step.handler.upgrade && obj.schemaVersion < step.schemaVersion)
    prior = step.handler.upgrade(prior, obj.schemaVersion);
  // An interrupted create is always looked up: only the cluster knows whether it happened.
  if (!step.ctx.refresh && !obj.createPending) return prior;
  if (obj.createPending) return conformed(step, await step.handler.read(prior), prior);
  const batched = await step.ctx.batchRefresh.lookup(step.batchKey, address);
  const refreshed = conformed(step, batched !== undefined ? batched : await step.handler.read(prior), prior);
  noteDrift(step, address, prior, refreshed);
  return refreshed;
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
