/**
 * What every plan step shares: the options, the plan being filled in, the values learnt so far and
 * the configuration graph. One object per planStack call; the steps under ./steps read and add to it.
 */
import { createHash } from 'node:crypto';
import {
  createStackScope,
  instanceAddress,
  stackPaths,
  type ConfigDiagnostic,
  type InstanceKey,
  type ResourceConfig,
  type StackConfig,
} from '../config';
import type { EvalScope } from '../expressions/evaluate';
import { buildConfigGraph, type ConfigNode, type Graph } from '../graph';
import type { ProviderSet } from '../providers';
import type { StateFile } from '../state';
import { BatchRefresh } from './batch-refresh';
import type { PlanOptions } from './plan';
import { targetClosure } from './targets';
import type { InstancePlan, StackPlan } from './types';
import { ValueBook } from './values';

export interface ManagedStateEntry {
  address: string;
  addr: { key?: InstanceKey };
}

export interface PlanContext {
  readonly opts: PlanOptions;
  readonly config: StackConfig;
  readonly state: StateFile;
  readonly providers: ProviderSet;
  readonly mode: 'normal' | 'destroy' | 'refresh-only';
  /** Read every instance from the cluster first. */
  readonly refresh: boolean;
  readonly plan: StackPlan;
  readonly diagnostics: ConfigDiagnostic[];
  /** Resource and data values as planning learns them (UNKNOWN where not yet known). */
  readonly book: ValueBook;
  readonly plannedByAddress: Map<string, InstancePlan>;
  /** The state's managed instances by resource address. */
  readonly managedInState: Map<string, ManagedStateEntry[]>;
  /** The configuration graph, limited to the targets and what they depend on when targeting. */
  readonly graph: Graph<ConfigNode>;
  readonly targetSet: Set<string> | undefined;
  /** New instance address -> the address the state had it under before moved blocks. */
  readonly previous: ReadonlyMap<string, string>;
  /** Import IDs by target instance address (targets the state does not have yet). */
  readonly imports: Map<string, string>;
  /** Refreshes each resource type's instances at once where its handler can (see batch-refresh.ts). */
  readonly batchRefresh: BatchRefresh;
  /** An expression scope over the variables and the values learnt so far. */
  scope(): EvalScope;
  /** Records an error diagnostic: the plan must not be applied. */
  fail(d: ConfigDiagnostic): void;
  /** The resources and data sources a graph node depends on, sorted. */
  graphDeps(id: string): string[];
}

export function emptyPlan(opts: PlanOptions): StackPlan {
  return {
    stack: opts.stack,
    mode: opts.mode ?? 'normal',
    stateLineage: opts.state.lineage,
    stateSerial: opts.state.serial,
    configHash: createHash('sha256').update(opts.configText).digest('hex'),
    instances: [],
    data: [],
    outputs: [],
    outputChanges: [],
    variables: {},
    diagnostics: [],
    errored: false,
    createdAt: new Date().toISOString(),
    ...(opts.targets && opts.targets.length > 0 ? { targets: opts.targets } : {}),
  };
}

export function createPlanContext(
  opts: PlanOptions,
  plan: StackPlan,
  variables: Record<string, unknown>,
  moved: { state: StateFile; previous: ReadonlyMap<string, string> },
): PlanContext {
  const { config } = opts;
  const book = new ValueBook();
  // path.* is the same in every scope of the plan (one per resource block): resolved once.
  const paths = stackPaths(config);
  let graph = buildConfigGraph(config);
  const targetSet = targetClosure(opts.targets, graph);
  if (targetSet) graph = graph.subgraph([...targetSet]);
  return {
    opts,
    config,
    state: moved.state,
    providers: opts.providers,
    mode: opts.mode ?? 'normal',
    refresh: opts.refresh !== false,
    plan,
    diagnostics: plan.diagnostics,
    book,
    plannedByAddress: new Map(),
    managedInState: managedByResource(moved.state),
    graph,
    targetSet,
    previous: moved.previous,
    imports: new Map(),
    batchRefresh: new BatchRefresh({ state: opts.state, targetSet }),
    scope: () =>
      createStackScope({
        config,
        ...(paths ? { path: paths } : {}),
        variables,
        planTimestamp: plan.createdAt,
        resolveReference: (ref) =>
          book.resolve(`${ref.mode === 'data' ? 'data.' : ''}${ref.type}.${ref.name}`),
      }),
    fail: (d) => {
      plan.diagnostics.push(d);
      plan.errored = true;
    },
    graphDeps: (id) =>
      graph
        .dependenciesOf(id)
        .filter((d) => config.resources.has(d) || config.dataSources.has(d))
        .sort(),
  };
}

/**
 * The state's managed instances by resource, listed once: listing them per resource made planning
 * quadratic in the size of the stack.
 */
function managedByResource(state: StateFile): Map<string, ManagedStateEntry[]> {
  const out = new Map<string, ManagedStateEntry[]>();
  for (const e of state.instances()) {
    if (e.addr.mode !== 'managed') continue;
    const ra = `${e.addr.type}.${e.addr.name}`;
    let list = out.get(ra);
    if (!list) out.set(ra, (list = []));
    list.push({ address: e.address, addr: e.addr });
  }
  return out;
}

/** Where a diagnostic about a resource (or one of its instances) points. */
export function ctxOf(r: ResourceConfig, key?: InstanceKey): { address: string; constructPath?: string } {
  return {
    address: key === undefined ? r.address : instanceAddress(r, key),
    ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
  };
}

const NO_SERVICE_DIFF = { serviceDiff: false } as const;

/** What a handler's plan request says of service diffs: nothing (the default) unless they are not wanted. */
export function serviceDiffOf(ctx: PlanContext): { serviceDiff?: false } {
  return ctx.opts.serviceDiff === false ? NO_SERVICE_DIFF : {};
}
