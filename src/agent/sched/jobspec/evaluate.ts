import { applyNumericOp, sortedEntries } from '../../../hcl/values';
import type { Expr, ForExpr, TemplatePart, TraverseStep } from './ast';
import { ConvertError, toBool, toNum, toStr } from './convert';
import { JobspecError, type Range } from './errors';
import { FunctionError, callFunction, hasFunction } from './functions';
import { deepEqual, isObject, sortedObject, typeName, type HclObject, type HclValue } from './values';

export interface EvalContext {
  /** The source text, to keep unknown references verbatim. */
  readonly text: string;
  /** `var.*`; undefined where variables may not be used (variable files). */
  readonly variables: HclObject | undefined;
  /** `local.*`; undefined while locals are not yet known. */
  readonly locals: HclObject | undefined;
  /** Iterator and for-expression names in scope. */
  readonly scope: ReadonlyMap<string, HclValue>;
  /**
   * Nomad keeps references to unknown names (`${attr.kernel.name}`, `${NOMAD_PORT_http}`) as
   * literal text for the client to interpolate at run time.
   */
  readonly keepUnknown: boolean;
}

export function withScope(ctx: EvalContext, names: Record<string, HclValue>): EvalContext {
  const scope = new Map(ctx.scope);
  for (const [k, v] of Object.entries(names)) scope.set(k, v);
  return { ...ctx, scope };
}

function fail(summary: string, detail: string, range: Range): never {
  throw new JobspecError(summary, detail, range);
}

export function evaluate(e: Expr, ctx: EvalContext): HclValue {
  switch (e.type) {
    case 'literal':
      return e.value;
    case 'paren':
      return evaluate(e.expr, ctx);
    case 'template':
      return evalTemplate(e.parts, ctx, e.range);
    case 'scope':
      return evalScope(e, ctx);
    case 'getattr':
      return getAttr(evaluate(e.target, ctx), e.name, e.range);
    case 'index':
      return index(evaluate(e.target, ctx), evaluate(e.key, ctx), e.range);
    case 'splat': {
      const target = evaluate(e.target, ctx);
      const apply = (v: HclValue): HclValue => e.steps.reduce((acc, s) => step(acc, s), v);
      if (target === null) return [];
      if (Array.isArray(target)) return target.map(apply);
      return [apply(target)];
    }
    case 'tuple':
      return e.items.map((x) => evaluate(x, ctx));
    case 'object': {
      const entries: [string, HclValue][] = [];
      for (const item of e.items) {
        const k = evaluate(item.key, ctx);
        if (k === null) fail('Invalid object key', 'Key expression result must not be null.', item.key.range);
        entries.push([
          convertOr(() => toStr(k), 'Incorrect key type', item.key.range),
          evaluate(item.value, ctx),
        ]);
      }
      return sortedObject(entries);
    }
    case 'unary': {
      const v = evaluate(e.operand, ctx);
      if (e.op === '-')
        return -convertOr(
          () => toNum(v),
          'Invalid operand',
          e.operand.range,
          'Unsuitable value for unary operand',
        );
      return !convertOr(
        () => toBool(v),
        'Invalid operand',
        e.operand.range,
        'Unsuitable value for unary operand',
      );
    }
    case 'binary':
      return evalBinary(e, ctx);
    case 'conditional': {
      const c = evaluate(e.cond, ctx);
      if (c === null)
        fail(
          'Null condition',
          'The condition value is null. Conditions must either be true or false.',
          e.cond.range,
        );
      const b = convertOr(
        () => toBool(c),
        'Incorrect condition type',
        e.cond.range,
        'The condition expression must be of type bool',
      );
      return evaluate(b ? e.then : e.else, ctx);
    }
    case 'for':
      return evalFor(e, ctx);
    case 'call':
      return evalCall(e, ctx);
  }
}

function convertOr<T>(fn: () => T, summary: string, range: Range, prefix?: string): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ConvertError) fail(summary, `${prefix ? `${prefix}: ` : ''}${err.message}.`, range);
    throw err;
  }
}

