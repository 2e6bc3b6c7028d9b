/**
 * Builds the evaluator's scope for one stack: input variables, local values (evaluated lazily, in
 * dependency order by construction, with cycles reported), and resource values supplied by the
 * plan/apply code. Instance scopes add `count.index` / `each.*` for one resource instance.
 */
import { evaluate, type EvalScope } from '../expressions/evaluate';
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
  path?: { module: string; root: string; cwd: string };
  workspace?: string;
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
  const scope: EvalScope = {
    resolveReference(ref) {
      return findResource(config, ref) ? resolve(ref) : undefined;
    },
    variable(name) {
      if (!config.variables.has(name)) return undefined;
      return Object.prototype.hasOwnProperty.call(opts.variables, name) ? opts.variables[name] : null;
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
    ...(opts.path ? { path: opts.path } : {}),
    ...((opts.workspace ?? opts.config.workspace) !== undefined
      ? { workspace: opts.workspace ?? opts.config.workspace }
      : {}),
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
    ...(base.path ? { path: base.path } : {}),
    ...(base.workspace !== undefined ? { workspace: base.workspace } : {}),
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
