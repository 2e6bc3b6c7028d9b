/**
 * Evaluates expression trees against a caller-supplied scope. Values not known until apply are the
 * provider's UNKNOWN marker; the rules follow Terraform's: an operation, function call or template
 * whose input is unknown is itself unknown, while collections keep unknown elements in place (so a
 * handler sees exactly which attributes are unknown).
 */
import {
  isBigFloat,
  numArith,
  numCompare,
  numFromText,
  numNegate,
  type ArithOp,
  type Num,
} from '../numbers/num';
import { FunctionError, lookupFunction, type FunctionContext, type FunctionDef } from '../functions';
import { paramName, SIGNATURES } from '../functions/signatures';
import type { BinaryOp, DynamicBlock, Expr, ForExpr, Span, Step, TemplatePart } from './ast';
import { ExpressionError } from './errors';
import { callMarkFunction, isMarkFunction } from './mark-functions';
import { containsMarks, maskLeaves, markIf, unmark, unmarkDeep } from './marks';
import { parseTemplate } from './parser';
import { referenceOf, visitExpr, type Reference } from './references';
import { setProp } from './types';
import {
  containsUnknown,
  isObjectValue,
  isUnknown,
  sortedEntries,
  toBool,
  toNum,
  toNumeric,
  toStr,
  typeName,
  UNKNOWN,
  UNKNOWN_NOT_NULL,
  valuesEqual,
} from './values';

/**
 * What the evaluator asks its caller for. The plan and apply code implement it on top of the
 * configuration, the state and the planned values.
 */
export interface EvalScope {
  /**
   * The value of a managed resource or data source *as a whole*: an object for a single instance,
   * an array of instance objects (by index) when it has `count`, an object of instance objects (by
   * key) when it has `for_each`. Attributes not known yet are UNKNOWN, and so is the whole value
   * when nothing about it is known. The evaluator applies the instance key and attribute path itself
   * (`ref.key` / `ref.path` are informational). Return `undefined` when no such resource is declared.
   */
  resolveReference(ref: Reference & { kind: 'resource' }): unknown;
  /** An input variable's value (already defaulted and converted); `undefined` when not declared. */
  variable(name: string): unknown;
  /** A local value; `undefined` when not declared. */
  local(name: string): unknown;
  /** Set while evaluating an instance of a resource with `count`. */
  count?: { index: number };
  /** Set while evaluating an instance of a resource with `for_each`. */
  each?: { key: string; value: unknown };
  /** The current object, where Terraform allows `self` (postconditions, provisioners). */
  self?: unknown;
  /** `path.module`, `path.root`, `path.cwd`. */
  path?: { module: string; root: string; cwd: string };
  /** `terraform.workspace` (default "default"). */
  workspace?: string;
  /** Set while applying: impure functions (`timestamp`, `uuid`, `bcrypt`) are known only then. */
  applying?: boolean;
  /** When the plan was made (RFC 3339 or ISO 8601), for `plantimestamp()`; defaults to now. */
  planTimestamp?: string;
}

/** One timestamp per process for plans that do not carry their own, so every call agrees. */
const PROCESS_START = new Date().toISOString();

/** Evaluates one expression. Throws ExpressionError (with the failing span) on errors. */
export function evaluate(expr: Expr, scope: EvalScope): unknown {
  return new Evaluator(scope).eval(expr, undefined);
}

/** Names bound by `for` expressions, template `for` directives and dynamic block iterators. */
interface Frame {
  vars: ReadonlyMap<string, unknown>;
  parent: Frame | undefined;
}

function lookupFrame(f: Frame | undefined, name: string): { found: boolean; value?: unknown } {
  for (let cur = f; cur; cur = cur.parent)
    if (cur.vars.has(name)) return { found: true, value: cur.vars.get(name) };
  return { found: false };
}

function bind(parent: Frame | undefined, vars: [string, unknown][]): Frame {
  return { vars: new Map(vars), parent };
}

/** A template being built: its text so far, and whether any part was unknown or sensitive. */
interface TemplateAcc {
  out: string;
  unknown: boolean;
  marked: boolean;
}

/** The value without its mark; the mark is noted on the template. */
function takeMark(acc: TemplateAcc, v: unknown): unknown {
  const [inner, marked] = unmark(v);
  if (marked) acc.marked = true;
  return inner;
}

