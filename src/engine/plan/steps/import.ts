/**
 * Import blocks at plan time (cdktf `importFrom(id)`, and Terraform 1.7's `for_each`): each target
 * instance that the state does not have yet is read from the cluster by its ID and planned with that
 * object as its prior, so the plan shows "will be imported" (and any update the configuration asks
 * for) instead of a create that would fail with "already exists". A target the state already has is
 * left alone, as in Terraform: an import block is idempotent.
 */
import {
  ConfigError,
  diagnostic,
  instanceAddress,
  providerAddress,
  sourceOf,
  type ConfigDiagnostic,
  type ImportConfig,
  type InstanceContext,
  type InstanceKey,
} from '../../config';
import { evaluate, type EvalScope } from '../../expressions/evaluate';
import { isObjectValue, typeName } from '../../expressions/values';
import type { State } from '../../../provider/resource';
import { containsUnknown } from '../../../provider/values';
import type { PlanContext } from '../context';
import type { ResourceStep } from './resource-step';

/** Import IDs by target instance address, for targets the state does not have yet. */
export type ImportTargets = Map<string, string>;

export function resolveImports(ctx: PlanContext): ImportTargets {
  const out: ImportTargets = new Map();
  if (ctx.mode !== 'normal') return out;
  for (const imp of ctx.config.imports) {
    checkImportProvider(ctx, imp);
    for (const each of eachOf(imp, ctx.scope())) {
      const scope = withEach(ctx.scope(), each);
      const address = targetAddress(imp, scope);
      const id = evaluate(imp.id, scope);
      if (typeof id !== 'string' || id === '' || containsUnknown(id))
        throw invalid(
          imp,
          'id',
          `The import block "id" argument must be a known, non-empty string, got ${typeName(id)}.`,
        );
      if (out.has(address))
        throw invalid(
          imp,
          'to',
          `Duplicate import configuration for ${address}: it is imported more than once.`,
        );
      if (!ctx.state.has(address)) out.set(address, id);
    }
  }
  return out;
}

/** The object to plan an import target against: what the cluster has under the import ID. */
export async function importedPrior(step: ResourceStep, id: string): Promise<State> {
  return step.handler.import(id);
}

/** Every import target must be a resource instance the configuration declares (Terraform's rule). */
export function checkImportTargets(ctx: PlanContext, targets: ImportTargets): void {
  for (const [address, id] of targets) {
    if (ctx.plannedByAddress.has(address) || ctx.plan.errored) continue;
    if (ctx.targetSet && !ctx.targetSet.has(address.replace(/\[.*$/, ''))) continue;
    ctx.fail(
      diagnostic(
        { address },
        'Configuration for import target does not exist',
        `The configuration for the given import target ${address} (ID ${JSON.stringify(id)}) does not exist. All target instances must have an associated configuration to be imported.`,
      ),
    );
  }
}

function eachOf(imp: ImportConfig, scope: EvalScope): (InstanceContext['each'] | undefined)[] {
  if (!imp.forEach) return [undefined];
  const v = evaluate(imp.forEach, scope);
  if (containsUnknown(v))
    throw invalid(imp, 'for_each', 'The import block "for_each" value must be known at plan time.');
  if (isObjectValue(v))
    return Object.keys(v)
      .sort()
      .map((k) => ({ key: k, value: v[k] }));
  if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
    return [...new Set(v as string[])].sort().map((k) => ({ key: k, value: k }));
  if (Array.isArray(v)) return v.map((x, i) => ({ key: String(i), value: x }));
  throw invalid(
    imp,
    'for_each',
    `The import block "for_each" argument must be a map, set or list, got ${typeName(v)}.`,
  );
}

function withEach(scope: EvalScope, each: InstanceContext['each'] | undefined): EvalScope {
  return each ? { ...scope, each } : scope;
}

function targetAddress(imp: ImportConfig, scope: EvalScope): string {
  const [type, name] = imp.to.split('.') as [string, string];
  if (!imp.toKey) return imp.to;
  const key = evaluate(imp.toKey, scope);
  if (typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key)))
    throw invalid(
      imp,
      'to',
      `The import target's instance key must be a string or a whole number, got ${typeName(key)} (${sourceOf(imp.toKey) ?? ''}).`,
    );
  return instanceAddress({ mode: 'managed', type, name }, key as InstanceKey);
}

function invalid(
  imp: ImportConfig,
  field: string,
  detail: string,
  summary = 'Invalid import block',
): ConfigError {
  const d: ConfigDiagnostic = diagnostic({ address: `import ${imp.to}`, path: [field] }, summary, detail);
  return new ConfigError([d]);
}

/**
 * An import block's `provider` (cdktf `importFrom(id, provider)`) is honoured as Terraform honours
 * it for a declared target: it must name the provider configuration the resource block names,
 * which is then the one the import reads with. Anything else is refused before anything changes.
 */
function checkImportProvider(ctx: PlanContext, imp: ImportConfig): void {
  const target = ctx.config.resources.get(imp.to);
  if (!imp.provider || !target) return;
  if (!target.providerExplicit)
    throw invalid(
      imp,
      'provider',
      'The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration.',
      'Invalid import provider argument',
    );
  if (providerAddress(imp.provider) !== providerAddress(target.provider))
    throw invalid(
      imp,
      'provider',
      `The provider argument in the target resource block must match the import block (${providerAddress(target.provider)} is not ${providerAddress(imp.provider)}).`,
      'Invalid import provider argument',
    );
}
