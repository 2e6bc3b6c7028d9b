/**
 * Planning one stack: walk the configuration graph in dependency order, configure providers, read
 * data sources, expand count/for_each, refresh each instance from the cluster, and ask its handler
 * for a planned change. Values flow to dependants as they become known (UNKNOWN where not).
 * Orphaned instances (in state, not in configuration) plan a delete. Nothing is written anywhere.
 */
import { createHash } from 'node:crypto';
import {
  ConfigError,
  checkPreconditions,
  createStackScope,
  defaultLifecycle,
  diagnostic,
  diagnosticFromError,
  evaluateOutput,
  evaluateProviderConfig,
  evaluateResourceConfig,
  expandResource,
  instanceAddress,
  instancesOf,
  isIgnoredChange,
  resolveVariables,
  type ConfigDiagnostic,
  type InstanceKey,
  type ResourceConfig,
  type StackConfig,
  type VariableInputs,
} from '../config';
import { buildConfigGraph, walk, type ConfigNode } from '../graph';
import type { EvalScope } from '../expressions/evaluate';
import { findReferences } from '../expressions/references';
import type { PlannedChange, State } from '../../provider/resource';
import {
  containsUnknown,
  isUnknown,
  UNKNOWN,
  valueAt,
  type AttrPath,
  type Diagnostic,
} from '../../provider/values';
import type { ProviderSet } from '../providers';
import type { ActionReason, OutputChange } from '../render/model';
import { parseAddress, type StateFile } from '../state';
import type { DataPlan, InstancePlan, StackPlan } from './types';
import { ValueBook } from './values';
import { recordForm, refreshedState } from '../terraform-form';

export interface PlanOptions {
  stack: string;
  config: StackConfig;
  /** Raw text of cdk.tf.json, for the plan's config hash. */
  configText: string;
  state: StateFile;
  providers: ProviderSet;
  variables?: VariableInputs;
  mode?: 'normal' | 'destroy' | 'refresh-only';
  /** Read every instance from the cluster first (default true). */
  refresh?: boolean;
  /** Limit the plan to these addresses (and what they depend on). */
  targets?: string[];
  parallelism?: number;
  signal?: AbortSignal;
}

function ctxOf(r: ResourceConfig, key?: InstanceKey): { address: string; constructPath?: string } {
  return {
    address: key === undefined ? r.address : instanceAddress(r, key),
    ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
  };
}

function fromHandlerDiagnostics(
  diags: Diagnostic[],
  r: ResourceConfig,
  key?: InstanceKey,
): ConfigDiagnostic[] {
  return diags.map((d) => ({ ...d, ...ctxOf(r, key) }));
}

/** Replaces, in the desired configuration, the attributes lifecycle.ignore_changes names with their prior values. */
function applyIgnoreChanges(r: ResourceConfig, config: State, prior: State | null): State {
  if (!prior) return config;
  const ic = r.lifecycle.ignoreChanges;
  if (ic === 'all') {
    const out: State = {};
    for (const k of Object.keys(config)) out[k] = k in prior ? prior[k] : config[k];
    return out;
  }
  if (ic.length === 0) return config;
  const out: State = structuredClone(config);
  for (const path of ic) {
    if (!isIgnoredChange(r, path)) continue;
    setPath(out, path, valueAt(prior, path));
  }
  return out;
}

