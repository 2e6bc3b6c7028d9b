/**
 * Applying a plan: every instance change runs through its handler in dependency order (deletes in
 * reverse), at most `parallelism` at once. Each completed resource is written to state at once, so a
 * kill at any moment loses at most what was in flight. A failure skips only what depends on it.
 * Values not known at plan time are resolved from what has been applied, and such instances are
 * planned again with the now-known configuration before they apply.
 */
import {
  ConfigError,
  checkPostconditions,
  createStackScope,
  diagnosticFromError,
  evaluateOutput,
  evaluateProviderConfig,
  evaluateResourceConfig,
  expandResource,
  instancesOf,
  type InstanceKey,
  type ResourceConfig,
  type StackConfig,
} from '../config';
import type { EvalScope } from '../expressions/evaluate';
import { Graph, walk } from '../graph';
import type { ApplyContext, PlannedChange, ProgressEvent, State } from '../../provider/resource';
import { ResourceApplyError, errorMessage } from '../../provider/common/errors';
import { containsUnknown, isUnknown, UNKNOWN } from '../../provider/values';
import type { ProviderSet } from '../providers';
import { providerConfigAddress, type InstanceObject, type StateFile, type StateWriter } from '../state';
import type { DataPlan, InstancePlan, StackPlan } from '../plan/types';
import { ValueBook } from '../plan/values';
import { recordedPlanned, recordedState } from '../terraform-form';

export interface ApplyOptions {
  plan: StackPlan;
  config: StackConfig;
  state: StateFile;
  writer: StateWriter;
  providers: ProviderSet;
  parallelism?: number;
  /** Once aborted, nothing new starts; what runs finishes and is saved. */
  signal?: AbortSignal;
  /** Aborts what is running too (the second Ctrl-C). */
  hardSignal?: AbortSignal;
  onStart?: (ip: InstancePlan) => void;
  onProgress?: (address: string, e: ProgressEvent) => void;
  onDone?: (ip: InstancePlan, outcome: 'ok' | 'failed', error?: unknown) => void;
}

export interface ApplyResult {
  created: string[];
  updated: string[];
  replaced: string[];
  destroyed: string[];
  failed: { address: string; constructPath?: string; message: string }[];
  /** Not attempted because something they depend on failed, or the run was interrupted. */
  skipped: { address: string; reason: string }[];
  interrupted: boolean;
  outputs: Record<string, { value: unknown; sensitive: boolean }>;
}

/**
 * A replace (without create_before_destroy) is two nodes, as in Terraform: its destroy runs in
 * destroy order (after the destroys of what depends on it), its create in create order. One node
 * could not do both when a dependency is replaced too: the namespace's old object can only go once
 * the job in it is gone, and the job's new object only comes once the new namespace exists.
 */
type Part = 'whole' | 'destroy' | 'create';
type Node = { kind: 'instance'; ip: InstancePlan; part: Part } | { kind: 'data'; dp: DataPlan };

const DESTROY_SUFFIX = ' (destroy)';

function blockOf(
  config: StackConfig,
  resourceAddress: string,
  mode: 'managed' | 'data',
): ResourceConfig | undefined {
  return mode === 'managed' ? config.resources.get(resourceAddress) : config.dataSources.get(resourceAddress);
}