function evalScope(e: Expr & { type: 'scope' }, ctx: EvalContext): HclValue {
  let base: HclValue;
  let steps = e.steps;
  if (ctx.scope.has(e.root)) {
    base = ctx.scope.get(e.root) as HclValue;
  } else if ((e.root === 'var' && ctx.variables) || (e.root === 'local' && ctx.locals)) {
    const table = (e.root === 'var' ? ctx.variables : ctx.locals) as HclObject;
    const first = steps[0];
    if (!first || first.kind !== 'attr') {
      fail(
        'Invalid reference',
        `A reference to "${e.root}" must be followed by an attribute name, like ${e.root}.example.`,
        e.range,
      );
    }
    if (!(first.name in table)) {
      if (e.root === 'var') {
        fail(
          'Reference to undeclared input variable',
          `An input variable with the name "${first.name}" has not been declared. This variable can be declared with a variable "${first.name}" {} block.`,
          e.range,
        );
      }
      fail(
        'Reference to undeclared local value',
        `A local value with the name "${first.name}" has not been declared.`,
        e.range,
      );
    }
    base = table[first.name] as HclValue;
    steps = steps.slice(1);
  } else if (e.root !== 'var' && e.root !== 'local' && ctx.keepUnknown) {
    return '${' + ctx.text.slice(e.range.start.offset, e.range.end.offset) + '}';
  } else if (e.root === 'var' || e.root === 'local' || !ctx.variables) {
    fail('Variables not allowed', 'Variables may not be used here.', e.range);
  } else {
    fail('Unknown variable', `There is no variable named "${e.root}".`, e.range);
  }
  return steps.reduce((acc, s) => step(acc, s), base);
}

function step(v: HclValue, s: TraverseStep): HclValue {
  return s.kind === 'attr' ? getAttr(v, s.name, s.range) : index(v, s.key, s.range);
}

function getAttr(v: HclValue, name: string, range: Range): HclValue {
  if (v === null)
    fail(
      'Attempt to get attribute from null value',
      'This value is null, so it does not have any attributes.',
      range,
    );
  if (!isObject(v)) {
    fail('Unsupported attribute', `Can't access attributes on a value of type ${typeName(v)}.`, range);
  }
  if (!(name in v))
    fail('Unsupported attribute', `This object does not have an attribute named "${name}".`, range);
  return v[name] as HclValue;
}

function index(v: HclValue, key: HclValue, range: Range): HclValue {
  if (v === null)
    fail('Attempt to index null value', 'This value is null, so it does not have any indices.', range);
  if (Array.isArray(v)) {
    const i = convertOr(
      () => toNum(key),
      'Invalid index',
      range,
      'The given key does not identify an element in this collection value',
    );
    if (!Number.isInteger(i) || i < 0 || i >= v.length) {
      fail('Invalid index', 'The given key does not identify an element in this collection value.', range);
    }
    return v[i] as HclValue;
  }
  if (isObject(v)) {
    const k = convertOr(() => toStr(key), 'Invalid index', range);
    if (!(k in v))
      fail('Invalid index', 'The given key does not identify an element in this collection value.', range);
    return v[k] as HclValue;
  }
  fail('Invalid index', `This value does not have any indices; it is of type ${typeName(v)}.`, range);
}

function evalBinary(e: Expr & { type: 'binary' }, ctx: EvalContext): HclValue {
  const l = evaluate(e.left, ctx);
  if (e.op === '&&' || e.op === '||') {
    const lb = convertOr(
      () => toBool(l),
      'Invalid operand',
      e.left.range,
      'Unsuitable value for left operand',
    );
    if (e.op === '&&' && !lb) return false;
    if (e.op === '||' && lb) return true;
    const r = evaluate(e.right, ctx);
    return convertOr(() => toBool(r), 'Invalid operand', e.right.range, 'Unsuitable value for right operand');
  }
  const r = evaluate(e.right, ctx);
  if (e.op === '==') return deepEqual(l, r);
  if (e.op === '!=') return !deepEqual(l, r);
  const a = convertOr(() => toNum(l), 'Invalid operand', e.left.range, 'Unsuitable value for left operand');
  const b = convertOr(() => toNum(r), 'Invalid operand', e.right.range, 'Unsuitable value for right operand');
  if ((e.op === '/' || e.op === '%') && b === 0)
    fail('Operation failed', "Error during operation: can't divide by zero.", e.range);
  return applyNumericOp(e.op, a, b);
}

function iterate(coll: HclValue, range: Range): [HclValue, HclValue][] {
  if (Array.isArray(coll)) return coll.map((v, i) => [i, v]);
  if (isObject(coll)) return sortedEntries(Object.entries(coll));
  if (coll === null)
    fail(
      'Iteration over null value',
      'A null value cannot be used as the collection in a "for" expression.',
      range,
    );
  fail(
    'Iteration over non-iterable value',
    `A value of type ${typeName(coll)} cannot be used as the collection in a "for" expression.`,
    range,
  );
}