function appendText(acc: TemplateAcc, v: unknown): void {
  const text = takeMark(acc, v);
  if (isUnknown(text)) acc.unknown = true;
  else acc.out += text as string;
}

/** How an error names a sensitive key instead of quoting it. */
const SENSITIVE_KEY = '(sensitive value)';

function err(summary: string, detail: string, span?: Span): ExpressionError {
  return new ExpressionError(summary, detail, span);
}

/** Iteration pairs of a collection: index/element for arrays, key/value (sorted by key) for objects. */
function iterate(v: unknown, span: Span, what: string): [string | number, unknown][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (isObjectValue(v)) return sortedEntries(v);
  if (v === null)
    throw err('Iteration over null value', `A null value cannot be used as the collection in ${what}.`, span);
  throw err(
    'Iteration over non-iterable value',
    `A value of type ${typeName(v)} cannot be used as the collection in ${what}.`,
    span,
  );
}

/** The root name a reference starts with, as written (`var`, `local`, `foo` in `foo.bar`). */
function rootName(r: Reference): string {
  if (r.kind === 'resource') return r.mode === 'data' ? 'data' : r.type;
  return r.kind;
}

/** `line,column` (1-based) of an offset, as Terraform cites template positions. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length},${(before[before.length - 1] ?? '').length + 1}`;
}

/**
 * `templatefile`: the template sees only `vars` (and functions, except templatefile itself), as in
 * Terraform, which checks this before evaluating anything.
 */
function renderTemplateFile(
  scope: EvalScope,
  text: string,
  vars: Readonly<Record<string, unknown>>,
  file: string,
): unknown {
  const expr = parseTemplate(text);
  const names = new Set(Object.keys(vars));
  visitExpr(
    expr,
    {
      reference(r) {
        throw new FunctionError(
          `vars map does not contain key "${rootName(r)}", referenced at ${file}:${lineColumn(text, r.span.start)}-${lineColumn(text, r.span.end).split(',')[1]}`,
          1,
        );
      },
      call(name) {
        if (name === 'templatefile')
          throw new FunctionError('cannot recursively call templatefile from inside templatefile', 0);
      },
    },
    names,
  );
  const inner: EvalScope = {
    resolveReference: () => undefined,
    variable: () => undefined,
    local: () => undefined,
    ...(scope.path ? { path: scope.path } : {}),
    ...(scope.applying ? { applying: true } : {}),
    ...(scope.planTimestamp !== undefined ? { planTimestamp: scope.planTimestamp } : {}),
  };
  const frame = bind(undefined, Object.entries(vars));
  return new Evaluator(inner).eval(expr, frame);
}

const COMPARISONS: Partial<Record<BinaryOp, (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '>': (c) => c > 0,
  '<=': (c) => c <= 0,
  '>=': (c) => c >= 0,
};

/** cty's big-float arithmetic: x / 0 is an infinity, x % 0 is x; 0/0 has no value. */
function numericOp(op: BinaryOp, a: Num, b: Num, span: Span): unknown {
  const compare = COMPARISONS[op];
  if (compare) return compare(numCompare(a, b));
  try {
    return numArith(op as ArithOp, a, b);
  } catch (x) {
    if (!(x instanceof RangeError)) throw x;
    throw err('Operation failed', `Error during operation: ${x.message}.`, span);
  }
}

/** A function's failure as Terraform reports it: naming the parameter when one argument is to blame. */
function functionFailure(e: Expr & { type: 'call' }, x: FunctionError): ExpressionError {
  const param = x.argIndex === undefined ? undefined : paramName(e.name, x.argIndex);
  const argSpan = x.argIndex !== undefined && !e.expandFinal ? e.args[x.argIndex]?.span : undefined;
  const message = x.message.endsWith('.') ? x.message : `${x.message}.`;
  if (param !== undefined)
    return err(
      'Invalid function argument',
      `Invalid value for "${param}" parameter: ${message}`,
      argSpan ?? e.span,
    );
  return err('Error in function call', `Call to function "${e.name}" failed: ${message}`, e.span);
}

class Evaluator {
  constructor(private readonly scope: EvalScope) {}

