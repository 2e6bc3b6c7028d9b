/**
 * Builds the evaluator's scope for one stack: input variables, local values (evaluated lazily, in
 * dependency order by construction, with cycles reported), and resource values supplied by the
 * plan/apply code. Instance scopes add `count.index` / `each.*` for one resource instance.
 */
import path from 'node:path';
import { evaluate, type EvalScope } from '../expressions/evaluate';
import { markSensitive } from '../expressions/marks';
import type { Reference } from '../expressions/references';
import { UNKNOWN } from '../expressions/values';
import type { InstanceKey } from './address';
import { ConfigError, diagnostic, located } from './errors';
import { sourceOf } from './json-expr';
import { findResource, type StackConfig } from './types';

export interface StackScopeOptions {
  config: StackConfig;
  /** Input variable values, as returned by `resolveVariables`. */
  variables: Readonly<Record<string, unknown>>;
  /**
   * The value of a declared resource or data source as a whole (see `EvalScope.resolveReference`):
   * object for a single instance, array by index with count, object by key with for_each, UNKNOWN
   * where not known yet. Defaults to UNKNOWN for everything (a plan before anything is known).
   * Only called for declared resources.
   */
  resolveReference?: (ref: Reference & { kind: 'resource' }) => unknown;
  /** Defaults to Terraform's view from the stack's directory (the directory of `config.file`). */
  path?: { module: string; root: string; cwd: string };
  workspace?: string;
  /** True while applying (impure functions such as `timestamp()` are unknown while planning). */
  applying?: boolean;
  /** When the plan was made, for `plantimestamp()`. */
  planTimestamp?: string;
}

/**
 * `path.*` as Terraform sees them when run from the stack's directory (`cdktf.out/stacks/<stack>`,
 * where cdktf copies assets): module and root are ".", cwd is that directory.
 */
export function stackPaths(config: StackConfig): { module: string; root: string; cwd: string } | undefined {
  return config.file ? { module: '.', root: '.', cwd: path.dirname(path.resolve(config.file)) } : undefined;
}

/** The scope fields that carry over unchanged from a stack scope to its instance scopes. */
function sharedFields(s: EvalScope): Partial<EvalScope> {
  return {
    ...(s.path ? { path: s.path } : {}),
    ...(s.workspace !== undefined ? { workspace: s.workspace } : {}),
    ...(s.applying ? { applying: true } : {}),
    ...(s.planTimestamp !== undefined ? { planTimestamp: s.planTimestamp } : {}),
  };
}

/** What distinguishes one instance of a resource: its key and the count/each values in scope. */
export interface InstanceContext {
  key: InstanceKey;
  count?: { index: number };
  each?: { key: string; value: unknown };
}

/**
 * A scope for expressions at the stack's top level (provider blocks, locals, outputs, count and
 * for_each). Local values are computed on first use and remembered for the life of this scope, so
 * create a fresh scope once resource values have changed (e.g. for each node during apply).
 */
export function createStackScope(opts: StackScopeOptions): EvalScope {
  const { config } = opts;
  const memo = new Map<string, unknown>();
  const inProgress: string[] = [];
  const resolve = opts.resolveReference ?? ((): unknown => UNKNOWN);
  const paths = opts.path ?? stackPaths(config);
  const scope: EvalScope = {
    resolveReference(ref) {
      return findResource(config, ref) ? resolve(ref) : undefined;
    },
    variable(name) {
      const declared = config.variables.get(name);
      if (!declared) return undefined;
      const v = Object.prototype.hasOwnProperty.call(opts.variables, name) ? opts.variables[name] : null;
      // Every use of a sensitive variable carries the mark from here on.
      return declared.sensitive ? markSensitive(v) : v;
    },
    local(name) {
      const local = config.locals.get(name);
      if (!local) return undefined;
      if (memo.has(name)) return memo.get(name);
      if (inProgress.includes(name)) {
        const cycle = [...inProgress.slice(inProgress.indexOf(name)), name].map((n) => `local.${n}`);
        throw new ConfigError([
          diagnostic(
            { address: `local.${name}` },
            `Cycle: ${cycle.join(' -> ')}`,
            'local values refer to each other in a loop',
          ),
        ]);
      }
      inProgress.push(name);
      try {
        const v = located(
          { address: `local.${name}` },
          () => evaluate(local.expr, scope),
          sourceOf(local.expr),
        );
        memo.set(name, v);
        return v;
      } finally {
        inProgress.pop();
      }
    },
    ...(paths ? { path: paths } : {}),
    ...((opts.workspace ?? opts.config.workspace) !== undefined
      ? { workspace: opts.workspace ?? opts.config.workspace }
      : {}),
    ...(opts.applying ? { applying: true } : {}),
    ...(opts.planTimestamp !== undefined ? { planTimestamp: opts.planTimestamp } : {}),
  };
  return scope;
}

/** The stack scope plus `count.index` / `each.key` / `each.value` (and `self` for postconditions). */
export function instanceScope(
  base: EvalScope,
  instance: InstanceContext | undefined,
  self?: unknown,
): EvalScope {
  const s: EvalScope = {
    resolveReference: (ref) => base.resolveReference(ref),
    variable: (n) => base.variable(n),
    local: (n) => base.local(n),
    ...sharedFields(base),
  };
  if (instance?.count) s.count = instance.count;
  if (instance?.each) s.each = instance.each;
  if (self !== undefined) s.self = self;
  return s;
}

/**
 * Assembles the whole-resource value `resolveReference` must return from per-instance values: the
 * object itself without count/for_each, an array ordered by index with count, an object by key with
 * for_each. Missing instances of a counted resource are UNKNOWN.
 */
export function assembleResourceValue(
  mode: 'single' | 'count' | 'for_each',
  instances: Iterable<readonly [InstanceKey, unknown]>,
): unknown {
  const list = [...instances];
  if (mode === 'single') return list.find(([k]) => k === undefined)?.[1] ?? UNKNOWN;
  if (mode === 'count') {
    const max = list.reduce((m, [k]) => (typeof k === 'number' ? Math.max(m, k) : m), -1);
    const arr: unknown[] = Array.from({ length: max + 1 }, () => UNKNOWN);
    for (const [k, v] of list) if (typeof k === 'number') arr[k] = v;
    return arr;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of list)
    if (typeof k === 'string')
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
