/**
 * Terraform's JSON syntax, expression side: strings are templates, arrays are tuples, objects are
 * objects whose keys may themselves be templates, and a `dynamic` key holds dynamic blocks the way
 * cdktf writes them (`"dynamic": {"rule": {"for_each": ..., "iterator": "each", "content": {...}}}`).
 */
import type { AttrPath } from '../../provider/values';
import type { DynamicBlock, Expr, ObjectItem } from '../expressions/ast';
import { ExpressionError } from '../expressions/errors';
import { parseTemplate } from '../expressions/parser';
import { diagnosticFromError, type ConfigDiagnostic, type DiagnosticContext } from './errors';

const NO_SPAN = { start: 0, end: 0 };

/** The JSON string each string-derived expression was parsed from, for error snippets. */
const sources = new WeakMap<Expr, string>();

export function sourceOf(e: Expr): string | undefined {
  return sources.get(e);
}

/** Collects parse problems instead of stopping at the first one. */
export interface ParseSink {
  ctx: DiagnosticContext;
  diagnostics: ConfigDiagnostic[];
}

function report(sink: ParseSink, path: AttrPath, e: unknown, source?: string): void {
  sink.diagnostics.push(
    diagnosticFromError({ ...sink.ctx, path: [...(sink.ctx.path ?? []), ...path] }, e, source),
  );
}

function template(text: string, sink: ParseSink, path: AttrPath): Expr {
  try {
    const e = parseTemplate(text);
    sources.set(e, text);
    return e;
  } catch (e) {
    report(sink, path, e, text);
    return { type: 'literal', value: null, span: NO_SPAN };
  }
}

/** Converts any JSON value in expression position. Problems go to the sink; a null literal stands in. */
export function jsonToExpr(v: unknown, sink: ParseSink, path: AttrPath = []): Expr {
  if (typeof v === 'string') return template(v, sink, path);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null)
    return { type: 'literal', value: v, span: NO_SPAN };
  if (Array.isArray(v))
    return { type: 'tuple', items: v.map((x, i) => jsonToExpr(x, sink, [...path, i])), span: NO_SPAN };
  if (typeof v === 'object') return jsonObjectToExpr(v as Record<string, unknown>, sink, path);
  report(sink, path, new ExpressionError('Invalid value', `unsupported JSON value of type ${typeof v}`));
  return { type: 'literal', value: null, span: NO_SPAN };
}

export function jsonObjectToExpr(
  o: Record<string, unknown>,
  sink: ParseSink,
  path: AttrPath = [],
  skipKeys: ReadonlySet<string> = new Set(),
): Expr & { type: 'object' } {
  const items: ObjectItem[] = [];
  let dynamic: DynamicBlock[] | undefined;
  for (const [k, v] of Object.entries(o)) {
    if (skipKeys.has(k)) continue;
    if (k === 'dynamic' && isDynamicSpec(v)) {
      dynamic = Object.entries(v).map(([blockType, spec]) =>
        dynamicBlock(blockType, spec as Record<string, unknown>, sink, [...path, 'dynamic', blockType]),
      );
      continue;
    }
    const key: Expr =
      k.includes('${') || k.includes('%{')
        ? template(k, sink, path)
        : { type: 'literal', value: k, span: NO_SPAN };
    items.push({ key, value: jsonToExpr(v, sink, [...path, k]) });
  }
  return { type: 'object', items, span: NO_SPAN, ...(dynamic ? { dynamic } : {}) };
}

/** `dynamic` is an ordinary key unless every entry looks like a dynamic block (has for_each and content). */
function isDynamicSpec(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const entries = Object.values(v as Record<string, unknown>);
  return (
    entries.length > 0 &&
    entries.every(
      (s) => typeof s === 'object' && s !== null && !Array.isArray(s) && 'for_each' in s && 'content' in s,
    )
  );
}

function dynamicBlock(
  blockType: string,
  spec: Record<string, unknown>,
  sink: ParseSink,
  path: AttrPath,
): DynamicBlock {
  const iterator = spec['iterator'] ?? blockType;
  if (typeof iterator !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(iterator)) {
    report(
      sink,
      [...path, 'iterator'],
      new ExpressionError('Invalid dynamic block', 'the iterator must be a plain name'),
    );
  }
  if (spec['labels'] !== undefined) {
    report(
      sink,
      [...path, 'labels'],
      new ExpressionError('Unsupported dynamic block labels', 'labelled dynamic blocks are not supported'),
    );
  }
  const content = spec['content'];
  return {
    blockType,
    forEach: jsonToExpr(spec['for_each'], sink, [...path, 'for_each']),
    iterator: typeof iterator === 'string' ? iterator : blockType,
    content:
      typeof content === 'object' && content !== null && !Array.isArray(content)
        ? jsonObjectToExpr(content as Record<string, unknown>, sink, [...path, 'content'])
        : jsonToExpr(content, sink, [...path, 'content']),
  };
}
