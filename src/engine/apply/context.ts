/**
 * What every apply step shares: the options, the result being filled in, the values of what exists
 * (state, then what applies) and writing instances to the state.
 */
import {
  createStackScope,
  stackPaths,
  expandResource,
  type InstanceKey,
  type ResourceConfig,
  type StackConfig,
} from '../config';
import type { EvalScope } from '../expressions/evaluate';
import type { PlannedChange, State } from '../../provider/resource';
import { UNKNOWN } from '../../provider/values';
import { providerConfigAddress, type AheadLine, type InstanceObject, type StateFile } from '../state';
import { appliedMarks, dedupe, namePaths, referencePaths, sensitiveVariableTexts } from '../plan/sensitivity';
import type { InstancePlan } from '../plan/types';
import { recordedState } from '../terraform-form';
import { ValueBook } from '../plan/values';
import { SignalFanout } from '../../common/signal-fanout';
import type { ApplyOptions, ApplyResult } from './apply';

export interface ApplyContext {
  readonly opts: ApplyOptions;
  readonly config: StackConfig;
  readonly result: ApplyResult;
  /** What every resource is worth: its state or planned value, then what applying it returned. */
  readonly book: ValueBook;
  /** Replaces whose destroy half is done and whose create half is not (yet). */
  readonly halfReplaced: Set<string>;
  /** The sensitive variables' values: an applied value that holds one is marked where it holds it. */
  readonly secrets: string[];
  /** The hard interrupt, handed to each running handler as a child signal of its own (see SignalFanout). */
  readonly hardSignals: SignalFanout;
  /** Creates journaled before they start (see steps/pending.ts), by address; null once started. */
  readonly journaled: Map<string, { change: PlannedChange; obj: InstanceObject; line: AheadLine } | null>;
  /** An expression scope over the plan's variables and the values known now. */
  scope(): EvalScope;
}

export function emptyResult(): ApplyResult {
  return {
    created: [],
    updated: [],
    replaced: [],
    destroyed: [],
    imported: [],
    forgotten: [],
    failed: [],
    skipped: [],
    interrupted: false,
    outputs: {},
  };
}

export function createApplyContext(opts: ApplyOptions): ApplyContext {
  const { plan, config } = opts;
  const book = new ValueBook();
  // The same for every scope: worked out once, not per resource seeded or postcondition checked.
  const path = stackPaths(config);
  const scope = (): EvalScope =>
    createStackScope({
      config,
      ...(path ? { path } : {}),
      variables: plan.variables,
      applying: true,
      planTimestamp: plan.createdAt,
      resolveReference: (ref) => book.resolve(`${ref.mode === 'data' ? 'data.' : ''}${ref.type}.${ref.name}`),
    });
  const ctx: ApplyContext = {
    opts,
    config,
    result: emptyResult(),
    book,
    halfReplaced: new Set(),
    secrets: sensitiveVariableTexts(config, plan.variables),
    hardSignals: new SignalFanout(opts.hardSignal),
    journaled: new Map(),
    scope,
  };
  seedValues(ctx);
  return ctx;
}

/** What every resource is worth before anything applies: its state (or the plan's view of it). */
function seedValues(ctx: ApplyContext): void {
  const { book, config } = ctx;
  const { plan, state } = ctx.opts;
  const declare = (r: ResourceConfig): void => {
    try {
      book.declare(r.address, expandResource(r, ctx.scope()).mode);
    } catch {
      book.declare(r.address, 'single');
    }
  };
  for (const r of config.resources.values()) declare(r);
  for (const r of config.dataSources.values()) declare(r);
  for (const e of state.entries()) {
    const ra = `${e.addr.mode === 'data' ? 'data.' : ''}${e.addr.type}.${e.addr.name}`;
    book.set(ra, e.addr.key as InstanceKey, e.object.attributes, e.object.sensitiveAttributes ?? []);
  }
  for (const dp of plan.data)
    book.set(dp.resourceAddress, dp.key, dp.value ?? UNKNOWN, namePaths(dp.sensitive));
  for (const ip of plan.instances) {
    if (ip.change.action !== 'noop' && ip.change.action !== 'delete')
      book.set(
        ip.resourceAddress,
        ip.key,
        ip.change.planned ?? UNKNOWN,
        referencePaths(ip.sensitive, ip.marks),
      );
  }
}

export function blockOf(
  config: StackConfig,
  resourceAddress: string,
  mode: 'managed' | 'data',
): ResourceConfig | undefined {
  return mode === 'managed' ? config.resources.get(resourceAddress) : config.dataSources.get(resourceAddress);
}

/** The state object an applied instance leaves. */
export function objectOf(ctx: ApplyContext, ip: InstancePlan, next: State): InstanceObject {
  const secrets = ctx.secrets;
  const block = ctx.opts.providers.block(ip.providerName, ip.type);
  return {
    schemaVersion: ip.schemaVersion,
    // Recorded as terraform records it: arguments as configured, unset ones null.
    attributes: block ? recordedState(block, next, ip.recordAs) : next,
    sensitiveAttributes: dedupe([
      ...ip.sensitive.filter((k) => next[k] !== undefined && next[k] !== null).map((k) => [k]),
      ...appliedMarks(ip.marks, ip.change.planned, next, [...secrets]),
    ]),
    // No private data: the plan's (the job it planned, its check-and-set index) was for this apply
    // only, and the handlers' apply returns none to keep, as the Terraform plugin also records.
    dependencies: ip.dependencies,
    ...(ip.createBeforeDestroy ? { createBeforeDestroy: true } : {}),
  };
}

/** The state's provider field for an instance or data read: `provider["registry/.../sched"].west`. */
export function providerOf(p: { provider: string; providerName: string }): { provider: string } {
  // Asked several times per applied instance, of the same few providers.
  const key = `${p.providerName}\u0000${p.provider}`;
  let provider = providerAddresses.get(key);
  if (provider === undefined) {
    provider = providerConfigAddress(
      p.providerName,
      p.provider.includes('.') ? p.provider.split('.')[1] : undefined,
    );
    providerAddresses.set(key, provider);
  }
  return { provider };
}

const providerAddresses = new Map<string, string>();

function record(ip: InstancePlan, obj: InstanceObject | null) {
  return (s: StateFile): void => {
    if (obj === null) s.remove(ip.address);
    else s.set(ip.address, obj, providerOf(ip));
  };
}

export function persist(ctx: ApplyContext, ip: InstancePlan, next: State | null): Promise<void> {
  return ctx.opts.writer.update(record(ip, next && objectOf(ctx, ip, next)));
}

/** For a resource that finished: in the state now, on disk shortly (see StateWriter.updateSoon). */
export function persistSoon(ctx: ApplyContext, ip: InstancePlan, next: State | null): void {
  persistObjectSoon(ctx, ip, next && objectOf(ctx, ip, next));
}

/** persistSoon with the object already made (objectOf(ctx, ip, next), or null for none). */
export function persistObjectSoon(ctx: ApplyContext, ip: InstancePlan, obj: InstanceObject | null): void {
  ctx.opts.writer.updateSoon(record(ip, obj));
}
