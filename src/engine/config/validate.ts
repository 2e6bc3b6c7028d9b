/**
 * Static checks that need no values: every reference names something declared and is valid where it
 * is used (count.index only with count, each.* only with for_each, self only in postconditions),
 * every function exists, explicit providers are configured. Terraform reports these before planning,
 * and so do we, each located at the block, construct path and attribute.
 */
import type { AttrPath } from '../../provider/values';
import type { Expr } from '../expressions/ast';
import { formatReference, visitExpr, type Reference } from '../expressions/references';
import { functionNames, isKnownFunction } from '../functions';
import { resourceAddress } from './address';
import { diagnostic, type ConfigDiagnostic, type DiagnosticContext } from './errors';
import { sourceOf } from './json-expr';
import { findResource, providerAddress, type ResourceConfig, type StackConfig } from './types';

interface Allowed {
  count: boolean;
  each: boolean;
  self: boolean;
  /** Only input variables may be referenced (variable validation rules). */
  varsOnly?: boolean;
}

const NONE: Allowed = { count: false, each: false, self: false };

/**
 * Visits the leaves of an expression that came from JSON, with the attribute path of each, so
 * diagnostics can say `attribute meta.owner` rather than just `meta`.
 */
export function forEachLeaf(
  e: Expr,
  path: AttrPath,
  visit: (leaf: Expr, path: AttrPath, bound: ReadonlySet<string>) => void,
  bound: ReadonlySet<string> = new Set(),
): void {
  if (e.type === 'object' && sourceOf(e) === undefined) {
    for (const it of e.items) {
      if (it.key.type === 'literal' && typeof it.key.value === 'string')
        forEachLeaf(it.value, [...path, it.key.value], visit, bound);
      else {
        visit(it.key, path, bound);
        forEachLeaf(it.value, path, visit, bound);
      }
    }
    for (const d of e.dynamic ?? []) {
      const p = [...path, 'dynamic', d.blockType];
      visit(d.forEach, [...p, 'for_each'], bound);
      forEachLeaf(d.content, [...p, 'content'], visit, new Set([...bound, d.iterator]));
    }
    return;
  }
  if (e.type === 'tuple' && sourceOf(e) === undefined) {
    e.items.forEach((x, i) => forEachLeaf(x, [...path, i], visit, bound));
    return;
  }
  visit(e, path, bound);
}

