/**
 * Planning one stack: walk the configuration graph in dependency order, configure providers, read
 * data sources, expand count/for_each, refresh each instance from the cluster, and ask its handler
 * for a planned change. Values flow to dependants as they become known (UNKNOWN where not).
 * Orphaned instances (in state, not in configuration) plan a delete. Nothing is written anywhere.
 *
 * Each kind of step has its own file under ./steps; they share one PlanContext (./context.ts).
 */
import {
  ConfigError,
  diagnosticFromError,
  resolveVariables,
  type StackConfig,
  type VariableInputs,
} from '../config';
import { singleInstanceCheck, sortChecks } from './checks';
import { setConfigurationLazily, setRelevantAttributesLazily } from './lazy-configuration';
import { sortDrift } from './drift';
import { walk, type ConfigNode } from '../graph';
import type { ProviderSet } from '../providers';
import type { StateFile } from '../state';
import { createPlanContext, ctxOf, emptyPlan, type PlanContext } from './context';
import { planDataRead } from './steps/data-read';
import { checkImportTargets, resolveImports } from './steps/import';
import { planMoves } from './steps/moved';
import { checkRemovedBlocks, forgetWarning } from './steps/removed';
import { findOrphanBlocks, planOrphanBlocks } from './steps/orphan-block';
import { planOutputs } from './steps/outputs';
import { planProvider } from './steps/provider';
import { planResource } from './steps/resource';
import { targetingPlanWarning } from './targeting';
import { sensitiveVariableTexts } from './sensitivity';
import type { InstancePlan, StackPlan } from './types';

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
  /**
   * Told of each instance's plan as it is recorded (it never changes after), while the rest of the
   * stack is still planned: a renderer may start on it during the waits on the cluster.
   */
  onInstance?: (ip: InstancePlan) => void;
  /**
   * false: nothing will show the services' own structural diffs (the job plan's JobDiff, which only
   * the plan JSON carries), so the handlers need not ask for them. Default true.
   */
  serviceDiff?: boolean;
}

export async function planStack(opts: PlanOptions): Promise<StackPlan> {
  const plan = emptyPlan(opts);
  setConfigurationLazily(plan, opts.config, opts.providers);
  const vars = resolveVariables(opts.config, opts.variables ?? {}, { validationFailures: 'report' });
  plan.diagnostics.push(...vars.diagnostics);
  if (vars.checks.length > 0)
    plan.checks = vars.checks.map((c) =>
      singleInstanceCheck('var', `var.${c.name}`, c.name, c.status, c.problems),
    );
  if (vars.diagnostics.some((d) => d.severity === 'error')) {
    plan.errored = true;
    return plan;
  }
  plan.variables = { ...vars.values };
  const sensitiveVariables = [...opts.config.variables.values()]
    .filter((v) => v.sensitive)
    .map((v) => v.name);
  if (sensitiveVariables.length > 0) plan.sensitiveVariables = sensitiveVariables;
  const secrets = sensitiveVariableTexts(opts.config, vars.values);
  if (secrets.length > 0) plan.sensitiveTexts = secrets;
  const moved = planMoves(opts.config, opts.state, plan.diagnostics);
  if (moved.moves.length > 0) plan.moves = moved.moves;
  if (plan.diagnostics.some((d) => d.severity === 'error')) {
    plan.errored = true;
    return plan;
  }
  const ctx = createPlanContext(opts, plan, vars.values, moved);
  if (plan.targets) plan.diagnostics.push(targetingPlanWarning());
  checkRemovedBlocks(ctx);
  if (!startImports(ctx)) return plan;

  const orphanBlocks = findOrphanBlocks(ctx);
  await walkConfiguration(ctx);
  await planOrphanBlocks(ctx, orphanBlocks);
  checkImportTargets(ctx, ctx.imports);
  forgetWarning(ctx);
  planOutputs(ctx);
  plan.instances.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  sortDrift(plan.drift);
  sortChecks(plan.checks);
  setRelevantAttributesLazily(plan, opts.config);
  return plan;
}

/** Resolves the import blocks' targets and IDs; false (the plan failed) when one is invalid. */
function startImports(ctx: PlanContext): boolean {
  try {
    for (const [address, id] of resolveImports(ctx)) ctx.imports.set(address, id);
    return true;
  } catch (err) {
    if (err instanceof ConfigError) for (const d of err.diagnostics) ctx.fail(d);
    else ctx.fail(diagnosticFromError({ address: 'import' }, err));
    return false;
  }
}

async function walkConfiguration(ctx: PlanContext): Promise<void> {
  const result = await walk(ctx.graph, {
    parallelism: ctx.opts.parallelism ?? 10,
    signal: ctx.opts.signal,
    visit: (node) => planNode(ctx, node),
    onError: (node, err) => {
      if (err instanceof ConfigError) for (const d of err.diagnostics) ctx.fail(d);
      else {
        const r = node.kind === 'resource' || node.kind === 'data' ? node.resource : undefined;
        ctx.fail(diagnosticFromError(r ? ctxOf(r) : { address: node.id }, err));
      }
    },
  });
  if (!result.ok && result.skipped.some((s) => s.reason === 'aborted')) {
    ctx.fail({ severity: 'error', summary: 'Plan interrupted' });
  }
}

async function planNode(ctx: PlanContext, node: ConfigNode): Promise<void> {
  switch (node.kind) {
    case 'provider':
      return planProvider(ctx, node);
    case 'data':
      return planDataRead(ctx, node.resource);
    case 'resource':
      return planResource(ctx, node.resource);
    default:
      return;
  }
}