  private functionContext(): FunctionContext {
    const scope = this.scope;
    return {
      baseDir: scope.path?.cwd ?? process.cwd(),
      planTimestamp: scope.planTimestamp ?? PROCESS_START,
      renderTemplate: (text, vars, file) => renderTemplateFile(scope, text, vars, file),
    };
  }

  eval(e: Expr, f: Frame | undefined): unknown {
    switch (e.type) {
      case 'literal':
        return e.raw === undefined ? e.value : numFromText(e.raw);
      case 'template':
        return this.template(e.parts, f);
      case 'scope':
        return this.scopeTraversal(e, f);
      case 'relative':
        return this.steps(this.eval(e.source, f), e.steps, f);
      case 'splat': {
        const [src, marked] = unmark(this.eval(e.source, f));
        if (isUnknown(src)) return markIf(UNKNOWN, marked);
        if (src === null) return markIf([], marked);
        const items = Array.isArray(src) ? src : [src];
        return markIf(
          items.map((x) => this.steps(x, e.steps, f)),
          marked,
        );
      }
      case 'call':
        return this.call(e, f);
      case 'tuple':
        return e.items.map((x) => this.eval(x, f));
      case 'object':
        return this.object(e.items, e.dynamic, f);
      case 'unary': {
        const [v, marked] = unmark(this.eval(e.operand, f));
        if (isUnknown(v)) return markIf(UNKNOWN, marked);
        return markIf(this.unary(e.op, v, e.operand.span), marked);
      }
      case 'binary':
        return this.binary(e.op, e.left, e.right, f);
      case 'conditional': {
        const [c, marked] = unmark(this.eval(e.cond, f));
        if (isUnknown(c)) return markIf(UNKNOWN, marked);
        if (c === null)
          throw err(
            'Invalid conditional',
            'The condition value is null. Conditions must either be true or false.',
            e.cond.span,
          );
        const b = this.wrap(
          () => toBool(c),
          e.cond.span,
          'Incorrect condition type',
          'The condition expression must be of type bool',
        );
        // Only the chosen branch is evaluated, so `var.x != null ? var.x.y : ""` works on null.
        // A sensitive condition makes the choice itself sensitive.
        return markIf(this.eval(b ? e.then : e.else, f), marked);
      }
      case 'for':
        return this.forExpr(e, f);
      case 'paren':
        return this.eval(e.expr, f);
    }
  }

  private unary(op: string, v: unknown, span: Span): unknown {
    return op === '-'
      ? numNegate(
          this.wrap(
            () => toNumeric(v, 'operand'),
            span,
            'Invalid operand',
            'Unsuitable value for unary operand',
          ),
        )
      : !this.wrap(() => toBool(v, 'operand'), span, 'Invalid operand', 'Unsuitable value for unary operand');
  }

