/**
 * Static analysis of expressions: which objects an expression refers to (for the dependency graph and
 * for "undeclared" checks before any evaluation) and which functions it calls.
 */
import type { Expr, Span, Step, TemplatePart } from './ast';

export type ResourceMode = 'managed' | 'data';

/** A managed resource or data source as a whole, e.g. `sched_job.web` or `data.sched_job.current`. */
export interface ResourceRef {
  mode: ResourceMode;
  type: string;
  name: string;
}

export type Reference =
  | (ResourceRef & {
      kind: 'resource';
      /** Static instance key right after the name (`[0]`, `["k"]`), when written. */
      key?: string | number;
      /** Static attribute path after the instance key, e.g. ["task_groups", 0, "name"]. */
      path: (string | number)[];
      span: Span;
    })
  | { kind: 'var' | 'local' | 'module'; name: string; span: Span }
  | { kind: 'count' | 'each' | 'path' | 'terraform'; attr: string; span: Span }
  | { kind: 'self'; span: Span };

/** `sched_job.web`, `data.sched_job.x`. */
export function resourceRefAddress(r: ResourceRef): string {
  return `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
}

/** Renders a reference back to source form (`var.x`, `sched_job.web[0].id`), for messages. */
export function formatReference(r: Reference): string {
  switch (r.kind) {
    case 'resource': {
      const key =
        r.key === undefined ? '' : typeof r.key === 'number' ? `[${r.key}]` : `[${JSON.stringify(r.key)}]`;
      const path = r.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
      return `${resourceRefAddress(r)}${key}${path}`;
    }
    case 'var':
    case 'local':
    case 'module':
      return `${r.kind}.${r.name}`;
    case 'self':
      return 'self';
    default:
      return `${r.kind}.${r.attr}`;
  }
}

function staticKey(step: Step | undefined): string | number | undefined {
  if (!step) return undefined;
  if (step.kind === 'attr') return step.name;
  const k = step.key;
  if (k.type === 'literal' && (typeof k.value === 'string' || typeof k.value === 'number')) return k.value;
  return undefined;
}

function staticPath(steps: Step[]): (string | number)[] {
  const out: (string | number)[] = [];
  for (const s of steps) {
    const k = staticKey(s);
    if (k === undefined) break;
    out.push(k);
  }
  return out;
}

/**
 * The reference a scope traversal makes, or undefined for a name bound by a for expression or a
 * dynamic block iterator. A malformed one (e.g. `var` alone) is returned with an empty name so that
 * validation can report it.
 */
export function referenceOf(e: Expr & { type: 'scope' }): Reference {
  const { name, steps, span } = e;
  const attr = (i: number): string => {
    const s = steps[i];
    return s?.kind === 'attr' ? s.name : '';
  };
  switch (name) {
    case 'var':
    case 'local':
    case 'module':
      return { kind: name, name: attr(0), span };
    case 'count':
    case 'each':
    case 'path':
    case 'terraform':
      return { kind: name, attr: attr(0), span };
    case 'self':
      return { kind: 'self', span };
    case 'data': {
      const rest = steps.slice(2);
      const key = rest[0]?.kind === 'index' ? staticKey(rest[0]) : undefined;
      return {
        kind: 'resource',
        mode: 'data',
        type: attr(0),
        name: attr(1),
        path: staticPath(key === undefined ? rest : rest.slice(1)),
        span,
        ...(key !== undefined ? { key } : {}),
      };
    }
    default: {
      const rest = steps.slice(1);
      const key = rest[0]?.kind === 'index' ? staticKey(rest[0]) : undefined;
      return {
        kind: 'resource',
        mode: 'managed',
        type: name,
        name: attr(0),
        path: staticPath(key === undefined ? rest : rest.slice(1)),
        span,
        ...(key !== undefined ? { key } : {}),
      };
    }
  }
}

export interface ExprVisitor {
  reference?(ref: Reference): void;
  call?(name: string, span: Span): void;
}

/** Walks an expression, honouring names bound by for expressions and dynamic block iterators. */
export function visitExpr(e: Expr, v: ExprVisitor, bound: ReadonlySet<string> = new Set()): void {
  const rec = (x: Expr, b: ReadonlySet<string> = bound): void => visitExpr(x, v, b);
  const steps = (ss: Step[]): void => ss.forEach((s) => s.kind === 'index' && rec(s.key));
  switch (e.type) {
    case 'literal':
      return;
    case 'template':
      return visitParts(e.parts, v, bound);
    case 'scope':
      if (!bound.has(e.name)) v.reference?.(referenceOf(e));
      return steps(e.steps);
    case 'relative':
    case 'splat':
      rec(e.source);
      return steps(e.steps);
    case 'call':
      v.call?.(e.name, e.span);
      return e.args.forEach((a) => rec(a));
    case 'tuple':
      return e.items.forEach((a) => rec(a));
    case 'object':
      for (const it of e.items) {
        rec(it.key);
        rec(it.value);
      }
      for (const d of e.dynamic ?? []) {
        rec(d.forEach);
        rec(d.content, new Set([...bound, d.iterator]));
      }
      return;
    case 'unary':
      return rec(e.operand);
    case 'binary':
      rec(e.left);
      return rec(e.right);
    case 'conditional':
      rec(e.cond);
      rec(e.then);
      return rec(e.else);
    case 'paren':
      return rec(e.expr);
    case 'for': {
      rec(e.coll);
      const inner = new Set([...bound, e.valVar, ...(e.keyVar ? [e.keyVar] : [])]);
      if (e.keyExpr) rec(e.keyExpr, inner);
      rec(e.valExpr, inner);
      if (e.cond) rec(e.cond, inner);
      return;
    }
  }
}

function visitParts(parts: TemplatePart[], v: ExprVisitor, bound: ReadonlySet<string>): void {
  for (const p of parts) {
    switch (p.kind) {
      case 'literal':
        break;
      case 'interp':
        visitExpr(p.expr, v, bound);
        break;
      case 'if':
        visitExpr(p.cond, v, bound);
        visitParts(p.then, v, bound);
        visitParts(p.else, v, bound);
        break;
      case 'for':
        visitExpr(p.coll, v, bound);
        visitParts(p.body, v, new Set([...bound, p.valVar, ...(p.keyVar ? [p.keyVar] : [])]));
        break;
    }
  }
}

/** All references an expression makes, in source order. */
export function findReferences(e: Expr): Reference[] {
  const out: Reference[] = [];
  visitExpr(e, { reference: (r) => out.push(r) });
  return out;
}
