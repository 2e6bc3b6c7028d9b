/**
 * Terraform type constraints (`variable.type`, as cdktf writes them: "number", "list(string)",
 * "object({name=string, port=optional(number, 80)})") and conversion of values to them. Values are
 * JSON-shaped (see values.ts), so conversion means: primitives convert like Terraform's automatic
 * conversions, collections convert element-wise, object types fill optional attributes and drop
 * undeclared ones.
 */
import type { Expr } from './ast';
import { ExpressionError } from './errors';
import { markIf, unmark } from './marks';
import { parseExpression } from './parser';
import { numFromText, numNegate } from '../numbers/num';
import { isObjectValue, isUnknown, toBool, toNumeric, toSetArray, toStr, typeName } from './values';

export type TypeConstraint =
  | { kind: 'any' | 'string' | 'number' | 'bool' }
  | { kind: 'list' | 'set' | 'map'; element: TypeConstraint }
  | { kind: 'tuple'; elements: TypeConstraint[] }
  | { kind: 'object'; attributes: Record<string, ObjectAttribute> };

export interface ObjectAttribute {
  type: TypeConstraint;
  optional: boolean;
  /** Default for an optional attribute, converted to `type`; undefined means null. */
  default?: unknown;
}

const ANY: TypeConstraint = { kind: 'any' };

/** Parses a type constraint string; also accepts the pre-0.12 forms "string", "list" and "map". */
export function parseTypeConstraint(text: string): TypeConstraint {
  const trimmed = text.trim();
  // cdktf passes the type through as written; a `${...}` wrapper is the pre-0.12 habit.
  const inner = /^\$\{([\s\S]*)\}$/.exec(trimmed)?.[1] ?? trimmed;
  return typeFromExpr(parseExpression(inner), text);
}

function typeFromExpr(e: Expr, text: string): TypeConstraint {
  const bad = (why: string): ExpressionError =>
    new ExpressionError('Invalid type specification', `${why} in "${text}"`);
  if (e.type === 'scope' && e.steps.length === 0) {
    switch (e.name) {
      case 'any':
      case 'string':
      case 'number':
      case 'bool':
        return { kind: e.name };
      case 'list':
      case 'set':
      case 'map':
        return { kind: e.name, element: ANY };
      default:
        throw bad(`"${e.name}" is not a type`);
    }
  }
  if (e.type === 'literal' && typeof e.value === 'string') {
    // Terraform 0.11 quoted types ("string", "list", "map").
    return typeFromExpr({ type: 'scope', name: e.value, steps: [], span: e.span }, text);
  }
  if (e.type !== 'call') throw bad('expected a type');
  switch (e.name) {
    case 'list':
    case 'set':
    case 'map': {
      if (e.args.length !== 1) throw bad(`${e.name}(...) takes exactly one element type`);
      return { kind: e.name, element: typeFromExpr(e.args[0]!, text) };
    }
    case 'tuple': {
      const arg = e.args[0];
      if (e.args.length !== 1 || arg?.type !== 'tuple') throw bad('tuple(...) takes a list of element types');
      return { kind: 'tuple', elements: arg.items.map((x) => typeFromExpr(x, text)) };
    }
    case 'object': {
      const arg = e.args[0];
      if (e.args.length !== 1 || arg?.type !== 'object')
        throw bad('object(...) takes an object of attribute types');
      const attributes: Record<string, ObjectAttribute> = {};
      for (const item of arg.items) {
        const key =
          item.key.type === 'literal' && typeof item.key.value === 'string'
            ? item.key.value
            : item.key.type === 'scope' && item.key.steps.length === 0
              ? item.key.name
              : undefined;
        if (key === undefined) throw bad('object attribute names must be identifiers');
        attributes[key] = objectAttribute(item.value, text, bad);
      }
      return { kind: 'object', attributes };
    }
    case 'optional':
      throw bad('optional(...) is only valid for an attribute of object(...)');
    default:
      throw bad(`"${e.name}(...)" is not a type constructor`);
  }
}

function objectAttribute(e: Expr, text: string, bad: (why: string) => ExpressionError): ObjectAttribute {
  if (e.type !== 'call' || e.name !== 'optional') return { type: typeFromExpr(e, text), optional: false };
  if (e.args.length < 1 || e.args.length > 2) throw bad('optional(...) takes a type and an optional default');
  const type = typeFromExpr(e.args[0]!, text);
  if (e.args.length === 1) return { type, optional: true };
  const def = constantValue(e.args[1]!);
  return { type, optional: true, default: convertToType(def, type) };
}