function setPath(root: Record<string, unknown>, path: AttrPath, value: unknown): void {
  let cur: Record<string | number, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const next = cur[path[i]!];
    if (next === null || typeof next !== 'object') return;
    cur = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function actionReason(change: PlannedChange, orphan: boolean, byTrigger: boolean): ActionReason | undefined {
  if (orphan && change.action === 'delete') return 'delete_because_no_resource_config';
  if (change.action === 'replace') return byTrigger ? 'replace_by_triggers' : 'replace_because_cannot_update';
  return undefined;
}

export async function planStack(opts: PlanOptions): Promise<StackPlan> {
  const { config, state, providers } = opts;
  const mode = opts.mode ?? 'normal';
  const refresh = opts.refresh !== false;
  const diagnostics: ConfigDiagnostic[] = [];
  const plan: StackPlan = {
    stack: opts.stack,
    mode,
    stateLineage: state.lineage,
    stateSerial: state.serial,
    configHash: hashText(opts.configText),
    instances: [],
    data: [],
    outputs: [],
    outputChanges: [],
    variables: {},
    diagnostics,
    errored: false,
    createdAt: new Date().toISOString(),
    ...(opts.targets && opts.targets.length > 0 ? { targets: opts.targets } : {}),
  };

  const vars = resolveVariables(config, opts.variables ?? {});
  diagnostics.push(...vars.diagnostics);
  if (vars.diagnostics.some((d) => d.severity === 'error')) {
    plan.errored = true;
    return plan;
  }
  plan.variables = { ...vars.values };

  // The state's managed instances by resource, listed once: listing them per resource made planning
  // quadratic in the size of the stack.
  const managedInState = new Map<string, { address: string; addr: { key?: InstanceKey } }[]>();
  for (const e of state.instances()) {
    if (e.addr.mode !== 'managed') continue;
    const ra = `${e.addr.type}.${e.addr.name}`;
    let list = managedInState.get(ra);
    if (!list) managedInState.set(ra, (list = []));
    list.push({ address: e.address, addr: e.addr });
  }

  const book = new ValueBook();
  const plannedByAddress = new Map<string, InstancePlan>();
  const scope = (): EvalScope =>
    createStackScope({
      config,
      variables: vars.values,
      resolveReference: (ref) => book.resolve(`${ref.mode === 'data' ? 'data.' : ''}${ref.type}.${ref.name}`),
    });

  let graph = buildConfigGraph(config);
  const targetSet = targetClosure(opts.targets, graph);
  if (targetSet) graph = graph.subgraph([...targetSet]);

  const fail = (d: ConfigDiagnostic): void => {
    diagnostics.push(d);
    plan.errored = true;
  };

  const visit = async (node: ConfigNode): Promise<void> => {
    switch (node.kind) {
      case 'provider': {
        const cfg = node.provider ? evaluateProviderConfig(node.provider, scope()) : {};
        if (containsUnknown(cfg)) {
          throw new ConfigError([
            diagnostic(
              { address: node.id },
              'Provider configuration depends on values not known until apply',
              'Set the provider from variables or known values; deploy what it depends on first (--target).',
            ),
          ]);
        }
        const diags = providers.configure(node.address, node.name, cfg);
        for (const d of diags)
          (d.severity === 'error' ? fail : (x: ConfigDiagnostic) => diagnostics.push(x))({
            ...d,
            address: node.id,
          });
        if (diags.some((d) => d.severity === 'error'))
          throw new Error(`provider ${node.address} is not usable`);
        return;
      }
      case 'data':
        return planData(node.resource);
      case 'resource':
        return planResource(node.resource);
      default:
        return;
    }
  };

  /**
   * What a data source depends on that changes in this plan: as in Terraform, it is then read
   * during apply, after that change, even when its own arguments are known now.
   */
  const pendingDependency = (deps: string[]): string | undefined =>
    deps.find(
      (d) =>
        plan.instances.some((ip) => ip.resourceAddress === d && ip.change.action !== 'noop') ||
        plan.data.some((dp) => dp.resourceAddress === d && dp.deferred),
    );

  const planData = async (r: ResourceConfig): Promise<void> => {
    const expansion = expandResource(r, scope());
    book.declare(r.address, expansion.mode);
    const providerAddr = `${r.provider.name}${r.provider.alias ? `.${r.provider.alias}` : ''}`;
    const handler = providers.dataSource(providerAddr, r.type);
    await Promise.all(
      instancesOf(expansion).map(async (inst) => {
        const address = instanceAddress(r, inst.key);
        const cfg = evaluateResourceConfig(r, scope(), inst);
        const entry: DataPlan = {
          address,
          resourceAddress: r.address,
          type: r.type,
          name: r.name,
          ...(inst.key !== undefined ? { key: inst.key } : {}),
          provider: providerAddr,
          providerName: r.provider.name,
          ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
          deferred: false,
          sensitive: providers.sensitive(r.provider.name, r.type, 'data'),
          dependencies: graphDeps(r.address),
        };
        const diags = handler.validate(cfg);
        if (diags.some((d) => d.severity === 'error'))
          throw new ConfigError(fromHandlerDiagnostics(diags, r, inst.key));
        const pending = mode === 'normal' ? pendingDependency(entry.dependencies ?? []) : undefined;
        if (containsUnknown(cfg) || mode === 'destroy' || pending) {
          entry.deferred = true;
          if (pending && !containsUnknown(cfg)) entry.deferredBecause = 'dependency';
          book.set(r.address, inst.key, UNKNOWN);
        } else {
          const value = await handler.read(cfg);
          // A value another stack's pending plan will change (terraform_remote_state in a multi-stack
          // plan) is not known yet: read again at apply, as for a pending dependency.
          if (containsUnknown(value)) {
            entry.deferred = true;
            entry.deferredBecause = 'dependency';
          } else entry.value = value;
          book.set(r.address, inst.key, entry.deferred ? UNKNOWN : value);
        }
        plan.data.push(entry);
      }),
    );
  };

  const planResource = async (r: ResourceConfig): Promise<void> => {
    const providerAddr = `${r.provider.name}${r.provider.alias ? `.${r.provider.alias}` : ''}`;
    const handler = providers.resource(providerAddr, r.type);
    const base = scope();
    // A block only the state still has (removed from the configuration): every instance goes.
    const removed = !config.resources.has(r.address);
    const expansion = mode === 'destroy' || removed ? { mode: 'single' as const } : expandResource(r, base);
    book.declare(r.address, expansion.mode);
    const wanted = mode === 'destroy' || removed ? [] : instancesOf(expansion);
    const wantedAddrs = new Set(wanted.map((i) => instanceAddress(r, i.key)));
    const dependencies = graphDeps(r.address);
    const sensitive = providers.sensitive(r.provider.name, r.type, 'managed');
    const schemaVersion = providers.schemaVersion(r.provider.name, r.type);
    const block = providers.block(r.provider.name, r.type);

    const refreshPrior = async (address: string): Promise<State | null> => {
      const obj = state.get(address);
      if (!obj) return null;
      let prior: State = obj.attributes;
      if (handler.upgrade && obj.schemaVersion < schemaVersion)
        prior = handler.upgrade(prior, obj.schemaVersion);
      // An interrupted create is always looked up: only the cluster knows whether it happened.
      if (!refresh && !obj.createPending) return prior;
      const read = await handler.read(prior);
      return read && block ? refreshedState(block, read, prior) : read;
    };
    const pendingCreate = (address: string): boolean => state.isCreatePending(address);
    const adoptionNote = (key: InstanceKey, address: string): void => {
      diagnostics.push({
        ...diagnostic(
          ctxOf(r, key),
          'Recording an object an interrupted apply created',
          `the last apply stopped while creating ${address}; the object exists, so it is recorded in the state (and updated if it differs) instead of created again`,
        ),
        severity: 'warning',
      });
    };

    const record = (
      key: InstanceKey,
      address: string,
      change: PlannedChange,
      how: {
        orphan: boolean;
        /** Replaced because replace_triggered_by fired. */
        byTrigger?: boolean;
        stateOnly?: InstancePlan['stateOnly'];
        configKnown?: boolean;
        recordAs?: InstancePlan['recordAs'];
      },
    ): void => {
      const { orphan, byTrigger = false, stateOnly, configKnown, recordAs } = how;
      // Without configuration, what it depended on is what the state recorded (destroy order).
      const deps = removed ? (state.get(address)?.dependencies ?? []) : dependencies;
      const ip: InstancePlan = {
        address,
        resourceAddress: r.address,
        mode: 'managed',
        type: r.type,
        name: r.name,
        ...(key !== undefined ? { key } : {}),
        provider: providerAddr,
        providerName: r.provider.name,
        ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
        change,
        dependencies: deps,
        createBeforeDestroy: r.lifecycle.createBeforeDestroy,
        orphan,
        sensitive,
        schemaVersion,
        ...(stateOnly && change.action === 'noop' ? { stateOnly } : {}),
        ...(configKnown !== undefined ? { configKnown } : {}),
        ...(recordAs ? { recordAs } : {}),
      };
      // In a destroy plan everything goes because of the mode, not because its configuration went.
      const reason = actionReason(change, orphan && mode !== 'destroy', byTrigger);
      if (reason) ip.actionReason = reason;
      for (const d of change.diagnostics) {
        const cd: ConfigDiagnostic = { ...d, ...ctxOf(r, key) };
        if (d.severity === 'error') fail(cd);
        else diagnostics.push(cd);
      }
      if (
        (change.action === 'delete' || change.action === 'replace') &&
        r.lifecycle.preventDestroy &&
        !orphanWithoutConfig(orphan)
      ) {
        fail({
          ...diagnostic(
            ctxOf(r, key),
            'Instance cannot be destroyed',
            `${address} has lifecycle.prevent_destroy set, but the plan calls for it to be ${change.action === 'delete' ? 'destroyed' : 'replaced'}. Remove prevent_destroy, or change the plan so it is not destroyed.`,
          ),
        });
      }
      plannedByAddress.set(address, ip);
      plan.instances.push(ip);
    };
    const orphanWithoutConfig = (orphan: boolean): boolean => orphan && !config.resources.has(r.address);

    await Promise.all(
      wanted.map(async (inst) => {
        const address = instanceAddress(r, inst.key);
        try {
          const pre = checkPreconditions(r, base, inst);
          if (pre.failures.length > 0) throw new ConfigError(pre.failures);
          const prior = await refreshPrior(address);
          let cfg = evaluateResourceConfig(r, base, inst);
          const diags = handler.validate(cfg);
          if (diags.some((d) => d.severity === 'error'))
            throw new ConfigError(fromHandlerDiagnostics(diags, r, inst.key));
          for (const d of diags) diagnostics.push({ ...d, ...ctxOf(r, inst.key) });
          cfg = applyIgnoreChanges(r, cfg, prior);
          let change = await handler.plan({ prior, config: cfg });
          // replace_triggered_by: a change to any referenced instance replaces this one.
          let byTrigger = false;
          if (
            prior &&
            (change.action === 'noop' || change.action === 'update') &&
            r.lifecycle.replaceTriggeredBy.length > 0
          ) {
            const triggered = triggerFired(r);
            if (triggered) {
              byTrigger = true;
              const fresh = await handler.plan({
                prior: null,
                config: cfg,
                replacing: { prior, destroyFirst: !r.lifecycle.createBeforeDestroy },
              });
              change = { ...fresh, action: 'replace', prior, replacePaths: [] };
            }
          }
          const adopted = prior !== null && pendingCreate(address);
          if (adopted) adoptionNote(inst.key, address);
          // Recorded as terraform records it; a state an older engine wrote otherwise is rewritten.
          const form = block ? recordForm(block, change, cfg, state.get(address)?.attributes) : {};
          if (form.upgrade) change = { ...change, prior: form.upgrade };
          record(inst.key, address, change, {
            orphan: false,
            byTrigger,
            ...(adopted || form.upgrade ? { stateOnly: 'record' as const } : {}),
            configKnown: !containsUnknown(cfg),
            ...(form.recordAs ? { recordAs: form.recordAs } : {}),
          });
          book.set(
            r.address,
            inst.key,
            change.action === 'noop' ? (prior ?? change.planned) : change.planned,
          );
        } catch (err) {
          book.set(r.address, inst.key, UNKNOWN);
          throw err;
        }
      }),
    );

    // Instances in state that the configuration no longer has (or no longer has under this key).
    const orphans = (managedInState.get(r.address) ?? []).filter((e) => !wantedAddrs.has(e.address));
    await Promise.all(
      orphans.map(async (e) => {
        const prior = await refreshPrior(e.address);
        const key = e.addr.key;
        if (!prior) {
          // Already gone: nothing to delete; the apply drops it from the state.
          const change: PlannedChange = { action: 'noop', prior: null, planned: null, diagnostics: [] };
          record(key, e.address, change, { orphan: true, stateOnly: 'forget' });
          return;
        }
        const change = await handler.plan({ prior, config: null });
        if (pendingCreate(e.address)) adoptionNote(key, e.address);
        record(key, e.address, change, { orphan: true });
      }),
    );
  };

  /** replace_triggered_by fires when any instance of a referenced resource plans a change. */
  const triggerFired = (r: ResourceConfig): boolean => {
    for (const expr of r.lifecycle.replaceTriggeredBy) {
      for (const ref of findReferences(expr)) {
        if (ref.kind !== 'resource') continue;
        for (const ip of plannedByAddress.values()) {
          if (ip.type === ref.type && ip.name === ref.name && ip.change.action !== 'noop') return true;
        }
      }
    }
    return false;
  };

  const graphDeps = (id: string): string[] =>
    graph
      .dependenciesOf(id)
      .filter((d) => config.resources.has(d) || config.dataSources.has(d))
      .sort();

  // Orphaned resource blocks (whole resource removed from configuration) still need their provider.
  const orphanBlocks = new Map<string, ResourceConfig>();
  for (const e of state.instances()) {
    if (e.addr.mode !== 'managed') continue;
    const ra = `${e.addr.type}.${e.addr.name}`;
    if (config.resources.has(ra) || orphanBlocks.has(ra)) continue;
    if (targetSet && !targetSet.has(ra) && !targetSet.has(e.address)) continue;
    orphanBlocks.set(ra, orphanResource(e.addr.type, e.addr.name, e.provider));
  }

  const result = await walk(graph, {
    parallelism: opts.parallelism ?? 10,
    signal: opts.signal,
    visit: (node) => visit(node),
    onError: (node, err) => {
      if (err instanceof ConfigError) for (const d of err.diagnostics) fail(d);
      else {
        const r = node.kind === 'resource' || node.kind === 'data' ? node.resource : undefined;
        fail(diagnosticFromError(r ? ctxOf(r) : { address: node.id }, err));
      }
    },
  });
  if (!result.ok && result.skipped.some((s) => s.reason === 'aborted')) {
    fail({ severity: 'error', summary: 'Plan interrupted' });
  }

  for (const r of orphanBlocks.values()) {
    try {
      if (!providers.isConfigured(r.provider.name)) providers.configure(r.provider.name, r.provider.name, {});
      await planResource(r);
    } catch (err) {
      fail(diagnosticFromError(ctxOf(r), err));
    }
  }

  // Outputs, with every resource value now as known as it gets.
  const prevOutputs = state.outputs();
  for (const o of config.outputs.values()) {
    if (targetSet && !targetSet.has(`output.${o.name}`)) continue;
    try {
      const value = mode === 'destroy' ? null : evaluateOutput(o, scope());
      plan.outputs.push({ name: o.name, value, sensitive: o.sensitive });
      const before = prevOutputs[o.name];
      const change: OutputChange = {
        name: o.name,
        action:
          before === undefined ? (value === null ? 'noop' : 'create') : value === null ? 'delete' : 'update',
        before: before?.value ?? null,
        after: isUnknown(value) ? null : value,
        afterUnknown: containsUnknown(value),
        sensitive: o.sensitive || (before?.sensitive ?? false),
      };
      if (
        change.action === 'update' &&
        !change.afterUnknown &&
        JSON.stringify(before?.value) === JSON.stringify(value)
      ) {
        change.action = 'noop';
      }
      plan.outputChanges.push(change);
    } catch (err) {
      if (err instanceof ConfigError) for (const d of err.diagnostics) fail(d);
      else fail(diagnosticFromError({ address: `output.${o.name}` }, err));
    }
  }
  for (const name of Object.keys(prevOutputs)) {
    if (!config.outputs.has(name) || mode === 'destroy') {
      if (plan.outputChanges.some((c) => c.name === name)) continue;
      plan.outputChanges.push({
        name,
        action: 'delete',
        before: prevOutputs[name]!.value,
        after: null,
        afterUnknown: false,
        sensitive: prevOutputs[name]!.sensitive,
      });
    }
  }
  plan.instances.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return plan;
}

/** A stand-in configuration for a resource block that exists only in state (its instances are deleted). */
function orphanResource(type: string, name: string, provider: string): ResourceConfig {
  const m = /provider\["[^"]*\/([^"/]+)"\](?:\.(\S+))?/.exec(provider);
  const providerName = m?.[1] ?? type.split('_')[0]!;
  return {
    mode: 'managed',
    type,
    name,
    address: `${type}.${name}`,
    construct: {},
    provider: { name: providerName, ...(m?.[2] ? { alias: m[2] } : {}) },
    providerExplicit: false,
    dependsOn: [],
    lifecycle: defaultLifecycle(),
    body: { type: 'object', items: [] } as unknown as ResourceConfig['body'],
    raw: {},
  };
}

/** The targeted node ids plus everything they depend on; undefined when not targeting. */
function targetClosure(
  targets: string[] | undefined,
  graph: ReturnType<typeof buildConfigGraph>,
): Set<string> | undefined {
  if (!targets || targets.length === 0) return undefined;
  const out = new Set<string>();
  for (const t of targets) {
    let id = t;
    try {
      const a = parseAddress(t);
      id = `${a.mode === 'data' ? 'data.' : ''}${a.type}.${a.name}`;
    } catch {
      // not an instance address: maybe output.x or a block id
    }
    if (!graph.hasNode(id))
      throw new ConfigError([diagnostic({ address: t }, `--target ${t} names nothing in this stack`)]);
    out.add(id);
    out.add(t);
    for (const anc of graph.ancestors(id)) out.add(anc);
  }
  return out;
}