  /**
   * Runs a conversion, re-labelling its ExpressionError with this summary and span. The reason of a
   * failed conversion may quote the value, so for a sensitive value it is left out.
   */
  private wrap<T>(fn: () => T, span: Span, summary: string, prefix: string, sensitive = false): T {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      const reason = sensitive ? `the value is sensitive, so it is not shown` : (e.detail ?? e.summary);
      throw err(summary, `${prefix}: ${reason}.`, span);
    }
  }

  private template(parts: TemplatePart[], f: Frame | undefined): unknown {
    const acc: TemplateAcc = { out: '', unknown: false, marked: false };
    for (const p of parts) {
      switch (p.kind) {
        case 'literal':
          acc.out += p.text;
          break;
        case 'interp':
          this.appendInterp(acc, p.expr, f);
          break;
        case 'if': {
          const [c, cm] = unmark(this.eval(p.cond, f));
          if (cm) acc.marked = true;
          if (isUnknown(c)) {
            acc.unknown = true;
            break;
          }
          const b = this.wrap(
            () => toBool(c),
            p.cond.span,
            'Invalid template directive',
            'The if condition must be a bool',
            cm,
          );
          appendText(acc, this.template(b ? p.then : p.else, f));
          break;
        }
        case 'for': {
          const coll = takeMark(acc, this.eval(p.coll, f));
          if (isUnknown(coll)) {
            acc.unknown = true;
            break;
          }
          for (const [k, v] of iterate(coll, p.span, 'a template for directive')) {
            const vars: [string, unknown][] = [[p.valVar, v]];
            if (p.keyVar) vars.push([p.keyVar, k]);
            appendText(acc, this.template(p.body, bind(f, vars)));
          }
          break;
        }
      }
    }
    // A template that includes a sensitive value is sensitive as a whole (Terraform's rule).
    return markIf(acc.unknown ? UNKNOWN_NOT_NULL : acc.out, acc.marked);
  }

  private appendInterp(acc: TemplateAcc, expr: Expr, f: Frame | undefined): void {
    const v = takeMark(acc, this.eval(expr, f));
    if (isUnknown(v)) acc.unknown = true;
    else acc.out += this.interpolated(v, expr.span);
  }

  private interpolated(v: unknown, span: Span): string {
    if (v === null || v === undefined) {
      throw err(
        'Invalid template interpolation value',
        'The expression result is null. Cannot include a null value in a string template.',
        span,
      );
    }
    if (typeof v === 'object' && !isBigFloat(v)) {
      throw err(
        'Invalid template interpolation value',
        `Cannot include the given value in a string template: string required, but have ${typeName(v)}.`,
        span,
      );
    }
    return toStr(v);
  }

  private scopeTraversal(e: Expr & { type: 'scope' }, f: Frame | undefined): unknown {
    const bound = lookupFrame(f, e.name);
    if (bound.found) return this.steps(bound.value, e.steps, f);
    const ref = referenceOf(e);
    const s = this.scope;
    const attrName = (i: number, what: string): string => {
      const st = e.steps[i];
      if (st?.kind !== 'attr') {
        throw err(
          'Invalid reference',
          `The "${e.name}" object cannot be accessed directly. Instead, access ${what}.`,
          e.span,
        );
      }
      return st.name;
    };
    switch (ref.kind) {
      case 'var': {
        const name = attrName(0, 'one of its attributes');
        const v = s.variable(name);
        if (v === undefined)
          throw err(
            'Reference to undeclared input variable',
            `An input variable with the name "${name}" has not been declared.`,
            e.span,
          );
        return this.steps(v, e.steps.slice(1), f);
      }
      case 'local': {
        const name = attrName(0, 'one of its attributes');
        const v = s.local(name);
        if (v === undefined)
          throw err(
            'Reference to undeclared local value',
            `A local value with the name "${name}" has not been declared.`,
            e.span,
          );
        return this.steps(v, e.steps.slice(1), f);
      }
      case 'count': {
        if (!s.count) {
          throw err(
            'Reference to "count" in non-counted context',
            'The "count" object can only be used in "resource" and "data" blocks, and only when the "count" argument is set.',
            e.span,
          );
        }
        const a = attrName(0, '"count.index"');
        if (a !== 'index')
          throw err(
            'Invalid "count" attribute',
            `The "count" object does not have an attribute named "${a}". The only supported attribute is count.index.`,
            e.span,
          );
        return this.steps(s.count.index, e.steps.slice(1), f);
      }
      case 'each': {
        if (!s.each) {
          throw err(
            'Reference to "each" in context without for_each',
            'The "each" object can be used only in "resource" and "data" blocks, and only when the "for_each" argument is set.',
            e.span,
          );
        }
        const a = attrName(0, '"each.key" or "each.value"');
        if (a !== 'key' && a !== 'value')
          throw err(
            'Invalid "each" attribute',
            `The "each" object does not have an attribute named "${a}". The supported attributes are each.key and each.value.`,
            e.span,
          );
        return this.steps(a === 'key' ? s.each.key : s.each.value, e.steps.slice(1), f);
      }
      case 'self':
        if (s.self === undefined)
          throw err(
            'Invalid "self" reference',
            'The "self" object is not available in this context.',
            e.span,
          );
        return this.steps(s.self, e.steps, f);
      case 'path': {
        const a = attrName(0, 'path.module, path.root or path.cwd');
        const p = s.path ?? { module: '.', root: '.', cwd: process.cwd() };
        if (a !== 'module' && a !== 'root' && a !== 'cwd')
          throw err(
            'Invalid "path" attribute',
            `The "path" object does not have an attribute named "${a}".`,
            e.span,
          );
        return this.steps(p[a], e.steps.slice(1), f);
      }
      case 'terraform': {
        const a = attrName(0, 'terraform.workspace');
        if (a !== 'workspace')
          throw err(
            'Invalid "terraform" attribute',
            `The "terraform" object does not have an attribute named "${a}".`,
            e.span,
          );
        return this.steps(s.workspace ?? 'default', e.steps.slice(1), f);
      }
      case 'module':
        throw err('Unsupported reference', 'Module calls are not supported by this engine.', e.span);
      case 'resource': {
        if (ref.mode === 'data') {
          attrName(0, 'a data source type');
          attrName(1, 'a data source name');
        } else {
          attrName(
            0,
            'a resource name (a reference to a resource type must be followed by at least one attribute access)',
          );
        }
        const v = s.resolveReference(ref);
        if (v === undefined) {
          const what = ref.mode === 'data' ? 'data resource' : 'managed resource';
          throw err(
            'Reference to undeclared resource',
            `A ${what} "${ref.type}" "${ref.name}" has not been declared.`,
            e.span,
          );
        }
        return this.steps(v, e.steps.slice(ref.mode === 'data' ? 2 : 1), f);
      }
    }
  }

  /** Attribute and index steps; anything sensitive on the way makes the result sensitive. */
  steps(value: unknown, steps: Step[], f: Frame | undefined): unknown {
    let cur = value;
    let marked = false;
    const take = (v: unknown): unknown => {
      const [inner, m] = unmark(v);
      if (m) marked = true;
      return inner;
    };
    for (const st of steps) {
      cur = take(cur);
      if (isUnknown(cur)) return markIf(UNKNOWN, marked);
      if (st.kind === 'attr') {
        if (isObjectValue(cur)) {
          if (!Object.prototype.hasOwnProperty.call(cur, st.name)) {
            throw err(
              'Unsupported attribute',
              `This object does not have an attribute named "${st.name}".`,
              st.span,
            );
          }
          cur = cur[st.name];
        } else if (cur === null || cur === undefined) {
          throw err(
            'Attempt to get attribute from null value',
            `This value is null, so it does not have any attributes (looking for "${st.name}").`,
            st.span,
          );
        } else if (Array.isArray(cur)) {
          throw err(
            'Unsupported attribute',
            `Can't access attribute "${st.name}" on a list. Did you mean an element of it ([0].${st.name}) or all of them ([*].${st.name})?`,
            st.span,
          );
        } else {
          throw err(
            'Unsupported attribute',
            `Can't access attribute "${st.name}" on a ${typeName(cur)} value.`,
            st.span,
          );
        }
        continue;
      }
      const [key, keyMarked] = unmark(this.eval(st.key, f));
      if (keyMarked) marked = true;
      if (isUnknown(key)) return markIf(UNKNOWN, marked);
      cur = this.index(cur, key, st.span, keyMarked);
    }
    return markIf(cur === undefined ? null : cur, marked);
  }

  /** A sensitive key is never quoted in an error. */
  private index(coll: unknown, key: unknown, span: Span, keyMarked: boolean): unknown {
    if (coll === null || coll === undefined)
      throw err('Attempt to index null value', 'This value is null, so it does not have any indices.', span);
    if (key === null) throw err('Invalid index', "Can't use a null value as an indexing key.", span);
    if (Array.isArray(coll)) {
      const n = this.wrap(
        () => toNum(key),
        span,
        'Invalid index',
        'The given key does not identify an element in this collection value',
        keyMarked,
      );
      if (!Number.isInteger(n) || n < 0 || n >= coll.length) {
        throw err(
          'Invalid index',
          `The given key does not identify an element in this collection value: ${keyMarked ? SENSITIVE_KEY : n} is ${Number.isInteger(n) && n >= 0 ? `out of range (length ${coll.length})` : 'not a valid index'}.`,
          span,
        );
      }
      return coll[n];
    }
    if (isObjectValue(coll)) {
      const k = this.wrap(
        () => toStr(key),
        span,
        'Invalid index',
        'The given key does not identify an element in this collection value',
        keyMarked,
      );
      if (!Object.prototype.hasOwnProperty.call(coll, k)) {
        throw err(
          'Invalid index',
          `The given key does not identify an element in this collection value: no element ${keyMarked ? SENSITIVE_KEY : `"${k}"`}.`,
          span,
        );
      }
      return coll[k];
    }
    throw err('Invalid index', `This value does not have any indices (it is a ${typeName(coll)}).`, span);
  }

  private call(e: Expr & { type: 'call' }, f: Frame | undefined): unknown {
    if (e.name === 'try') return this.tryCall(e, f);
    if (e.name === 'can') return this.canCall(e, f);
    if (isMarkFunction(e.name)) {
      this.checkArity(e, { minArgs: 1, maxArgs: 1 }, e.args.length);
      return callMarkFunction(e.name, this.eval(e.args[0]!, f));
    }
    const def = lookupFunction(e.name);
    if (!def)
      throw err(`Call to unknown function "${e.name}"`, `There is no function named "${e.name}".`, e.span);
    const given = this.callArgs(e, f);
    if (given.unknown) return markIf(UNKNOWN, given.args.some(containsMarks) || given.marked);
    // Functions never see marks (Terraform's function boundary): the result is sensitive when any
    // argument was, or held something that was.
    const [args, marked] = given.args.reduce<[unknown[], boolean]>(
      ([out, any], a) => {
        const [v, m] = unmarkDeep(a);
        out.push(v);
        return [out, any || m];
      },
      [[], given.marked],
    );
    this.checkArity(e, def, args.length);
    const unknown = def.unknowns === 'shallow' ? args.some(isUnknown) : args.some(containsUnknown);
    if (unknown) return markIf(UNKNOWN, marked);
    // An impure function's result is not known until apply, but is known not to be null.
    if (def.impure && !this.scope.applying) return markIf(UNKNOWN_NOT_NULL, marked);
    try {
      return markIf(def.impl(args, this.functionContext()), marked);
    } catch (x) {
      throw this.callError(e, x, marked ? args : []);
    }
  }

  /** The evaluated arguments, the final one expanded when written `f(a, list...)`. */
  private callArgs(
    e: Expr & { type: 'call' },
    f: Frame | undefined,
  ): { args: unknown[]; marked: boolean; unknown: boolean } {
    const args = e.args.map((a) => this.eval(a, f));
    if (!e.expandFinal) return { args, marked: false, unknown: false };
    const [last, marked] = unmark(args[args.length - 1]);
    if (isUnknown(last)) return { args, marked, unknown: true };
    if (!Array.isArray(last)) {
      throw err(
        'Invalid expanding argument value',
        'The expanding argument (indicated by ...) must be of a tuple, list, or set type.',
        e.args[e.args.length - 1]!.span,
      );
    }
    return { args: [...args.slice(0, -1), ...(last as unknown[])], marked, unknown: false };
  }

  /** A function's failure as a diagnostic; a reason that quotes a sensitive argument is masked. */
  private callError(e: Expr & { type: 'call' }, x: unknown, sensitiveArgs: unknown[]): unknown {
    if (x instanceof FunctionError) {
      return functionFailure(e, new FunctionError(maskLeaves(x.message, sensitiveArgs), x.argIndex));
    }
    if (!(x instanceof ExpressionError)) return x;
    return err(
      'Error in function call',
      `Call to function "${e.name}" failed: ${maskLeaves(x.detail ?? x.summary, sensitiveArgs)}.`,
      e.span,
    );
  }

  private canCall(e: Expr & { type: 'call' }, f: Frame | undefined): unknown {
    if (e.args.length !== 1)
      throw err(
        'Invalid function call',
        `Function "can" expects exactly 1 argument, got ${e.args.length}.`,
        e.span,
      );
    try {
      return containsUnknown(unmarkDeep(this.eval(e.args[0]!, f))[0]) ? UNKNOWN : true;
    } catch (x) {
      if (x instanceof ExpressionError) return false;
      throw x;
    }
  }

  /** Terraform's messages: "expects 1 argument(s). Missing value for "str"." / "expects only 2". */
  private checkArity(
    e: Expr & { type: 'call' },
    def: Pick<FunctionDef, 'minArgs' | 'maxArgs'>,
    count: number,
  ): void {
    const sig = SIGNATURES[e.name];
    const variadic = def.maxArgs !== def.minArgs;
    if (count < def.minArgs) {
      const missing = paramName(e.name, count);
      throw err(
        'Not enough function arguments',
        `Function "${e.name}" expects${variadic ? ' at least' : ''} ${sig && !sig.variadic ? sig.params.length : def.minArgs} argument(s).${missing ? ` Missing value for "${missing}".` : ''}`,
        e.span,
      );
    }
    if (count > def.maxArgs) {
      throw err(
        'Too many function arguments',
        `Function "${e.name}" expects only ${def.maxArgs} argument(s).`,
        e.args[def.maxArgs]?.span ?? e.span,
      );
    }
  }

  private tryCall(e: Expr & { type: 'call' }, f: Frame | undefined): unknown {
    if (e.args.length === 0)
      throw err('Invalid function call', 'Function "try" needs at least one argument.', e.span);
    const errors: string[] = [];
    for (const a of e.args) {
      try {
        const v = this.eval(a, f);
        // An unknown result might still fail once known, so the choice itself is unknown.
        return containsUnknown(v) ? markIf(UNKNOWN, containsMarks(v)) : v;
      } catch (x) {
        if (!(x instanceof ExpressionError)) throw x;
        errors.push(x.message);
      }
    }
    throw err(
      'Error in function call',
      `Call to function "try" failed: no expression succeeded:\n- ${errors.join('\n- ')}`,
      e.span,
    );
  }

  /** Operands lose their marks for the operation; the result is sensitive when an operand was. */
  private binary(op: BinaryOp, le: Expr, re: Expr, f: Frame | undefined): unknown {
    if (op === '&&' || op === '||') return this.logical(op, le, re, f);
    const [l, lm] = unmarkDeep(this.eval(le, f));
    const [r, rm] = unmarkDeep(this.eval(re, f));
    const marked = lm || rm;
    if (op === '==' || op === '!=') {
      const eq = valuesEqual(l, r);
      if (isUnknown(eq)) return markIf(UNKNOWN, marked);
      return markIf(op === '==' ? eq : !eq, marked);
    }
    // cty refines arithmetic on unknowns as not null.
    if (isUnknown(l) || isUnknown(r)) return markIf(UNKNOWN_NOT_NULL, marked);
    const a = this.wrap(
      () => toNumeric(l),
      le.span,
      'Invalid operand',
      `Unsuitable value for left operand of ${op}`,
      lm,
    );
    const b = this.wrap(
      () => toNumeric(r),
      re.span,
      'Invalid operand',
      `Unsuitable value for right operand of ${op}`,
      rm,
    );
    return markIf(numericOp(op, a, b, le.span), marked);
  }

  private logical(op: '&&' | '||', le: Expr, re: Expr, f: Frame | undefined): unknown {
    const [l, lm] = unmark(this.eval(le, f));
    const lb = isUnknown(l)
      ? l
      : this.wrap(
          () => toBool(l),
          le.span,
          'Invalid operand',
          `Unsuitable value for left operand of ${op}`,
          lm,
        );
    // A known left side that decides the result skips errors on the right, but, as in Terraform,
    // an unknown right side still makes the result unknown.
    if (lb === (op === '||')) return this.decidedLogical(lb, lm, re, f);
    const [r, rm] = unmark(this.eval(re, f));
    const marked = lm || rm;
    const rb = isUnknown(r)
      ? r
      : this.wrap(
          () => toBool(r),
          re.span,
          'Invalid operand',
          `Unsuitable value for right operand of ${op}`,
          rm,
        );
    if (isUnknown(lb) || isUnknown(rb)) return markIf(UNKNOWN, marked);
    return markIf(rb, marked);
  }

  private decidedLogical(lb: boolean, lm: boolean, re: Expr, f: Frame | undefined): unknown {
    try {
      const [r, rm] = unmark(this.eval(re, f));
      return isUnknown(r) ? markIf(UNKNOWN, lm || rm) : markIf(lb, lm);
    } catch (x) {
      if (x instanceof ExpressionError) return markIf(lb, lm);
      throw x;
    }
  }

  private object(
    items: { key: Expr; value: Expr }[],
    dynamic: DynamicBlock[] | undefined,
    f: Frame | undefined,
  ): unknown {
    const out: Record<string, unknown> = {};
    let unknownKey = false;
    // A sensitive key would show in the object's shape, so it makes the whole object sensitive.
    let marked = false;
    for (const it of items) {
      const [k, km] = unmark(this.eval(it.key, f));
      const v = this.eval(it.value, f);
      if (km) marked = true;
      if (isUnknown(k)) {
        unknownKey = true;
        continue;
      }
      if (k === null) throw err('Invalid object key', 'Object keys must not be null.', it.key.span);
      setProp(
        out,
        this.wrap(() => toStr(k), it.key.span, 'Invalid object key', 'Object keys must be strings', km),
        v,
      );
    }
    for (const d of dynamic ?? []) this.dynamicBlock(d, out, f);
    return markIf(unknownKey ? UNKNOWN : out, marked);
  }

  private dynamicBlock(d: DynamicBlock, out: Record<string, unknown>, f: Frame | undefined): void {
    const [coll, marked] = unmark(this.eval(d.forEach, f));
    if (isUnknown(coll)) {
      // The number of blocks is not known yet, so neither is the attribute they make up.
      setProp(out, d.blockType, markIf(UNKNOWN, marked));
      return;
    }
    const blocks: unknown[] = [];
    if (coll !== null) {
      for (const [key, value] of iterate(coll, d.forEach.span, `the for_each of dynamic "${d.blockType}"`)) {
        blocks.push(markIf(this.eval(d.content, bind(f, [[d.iterator, { key, value }]])), marked));
      }
    }
    const existing = out[d.blockType];
    if (isUnknown(existing)) return;
    const prior =
      existing === undefined || existing === null ? [] : Array.isArray(existing) ? existing : [existing];
    setProp(out, d.blockType, [...prior, ...blocks]);
  }

  /**
   * A sensitive collection, condition or key makes the result sensitive as a whole (its length and
   * keys would tell); sensitive elements stay marked where they are.
   */
  private forExpr(e: ForExpr, f: Frame | undefined): unknown {
    const [coll, collMarked] = unmark(this.eval(e.coll, f));
    if (isUnknown(coll)) return markIf(UNKNOWN, collMarked);
    const acc: ForAcc = { tuple: [], obj: {}, unknown: false, marked: collMarked };
    for (const [k, v] of iterate(coll, e.coll.span, 'a for expression')) {
      const vars: [string, unknown][] = [[e.valVar, v]];
      if (e.keyVar) vars.push([e.keyVar, k]);
      this.forItem(e, bind(f, vars), acc);
    }
    if (acc.unknown) return markIf(UNKNOWN, acc.marked);
    return markIf(e.keyExpr ? acc.obj : acc.tuple, acc.marked);
  }

  private forItem(e: ForExpr, inner: Frame, acc: ForAcc): void {
    if (e.cond) {
      const [c, cm] = unmark(this.eval(e.cond, inner));
      if (cm) acc.marked = true;
      if (isUnknown(c)) {
        acc.unknown = true;
        return;
      }
      const keep = this.wrap(
        () => toBool(c),
        e.cond.span,
        'Invalid for expression condition',
        'The condition must be a bool',
        cm,
      );
      if (!keep) return;
    }
    const val = this.eval(e.valExpr, inner);
    if (!e.keyExpr) {
      acc.tuple.push(val);
      return;
    }
    const [key, km] = unmark(this.eval(e.keyExpr, inner));
    if (km) acc.marked = true;
    if (isUnknown(key)) {
      acc.unknown = true;
      return;
    }
    if (key === null)
      throw err(
        'Invalid object key',
        'Key expression in for expression must not produce a null value.',
        e.keyExpr.span,
      );
    const ks = this.wrap(
      () => toStr(key),
      e.keyExpr.span,
      'Invalid object key',
      'Object keys must be strings',
      km,
    );
    this.forPut(e, acc, ks, km, val);
  }

  private forPut(e: ForExpr, acc: ForAcc, ks: string, keyMarked: boolean, val: unknown): void {
    const has = Object.prototype.hasOwnProperty.call(acc.obj, ks);
    if (e.grouping) {
      setProp(acc.obj, ks, [...(has ? (acc.obj[ks] as unknown[]) : []), val]);
      return;
    }
    if (has) {
      throw err(
        'Duplicate object key',
        `Two different items produced the key ${keyMarked ? SENSITIVE_KEY : `"${ks}"`} in this for expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`,
        e.keyExpr!.span,
      );
    }
    setProp(acc.obj, ks, val);
  }
}

/** A for expression's result so far. */
interface ForAcc {
  tuple: unknown[];
  obj: Record<string, unknown>;
  unknown: boolean;
  marked: boolean;
}