/** Edit distance, for "did you mean" hints. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
  }
  return d[a.length]![b.length]!;
}

export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const dd = distance(name, c);
    if (dd < bestD) {
      best = c;
      bestD = dd;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(name.length / 4)) ? best : undefined;
}

function hint(name: string, candidates: Iterable<string>, prefix = ''): string | undefined {
  const s = suggest(name, candidates);
  return s === undefined ? undefined : `Did you mean "${prefix}${s}"?`;
}

class Checker {
  readonly out: ConfigDiagnostic[] = [];

  constructor(private readonly config: StackConfig) {}

  expr(e: Expr, ctx: DiagnosticContext, allowed: Allowed): void {
    forEachLeaf(e, ctx.path ?? [], (leaf, path, bound) => {
      const at: DiagnosticContext = { ...ctx, path };
      const src = sourceOf(leaf);
      const push = (summary: string, detail?: string): void => {
        const d = diagnostic(at, summary, detail);
        if (src !== undefined) d.expression = src.length > 120 ? `${src.slice(0, 117)}...` : src;
        this.out.push(d);
      };
      visitExpr(
        leaf,
        {
          reference: (r) => this.reference(r, allowed, push),
          call: (name) => {
            if (!isKnownFunction(name))
              push(`Call to unknown function "${name}"`, hint(name, functionNames()));
          },
        },
        bound,
      );
    });
  }

  private reference(r: Reference, allowed: Allowed, push: (summary: string, detail?: string) => void): void {
    const c = this.config;
    if (allowed.varsOnly && r.kind !== 'var') {
      push(
        'Invalid reference in variable validation',
        `only input variables may be referenced here, not ${formatReference(r)}`,
      );
      return;
    }
    switch (r.kind) {
      case 'var':
        if (!r.name)
          push(
            'Invalid reference',
            'The "var" object cannot be accessed directly. Instead, access one of its attributes.',
          );
        else if (!c.variables.has(r.name)) {
          push(
            'Reference to undeclared input variable',
            `An input variable with the name "${r.name}" has not been declared.${prefixHint(hint(r.name, c.variables.keys(), 'var.'))}`,
          );
        }
        return;
      case 'local':
        if (!r.name)
          push(
            'Invalid reference',
            'The "local" object cannot be accessed directly. Instead, access one of its attributes.',
          );
        else if (!c.locals.has(r.name)) {
          push(
            'Reference to undeclared local value',
            `A local value with the name "${r.name}" has not been declared.${prefixHint(hint(r.name, c.locals.keys(), 'local.'))}`,
          );
        }
        return;
      case 'module':
        push(
          'Unsupported reference',
          `Module calls are not supported by this engine (${formatReference(r)}).`,
        );
        return;
      case 'count':
        if (!allowed.count) {
          push(
            'Reference to "count" in non-counted context',
            'The "count" object can only be used in "resource" and "data" blocks, and only when the "count" argument is set.',
          );
        } else if (r.attr !== 'index')
          push(
            'Invalid "count" attribute',
            `The "count" object does not have an attribute named "${r.attr}". The only supported attribute is count.index.`,
          );
        return;
      case 'each':
        if (!allowed.each) {
          push(
            'Reference to "each" in context without for_each',
            'The "each" object can be used only in "resource" and "data" blocks, and only when the "for_each" argument is set.',
          );
        } else if (r.attr !== 'key' && r.attr !== 'value') {
          push(
            'Invalid "each" attribute',
            `The "each" object does not have an attribute named "${r.attr}". The supported attributes are each.key and each.value.`,
          );
        }
        return;
      case 'self':
        if (!allowed.self)
          push(
            'Invalid "self" reference',
            'The "self" object is only available in postcondition blocks of resources and data sources.',
          );
        return;
      case 'path':
        if (!['module', 'root', 'cwd'].includes(r.attr))
          push('Invalid "path" attribute', `The "path" object does not have an attribute named "${r.attr}".`);
        return;
      case 'terraform':
        if (r.attr !== 'workspace')
          push(
            'Invalid "terraform" attribute',
            `The "terraform" object does not have an attribute named "${r.attr}".`,
          );
        return;
      case 'resource': {
        if (!r.type || !r.name) {
          push(
            'Invalid reference',
            `A reference to a ${r.mode === 'data' ? 'data source' : 'resource type'} must be followed by ${r.mode === 'data' ? 'its type and name' : 'the resource name'}.`,
          );
          return;
        }
        if (!findResource(c, r)) {
          const pool = r.mode === 'data' ? c.dataSources : c.resources;
          const addr = resourceAddress(r);
          push(
            'Reference to undeclared resource',
            `A ${r.mode === 'data' ? 'data resource' : 'managed resource'} "${r.type}" "${r.name}" has not been declared.${prefixHint(hint(addr, pool.keys()))}`,
          );
        }
        return;
      }
    }
  }

  resource(r: ResourceConfig): void {
    const ctx: DiagnosticContext = {
      address: r.address,
      ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
    };
    const inBody: Allowed = { count: r.count !== undefined, each: r.forEach !== undefined, self: false };
    this.expr(r.body, ctx, inBody);
    if (r.count) this.expr(r.count, { ...ctx, path: ['count'] }, NONE);
    if (r.forEach) this.expr(r.forEach, { ...ctx, path: ['for_each'] }, NONE);
    r.lifecycle.replaceTriggeredBy.forEach((e, i) =>
      this.expr(e, { ...ctx, path: ['lifecycle', 'replace_triggered_by', i] }, inBody),
    );
    r.lifecycle.preconditions.forEach((c, i) => {
      this.expr(c.condition, { ...ctx, path: ['lifecycle', 'precondition', i, 'condition'] }, inBody);
      this.expr(c.errorMessage, { ...ctx, path: ['lifecycle', 'precondition', i, 'error_message'] }, inBody);
    });
    r.lifecycle.postconditions.forEach((c, i) => {
      this.expr(
        c.condition,
        { ...ctx, path: ['lifecycle', 'postcondition', i, 'condition'] },
        { ...inBody, self: true },
      );
      this.expr(
        c.errorMessage,
        { ...ctx, path: ['lifecycle', 'postcondition', i, 'error_message'] },
        { ...inBody, self: true },
      );
    });
    r.dependsOn.forEach((d, i) => {
      if (!findResource(this.config, d)) {
        this.out.push(
          diagnostic(
            { ...ctx, path: ['depends_on', i] },
            'Reference to undeclared resource',
            `depends_on refers to ${resourceAddress(d)}, which is not declared.`,
          ),
        );
      }
    });
    const pAddr = providerAddress(r.provider);
    if (r.provider.alias !== undefined && !this.config.providers.has(pAddr)) {
      this.out.push(
        diagnostic(
          { ...ctx, path: ['provider'] },
          'Provider configuration not present',
          `provider "${pAddr}" is used but not configured; add a provider block with alias "${r.provider.alias}".`,
        ),
      );
    }
  }
}

function prefixHint(h: string | undefined): string {
  return h ? ` ${h}` : '';
}

/** Runs every static check; returns the diagnostics (empty when the configuration is sound). */
export function validateStackConfig(config: StackConfig): ConfigDiagnostic[] {
  const ch = new Checker(config);
  for (const r of config.resources.values()) ch.resource(r);
  for (const r of config.dataSources.values()) ch.resource(r);
  for (const p of config.providers.values()) {
    ch.expr(p.body, { address: `provider.${p.address}` }, NONE);
  }
  for (const l of config.locals.values()) ch.expr(l.expr, { address: `local.${l.name}` }, NONE);
  for (const o of config.outputs.values()) {
    const ctx: DiagnosticContext = {
      address: `output.${o.name}`,
      ...(o.construct.path !== undefined ? { constructPath: o.construct.path } : {}),
    };
    ch.expr(o.value, { ...ctx, path: ['value'] }, NONE);
    o.preconditions.forEach((c, i) => {
      ch.expr(c.condition, { ...ctx, path: ['precondition', i, 'condition'] }, NONE);
      ch.expr(c.errorMessage, { ...ctx, path: ['precondition', i, 'error_message'] }, NONE);
    });
    o.dependsOn.forEach((d, i) => {
      if (!findResource(config, d)) {
        ch.out.push(
          diagnostic(
            { ...ctx, path: ['depends_on', i] },
            'Reference to undeclared resource',
            `depends_on refers to ${resourceAddress(d)}, which is not declared.`,
          ),
        );
      }
    });
  }
  for (const v of config.variables.values()) {
    v.validations.forEach((c, i) => {
      const ctx: DiagnosticContext = { address: `var.${v.name}` };
      ch.expr(c.condition, { ...ctx, path: ['validation', i, 'condition'] }, { ...NONE, varsOnly: true });
      ch.expr(
        c.errorMessage,
        { ...ctx, path: ['validation', i, 'error_message'] },
        { ...NONE, varsOnly: true },
      );
    });
  }
  for (const imp of config.imports) {
    const inImport: Allowed = { ...NONE, each: imp.forEach !== undefined };
    ch.expr(imp.id, { address: `import ${imp.to}`, path: ['id'] }, inImport);
    if (imp.toKey) ch.expr(imp.toKey, { address: `import ${imp.to}`, path: ['to'] }, inImport);
    if (imp.forEach) ch.expr(imp.forEach, { address: `import ${imp.to}`, path: ['for_each'] }, NONE);
  }
  return ch.out;
}
