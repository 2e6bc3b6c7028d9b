/**
 * A fast path in front of a zod schema's parse, for the common case of valid input. zod stays the
 * source of truth: the schema is read once into plain closures (objects: generated code) for the
 * kinds of node the API schemas use (loose/strip objects, records, arrays, optional, nullable,
 * string, number, boolean, unknown), and any input those closures are not sure of (invalid, or a
 * case they do not model) goes to zod, which then gives the answer and its messages. Valid input
 * gets the very data zod would return, keys in zod's order, because zod's parsers are slow until V8
 * has warmed them up, and a short CLI run never gets there (a 200-job plan spent more CPU in them
 * than in anything else of its own).
 */
import type { z } from 'zod';
import { util as zodUtil } from 'zod/v4/core';

/** Returned when the fast path does not decide: zod must. */
const UNSURE: unique symbol = Symbol('unsure');
type Parse = (value: unknown) => unknown;

/** The parts of zod's internal schema node read here (zod 4's `_zod`). */
interface Node {
  _zod: {
    def: {
      type: string;
      checks?: unknown[];
      coerce?: boolean;
      shape?: Record<string, Node>;
      catchall?: Node;
      innerType?: Node;
      element?: Node;
      keyType?: Node;
      valueType?: Node;
    };
    optin?: string;
    optout?: string;
    traits: Set<string>;
  };
}

class Unsupported extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

interface Field {
  key: string;
  parse: Parse;
  /** zod leaves an absent key out only for optional-in, optional-out schemas; others are not modelled. */
  absentOk: boolean;
}

function compileObject(node: Node): Parse {
  const { shape = {}, catchall } = node._zod.def;
  if (Object.getOwnPropertySymbols(shape).length > 0) throw new Unsupported();
  const fields: Field[] = Object.keys(shape).map((key) => {
    const el = shape[key]!;
    if (key === '__proto__') throw new Unsupported();
    return {
      key,
      parse: compile(el),
      absentOk: el._zod.optin === 'optional' && el._zod.optout === 'optional',
    };
  });
  // A loose object's extra keys go through `unknown` (kept as they are); a strip object drops them.
  const keepExtra = catchall !== undefined;
  if (keepExtra && catchall._zod.def.type !== 'unknown') throw new Unsupported();
  return generatedObjectParser(fields, keepExtra);
}

/**
 * An object's parser as code written for its shape, as zod's own JIT does: every field is a property
 * access of its own, which V8 caches for that field. In one loop over the fields every access was a
 * lookup by key, and the responses of a deploy took twice as long to decode in a short command.
 * Where zod may not generate code either (`allowsEval`: its `jitless` setting, or a runtime that
 * forbids it), the object is left to zod.
 *
 * The code is written when the object first meets a value: a schema's tree is read whole (whether the
 * fast path models it), but of the job schema's fifty-odd objects a jobspec reaches a handful, and
 * compiling the rest cost every plan about 10 M instructions (50 functions generated, 8 used).
 */
function generatedObjectParser(fields: Field[], keepExtra: boolean): Parse {
  if (!zodUtil.allowsEval.value) throw new Unsupported();
  let parse: Parse | undefined;
  return (value) => (parse ??= objectParserCode(fields, keepExtra))(value);
}

function objectParserCode(fields: Field[], keepExtra: boolean): Parse {
  const steps = fields.map((f, i) => {
    const key = JSON.stringify(f.key);
    // Presence first, as zod decides it (`in`): a jobspec leaves most fields out, and an absent field
    // then costs that one lookup instead of a read and an `in`.
    return `if (${key} in value) { v = p${i}(value[${key}]); if (v === U) return U; out[${key}] = v; }${f.absentOk ? '' : ' else return U;'}`;
  });
  const extra = keepExtra
    ? `for (const key in value) {
  if (known.has(key)) continue;
  if (key === '__proto__') return U;
  out[key] = value[key];
}`
    : '';
  const source = `${fields.map((_, i) => `const p${i} = parsers[${i}];`).join('\n')}
return function parseObject(value) {
if (typeof value !== 'object' || value === null || Array.isArray(value)) return U;
const out = {};
let v;
${steps.join('\n')}
${extra}
return out;
};`;
  const make = new Function('U', 'parsers', 'known', source) as (
    unsure: typeof UNSURE,
    parsers: Parse[],
    known: Set<string>,
  ) => Parse;
  return make(
    UNSURE,
    fields.map((f) => f.parse),
    new Set(fields.map((f) => f.key)),
  );
}