/** Defaults in type constraints are constant expressions: literals, tuples and objects of literals. */
function constantValue(e: Expr): unknown {
  switch (e.type) {
    case 'literal':
      return e.raw === undefined ? e.value : numFromText(e.raw);
    case 'tuple':
      return e.items.map(constantValue);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const item of e.items) {
        const k =
          item.key.type === 'scope' && item.key.steps.length === 0 ? item.key.name : constantValue(item.key);
        out[toStr(k, 'object key')] = constantValue(item.value);
      }
      return out;
    }
    case 'unary':
      if (e.op === '-') return numNegate(toNumeric(constantValue(e.operand)));
      return !toBool(constantValue(e.operand));
    case 'paren':
      return constantValue(e.expr);
    default:
      throw new ExpressionError(
        'Invalid default value',
        'optional attribute defaults must be constant values',
      );
  }
}

export function formatType(t: TypeConstraint): string {
  switch (t.kind) {
    case 'any':
    case 'string':
    case 'number':
    case 'bool':
      return t.kind;
    case 'list':
    case 'set':
    case 'map':
      return `${t.kind}(${formatType(t.element)})`;
    case 'tuple':
      return `tuple([${t.elements.map(formatType).join(', ')}])`;
    case 'object':
      return `object({${Object.entries(t.attributes)
        .map(([k, a]) => `${k}=${a.optional ? `optional(${formatType(a.type)})` : formatType(a.type)}`)
        .join(', ')}})`;
  }
}

function pathText(path: (string | number)[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `["${p}"]`)).join('');
}

/**
 * Converts a value to a type the way Terraform does for variables and the to*() functions. Null
 * converts to null of any type; UNKNOWN stays unknown. Throws ExpressionError naming the nested path.
 */
export function convertToType(v: unknown, t: TypeConstraint, path: (string | number)[] = []): unknown {
  // A sensitive value converts to a sensitive value; marks inside it convert with their elements.
  const [inner, marked] = unmark(v);
  return markIf(convertUnmarked(inner, t, path), marked);
}

function convertUnmarked(v: unknown, t: TypeConstraint, path: (string | number)[]): unknown {
  if (isUnknown(v) || v === null || v === undefined) return v === undefined ? null : v;
  const fail = (why: string): ExpressionError =>
    new ExpressionError('Invalid value', `${path.length ? `at ${pathText(path)}: ` : ''}${why}`);
  const wrap = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof ExpressionError && e.detail) throw fail(e.detail);
      throw e;
    }
  };
  switch (t.kind) {
    case 'any':
      return v;
    case 'string':
      return wrap(() => toStr(v));
    case 'number':
      return wrap(() => toNumeric(v));
    case 'bool':
      return wrap(() => toBool(v));
    case 'list':
    case 'set': {
      if (!Array.isArray(v))
        throw fail(`${t.kind} of ${formatType(t.element)} required, but got ${typeName(v)}`);
      const items = v.map((x, i) => convertToType(x, t.element, [...path, i]));
      return t.kind === 'set' ? toSetArray(items) : items;
    }
    case 'tuple': {
      if (!Array.isArray(v)) throw fail(`tuple required, but got ${typeName(v)}`);
      if (v.length !== t.elements.length)
        throw fail(`tuple of ${t.elements.length} elements required, but got ${v.length}`);
      return v.map((x, i) => convertToType(x, t.elements[i]!, [...path, i]));
    }
    case 'map': {
      if (!isObjectValue(v)) throw fail(`map of ${formatType(t.element)} required, but got ${typeName(v)}`);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) setProp(out, k, convertToType(x, t.element, [...path, k]));
      return out;
    }
    case 'object': {
      if (!isObjectValue(v)) throw fail(`object required, but got ${typeName(v)}`);
      const out: Record<string, unknown> = {};
      for (const [k, a] of Object.entries(t.attributes)) {
        if (!(k in v) || v[k] === null || v[k] === undefined) {
          if (a.optional) {
            setProp(out, k, a.default === undefined ? null : a.default);
            continue;
          }
          if (!(k in v)) throw fail(`attribute "${k}" is required`);
        }
        setProp(out, k, convertToType(v[k], a.type, [...path, k]));
      }
      return out;
    }
  }
}

/** Assignment that treats `__proto__` as an ordinary key. */
export function setProp(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