function evalFor(e: ForExpr, ctx: EvalContext): HclValue {
  const coll = evaluate(e.coll, ctx);
  const items: HclValue[] = [];
  const groups = new Map<string, HclValue[]>();
  const pairs: [string, HclValue][] = [];
  for (const [k, v] of iterate(coll, e.coll.range)) {
    const names: Record<string, HclValue> = { [e.valVar]: v };
    if (e.keyVar) names[e.keyVar] = k;
    const inner = withScope(ctx, names);
    if (e.cond) {
      const c = evaluate(e.cond, inner);
      if (
        !convertOr(
          () => toBool(c),
          'Invalid "for" condition',
          e.cond.range,
          'The filter expression must be of type bool',
        )
      )
        continue;
    }
    if (!e.keyExpr) {
      items.push(evaluate(e.valExpr, inner));
      continue;
    }
    const key = evaluate(e.keyExpr, inner);
    const ks = convertOr(() => toStr(key), 'Invalid object key', e.keyExpr.range);
    const val = evaluate(e.valExpr, inner);
    if (e.grouping) {
      if (!groups.has(ks)) groups.set(ks, []);
      (groups.get(ks) as HclValue[]).push(val);
    } else {
      if (pairs.some(([pk]) => pk === ks)) {
        fail(
          'Duplicate object key',
          `Two different items produced the key "${ks}" in this "for" expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`,
          e.keyExpr.range,
        );
      }
      pairs.push([ks, val]);
    }
  }
  if (!e.keyExpr) return items;
  return e.grouping ? sortedObject(groups.entries()) : sortedObject(pairs);
}

function evalTemplate(parts: TemplatePart[], ctx: EvalContext, range: Range): HclValue {
  // A template that is exactly one interpolation yields the value itself, not its string form.
  const only = parts[0];
  if (parts.length === 1 && only?.kind === 'interp') return evaluate(only.expr, ctx);
  return renderParts(parts, ctx, range);
}

function renderParts(parts: TemplatePart[], ctx: EvalContext, range: Range): string {
  let out = '';
  for (const p of parts) {
    switch (p.kind) {
      case 'literal':
        out += p.text;
        break;
      case 'interp': {
        const v = evaluate(p.expr, ctx);
        if (v === null) {
          fail(
            'Invalid template interpolation value',
            'The expression result is null. Cannot include a null value in a string template.',
            p.expr.range,
          );
        }
        out += convertOr(
          () => toStr(v),
          'Invalid template interpolation value',
          p.expr.range,
          'Cannot include the given value in a string template',
        );
        break;
      }
      case 'if': {
        const c = evaluate(p.cond, ctx);
        const b = convertOr(() => toBool(c), 'Invalid template if condition', p.cond.range);
        out += renderParts(b ? p.then : p.else, ctx, range);
        break;
      }
      case 'for':
        for (const [k, v] of iterate(evaluate(p.coll, ctx), p.coll.range)) {
          const names: Record<string, HclValue> = { [p.valVar]: v };
          if (p.keyVar) names[p.keyVar] = k;
          out += renderParts(p.body, withScope(ctx, names), range);
        }
        break;
    }
  }
  return out;
}

function evalCall(e: Expr & { type: 'call' }, ctx: EvalContext): HclValue {
  // try() and can() need their arguments unevaluated, to catch the errors.
  if (e.name === 'try' || e.name === 'can') {
    if (e.args.length === 0)
      fail('Not enough function arguments', `Function "${e.name}" expects at least one argument.`, e.range);
    for (const a of e.args) {
      try {
        const v = evaluate(a, ctx);
        return e.name === 'can' ? true : v;
      } catch (err) {
        if (!(err instanceof JobspecError)) throw err;
        if (e.name === 'can') return false;
      }
    }
    fail('Error in function call', 'Call to function "try" failed: no expression succeeded.', e.range);
  }
  if (!hasFunction(e.name))
    fail('Call to unknown function', `There is no function named "${e.name}".`, e.nameRange);
  let args = e.args.map((a) => evaluate(a, ctx));
  if (e.expandFinal) {
    const last = args[args.length - 1];
    if (!Array.isArray(last)) {
      fail(
        'Invalid expanding argument value',
        'The expanding argument (indicated by ...) must be of a tuple, list, or set type.',
        e.range,
      );
    }
    args = [...args.slice(0, -1), ...last];
  }
  try {
    return callFunction(e.name, args);
  } catch (err) {
    if (err instanceof FunctionError || err instanceof ConvertError) {
      fail('Error in function call', `Call to function "${e.name}" failed: ${err.message}.`, e.range);
    }
    throw err;
  }
}