function compileRecord(node: Node): Parse {
  const { keyType, valueType } = node._zod.def;
  if (!keyType || !valueType) throw new Unsupported();
  const kd = keyType._zod.def;
  if (kd.type !== 'string' || kd.coerce || (kd.checks?.length ?? 0) > 0) throw new Unsupported();
  const parseValue = compile(valueType);
  return (value) => {
    if (!isPlainObject(value)) return UNSURE;
    if (Object.getOwnPropertySymbols(value).length > 0) return UNSURE;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === '__proto__') return UNSURE;
      const item = parseValue(value[key]);
      if (item === UNSURE) return UNSURE;
      out[key] = item;
    }
    return out;
  };
}

function compileArray(node: Node): Parse {
  const element = node._zod.def.element;
  if (!element) throw new Unsupported();
  const parseItem = compile(element);
  return (value) => {
    if (!Array.isArray(value)) return UNSURE;
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = parseItem(value[i]);
      if (item === UNSURE) return UNSURE;
      out[i] = item;
    }
    return out;
  };
}

function compileWrapper(node: Node): Parse {
  const { type, innerType } = node._zod.def;
  // exactOptional shares the "optional" type but refuses `undefined`; a defaulted inner substitutes.
  if (!innerType || node._zod.traits.has('$ZodExactOptional') || innerType._zod.optin === 'defaulted')
    throw new Unsupported();
  const inner = compile(innerType);
  const passes = type === 'optional' ? undefined : null;
  return (value) => (value === passes ? value : inner(value));
}

const scalars: Record<string, Parse> = {
  string: (v) => (typeof v === 'string' ? v : UNSURE),
  number: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : UNSURE),
  boolean: (v) => (typeof v === 'boolean' ? v : UNSURE),
  unknown: (v) => v,
};

/**
 * Each node's parser, built once. A node met again while it is being built is a recursive schema (a
 * shape getter naming its own object): that back reference gets a forwarder to the parser being
 * built, instead of recursing for ever; everything else calls the built parsers directly. A node that
 * turns out unsupported leaves its forwarders answering UNSURE.
 */
const compiled = new WeakMap<Node, Parse>();
const building = new Map<Node, Parse>();

function compile(node: Node): Parse {
  const known = compiled.get(node) ?? building.get(node);
  if (known) return known;
  const slot: { impl?: Parse } = {};
  building.set(node, (v) => (slot.impl === undefined ? UNSURE : slot.impl(v)));
  try {
    slot.impl = build(node);
  } finally {
    building.delete(node);
  }
  compiled.set(node, slot.impl);
  return slot.impl;
}

function build(node: Node): Parse {
  const def = node._zod.def;
  // Checks (min, regex, refine, ...) and coercion change what passes or what comes out: zod's to do.
  if ((def.checks?.length ?? 0) > 0 || def.coerce) throw new Unsupported();
  switch (def.type) {
    case 'object':
      return compileObject(node);
    case 'record':
      return compileRecord(node);
    case 'array':
      return compileArray(node);
    case 'optional':
    case 'nullable':
      return compileWrapper(node);
  }
  const scalar = scalars[def.type];
  if (!scalar) throw new Unsupported();
  return scalar;
}

export type FastParse<T> = (value: unknown) => { success: true; data: T } | { success: false };

/**
 * `schema.safeParse` for valid input in the shapes above, else `{ success: false }` (meaning: ask
 * zod). A schema with a node the fast path does not model gets a parser that always defers to zod.
 */
export function fastParser<S extends z.ZodType>(schema: S): FastParse<z.output<S>> {
  // Read on first use, so a command that never parses pays nothing at startup.
  let parse: Parse | null | undefined;
  return (value) => {
    if (parse === undefined) parse = compileOrNull(schema as unknown as Node);
    if (parse === null) return { success: false };
    const out = parse(value);
    return out === UNSURE ? { success: false } : { success: true, data: out as z.output<S> };
  };
}

function compileOrNull(node: Node): Parse | null {
  try {
    return compile(node);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

const parsers = new WeakMap<z.ZodType, FastParse<unknown>>();

/** `schema.safeParse(value)`, by the fast path when it decides (its parser built once per schema). */
export function safeParseFast<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  let parse = parsers.get(schema);
  if (!parse) parsers.set(schema, (parse = fastParser(schema)));
  const fast = parse(value);
  return fast.success ? (fast as { success: true; data: z.output<S> }) : schema.safeParse(value);
}