export async function applyPlan(opts: ApplyOptions): Promise<ApplyResult> {
  const { plan, config, state, writer, providers } = opts;
  const result: ApplyResult = {
    created: [],
    updated: [],
    replaced: [],
    destroyed: [],
    failed: [],
    skipped: [],
    interrupted: false,
    outputs: {},
  };

  // What every resource is worth before anything applies: its state (or the plan's view of it).
  const book = new ValueBook();
  const declare = (r: ResourceConfig, scope: EvalScope): void => {
    try {
      book.declare(r.address, expandResource(r, scope).mode);
    } catch {
      book.declare(r.address, 'single');
    }
  };
  const scope = (): EvalScope =>
    createStackScope({
      config,
      variables: plan.variables,
      resolveReference: (ref) => book.resolve(`${ref.mode === 'data' ? 'data.' : ''}${ref.type}.${ref.name}`),
    });
  for (const r of config.resources.values()) declare(r, scope());
  for (const r of config.dataSources.values()) declare(r, scope());
  for (const e of state.entries()) {
    const ra = `${e.addr.mode === 'data' ? 'data.' : ''}${e.addr.type}.${e.addr.name}`;
    book.set(ra, e.addr.key as InstanceKey, e.object.attributes);
  }
  for (const dp of plan.data) book.set(dp.resourceAddress, dp.key, dp.value ?? UNKNOWN);
  for (const ip of plan.instances) {
    if (ip.change.action !== 'noop' && ip.change.action !== 'delete')
      book.set(ip.resourceAddress, ip.key, ip.change.planned ?? UNKNOWN);
  }

  // Providers the plan used.
  for (const p of new Set([...plan.instances.map((i) => i.provider), ...plan.data.map((d) => d.provider)])) {
    if (providers.isConfigured(p)) continue;
    const block = config.providers.get(p);
    const name = p.split('.')[0]!;
    const cfg = block ? evaluateProviderConfig(block, scope()) : {};
    const diags = providers.configure(p, name, cfg);
    const err = diags.find((d) => d.severity === 'error');
    if (err) throw new Error(`provider ${p}: ${err.summary}${err.detail ? `: ${err.detail}` : ''}`);
  }

  // The apply graph: one node per instance change and per deferred data read.
  const g = new Graph<Node>();
  const byResource = new Map<string, string[]>();
  const addToResource = (ra: string, id: string): void => {
    let ids = byResource.get(ra);
    if (!ids) byResource.set(ra, (ids = []));
    ids.push(id);
  };
  for (const ip of plan.instances) {
    if (ip.change.action === 'noop' && !ip.stateOnly) continue;
    if (ip.change.action === 'replace' && !ip.createBeforeDestroy) {
      const destroyId = `${ip.address}${DESTROY_SUFFIX}`;
      g.addNode(destroyId, { kind: 'instance', ip, part: 'destroy' });
      g.addNode(ip.address, { kind: 'instance', ip, part: 'create' });
      g.addDependency(ip.address, destroyId);
      addToResource(ip.resourceAddress, destroyId);
    } else g.addNode(ip.address, { kind: 'instance', ip, part: 'whole' });
    addToResource(ip.resourceAddress, ip.address);
  }
  for (const dp of plan.data) {
    if (!dp.deferred || plan.mode === 'destroy') continue;
    g.addNode(dp.address, { kind: 'data', dp });
    addToResource(dp.resourceAddress, dp.address);
  }
  const isDelete = (id: string): boolean => {
    const n = g.node(id);
    return n.kind === 'instance' && (n.ip.change.action === 'delete' || n.part === 'destroy');
  };
  for (const id of g.ids()) {
    const n = g.node(id);
    const deps = n.kind === 'instance' ? n.ip.dependencies : (n.dp.dependencies ?? depsOfData(config, n.dp));
    for (const dep of deps) {
      for (const depId of byResource.get(dep) ?? []) {
        if (depId === id) continue;
        // Deletes run in reverse: what depends on something is deleted before it, and before
        // that something is created anew or updated (Terraform's order: a dependant's destroy
        // comes before its dependency's create or update).
        if (isDelete(id)) g.addDependency(depId, id);
        else if (!isDelete(depId)) g.addDependency(id, depId);
      }
    }
  }

  const recorded = (ip: InstancePlan, next: State): State => {
    const block = providers.block(ip.providerName, ip.type);
    return block ? recordedState(block, next, ip.recordAs) : next;
  };
  const objectOf = (ip: InstancePlan, next: State): InstanceObject => ({
    schemaVersion: ip.schemaVersion,
    attributes: recorded(ip, next),
    sensitiveAttributes: ip.sensitive
      .filter((k) => next[k] !== undefined && next[k] !== null)
      .map((k) => [k]),
    // No private data: the plan's (the job it planned, its check-and-set index) was for this apply
    // only, and the handlers' apply returns none to keep, as the Terraform plugin also records.
    dependencies: ip.dependencies,
    ...(ip.createBeforeDestroy ? { createBeforeDestroy: true } : {}),
  });
  const providerOf = (ip: InstancePlan): { provider: string } => ({
    provider: providerConfigAddress(
      ip.providerName,
      ip.provider.includes('.') ? ip.provider.split('.')[1] : undefined,
    ),
  });

  const record = (ip: InstancePlan, next: State | null) => (s: StateFile) => {
    if (next === null) s.remove(ip.address);
    else s.set(ip.address, objectOf(ip, next), providerOf(ip));
  };
  const persist = (ip: InstancePlan, next: State | null): Promise<void> => writer.update(record(ip, next));
  /** For a resource that finished: in the state now, on disk shortly (see StateWriter.updateSoon). */
  const persistSoon = (ip: InstancePlan, next: State | null): void => writer.updateSoon(record(ip, next));

  /** Replaces whose destroy half is done and whose create half is not (yet). */
  const halfReplaced = new Set<string>();

  /** The change one node applies: a replace's halves are a delete and a create. */
  const changeOf = (ip: InstancePlan, part: Part): PlannedChange =>
    part === 'destroy'
      ? { ...ip.change, action: 'delete', planned: null }
      : part === 'create'
        ? { ...ip.change, action: 'create', prior: null }
        : ip.change;

  const runInstance = async (ip: InstancePlan, part: Part): Promise<void> => {
    if (ip.stateOnly) {
      const kept = ip.stateOnly === 'record' ? ip.change.prior : null;
      await persist(ip, kept);
      if (kept) book.set(ip.resourceAddress, ip.key, kept);
      else book.delete(ip.resourceAddress, ip.key);
      return;
    }
    const handler = providers.resource(ip.provider, ip.type);
    let change: PlannedChange = changeOf(ip, part);
    let recordAs = ip.recordAs;
    const block = blockOf(config, ip.resourceAddress, 'managed');
    // Planned again only when the plan could not be made for real: its configuration had values known
    // only after apply, or it is the create half of a replace (the destroy half changed the object,
    // and with it the index the create must check).
    const replan = ip.configKnown !== true || part === 'create';
    if (replan && block && change.action !== 'delete' && change.planned && containsUnknown(change.planned)) {
      // Now that what it depends on exists, its configuration is known: plan it for real.
      const s = scope();
      const inst = instancesOf(expandResource(block, s)).find((i) => i.key === ip.key);
      const cfg = evaluateResourceConfig(block, s, inst);
      if (containsUnknown(cfg))
        throw new Error(`${ip.address}: configuration still has unknown values at apply time`);
      const replacing =
        part === 'create' && ip.change.prior
          ? { prior: ip.change.prior, destroyFirst: !ip.createBeforeDestroy }
          : undefined;
      const replanned = await handler.plan({
        prior: change.prior,
        config: cfg,
        ...(replacing ? { replacing } : {}),
      });
      const err = replanned.diagnostics.find((d) => d.severity === 'error');
      if (err) throw new Error(`${err.summary}${err.detail ? `: ${err.detail}` : ''}`);
      change =
        replanned.action === 'noop' && change.action !== 'noop'
          ? { ...replanned, action: 'noop' }
          : replanned;
      const schema = providers.block(ip.providerName, ip.type);
      if (schema && replanned.planned) recordAs = recordedPlanned(schema, replanned.planned, cfg);
    }
    const ctx: ApplyContext = {
      ...(opts.hardSignal ? { signal: opts.hardSignal } : {}),
      onProgress: (e) => opts.onProgress?.(ip.address, e),
    };
    // A kill during the create would otherwise lose the object: record that it may exist first.
    if (change.action === 'create' && change.planned)
      await writer.recordPending(
        ip.address,
        objectOf({ ...ip, change }, knownOnly(change.planned) as State),
        providerOf(ip),
      );
    opts.onStart?.(part === 'whole' ? ip : { ...ip, change });
    let next: State | null;
    try {
      if (change.action === 'replace' && ip.createBeforeDestroy) {
        next = await handler.apply({ ...change, action: 'create', prior: null }, ctx);
        await persist(ip, next);
        await handler.apply({ ...change, action: 'delete', planned: null }, ctx);
      } else {
        next = await handler.apply(change, ctx);
      }
    } catch (err) {
      if (err instanceof ResourceApplyError) persistSoon(ip, err.state);
      throw err;
    }
    persistSoon({ ...ip, change, ...(recordAs ? { recordAs } : {}) }, next);
    if (next) book.set(ip.resourceAddress, ip.key, next);
    else book.delete(ip.resourceAddress, ip.key);
    if (block && next) {
      const post = checkPostconditions(
        block,
        scope(),
        next,
        instancesOf(expandResource(block, scope())).find((i) => i.key === ip.key),
      );
      if (post.failures.length > 0) throw new ConfigError(post.failures);
    }
    if (part === 'destroy') {
      halfReplaced.add(ip.address);
      return;
    }
    halfReplaced.delete(ip.address);
    const bucket =
      part === 'create'
        ? result.replaced
        : change.action === 'create'
          ? result.created
          : change.action === 'update'
            ? result.updated
            : change.action === 'replace'
              ? result.replaced
              : change.action === 'delete'
                ? result.destroyed
                : undefined;
    bucket?.push(ip.address);
  };

  const runData = async (dp: DataPlan): Promise<void> => {
    const block = blockOf(config, dp.resourceAddress, 'data');
    if (!block) return;
    const s = scope();
    const inst = instancesOf(expandResource(block, s)).find((i) => i.key === dp.key);
    const cfg = evaluateResourceConfig(block, s, inst);
    const value = await providers.dataSource(dp.provider, dp.type).read(cfg);
    book.set(dp.resourceAddress, dp.key, value);
    await writer.update((st) =>
      st.set(
        dp.address,
        {
          schemaVersion: 0,
          attributes: providers.dataState(dp.providerName, dp.type, value),
          sensitiveAttributes: dp.sensitive.map((k) => [k]),
        },
        {
          provider: providerConfigAddress(
            dp.providerName,
            dp.provider.includes('.') ? dp.provider.split('.')[1] : undefined,
          ),
        },
      ),
    );
  };

  const walked = await walk(g, {
    parallelism: opts.parallelism ?? 10,
    ...(opts.signal ? { signal: opts.signal } : {}),
    visit: async (node) => {
      if (node.kind === 'instance' && node.ip.stateOnly) await runInstance(node.ip, node.part);
      else if (node.kind === 'instance') {
        const shown = node.part === 'whole' ? node.ip : { ...node.ip, change: changeOf(node.ip, node.part) };
        try {
          await runInstance(node.ip, node.part);
          opts.onDone?.(shown, 'ok');
        } catch (err) {
          opts.onDone?.(shown, 'failed', err);
          throw err;
        }
      } else await runData(node.dp);
    },
    onError: (node, err, id) => {
      const constructPath = node.kind === 'instance' ? node.ip.constructPath : node.dp.constructPath;
      const msg = err instanceof ConfigError ? err.message : errorMessage(err);
      const address = node.kind === 'instance' ? node.ip.address : id;
      result.failed.push({ address, ...(constructPath ? { constructPath } : {}), message: msg });
    },
    onSkip: (node, skip, id) => {
      // The create half of a replace whose destroy failed: that failure already says it all.
      if (node.kind === 'instance' && skip.failedDependency === `${node.ip.address}${DESTROY_SUFFIX}`) return;
      result.skipped.push({
        address: id,
        reason:
          skip.reason === 'aborted'
            ? 'interrupted'
            : `depends on ${skip.failedDependency ?? 'a failed resource'}`,
      });
    },
  });
  result.interrupted = walked.skipped.some((s) => s.reason === 'aborted');
  // The old object of a replace that did not finish is gone all the same.
  result.destroyed.push(...halfReplaced);

  // A destroy leaves no data source behind either, as terraform's does.
  if (plan.mode === 'destroy' && result.failed.length === 0 && !result.interrupted) {
    await writer.update((st) => {
      for (const e of st.entries()) if (e.addr.mode === 'data') st.remove(e.address);
    });
  }
  // Data sources that are not deferred are recorded as read at plan time.
  if (plan.mode !== 'destroy') {
    await writer.update((st) => {
      for (const dp of plan.data) {
        if (dp.deferred || !dp.value) continue;
        st.set(
          dp.address,
          {
            schemaVersion: 0,
            attributes: providers.dataState(dp.providerName, dp.type, dp.value),
            sensitiveAttributes: dp.sensitive.map((k) => [k]),
          },
          {
            provider: providerConfigAddress(
              dp.providerName,
              dp.provider.includes('.') ? dp.provider.split('.')[1] : undefined,
            ),
          },
        );
      }
    });
  }

  // Outputs from what now exists (skipped when something failed and the value cannot be computed).
  await writer.update((st) => {
    for (const name of Object.keys(st.outputs()))
      if (!config.outputs.has(name) || plan.mode === 'destroy') st.removeOutput(name);
    if (plan.mode === 'destroy') return;
    for (const o of config.outputs.values()) {
      try {
        const value = evaluateOutput(o, scope());
        if (containsUnknown(value)) continue;
        st.setOutput(o.name, value, { sensitive: o.sensitive });
        result.outputs[o.name] = { value, sensitive: o.sensitive };
      } catch (err) {
        if (result.failed.length === 0) {
          result.failed.push({
            address: `output.${o.name}`,
            message: diagnosticFromError({ address: `output.${o.name}` }, err).summary,
          });
        }
      }
    }
  });
  await writer.settle();
  return result;
}

/** A planned value with what is not known yet as null (as Terraform records unknowns it never learns). */
function knownOnly(v: unknown): unknown {
  if (isUnknown(v)) return null;
  if (Array.isArray(v)) return v.map(knownOnly);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, knownOnly(x)]));
  return v;
}

function depsOfData(config: StackConfig, dp: DataPlan): string[] {
  const block = config.dataSources.get(dp.resourceAddress);
  if (!block) return [];
  return block.dependsOn.map((d) => `${d.mode === 'data' ? 'data.' : ''}${d.type}.${d.name}`);
}
