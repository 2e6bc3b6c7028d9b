import type { Attribute, Block, Body, Expr } from './ast';
import { ConvertError, parseGoDuration, toBool, toNum, toStr } from './convert';
import { JobspecError, formatRange, type Range } from './errors';
import { evaluate, withScope, type EvalContext } from './evaluate';
import type { Decoded, FieldSpec, StructSchema, ValueType } from './schema-types';
import { isObject, sortedObject, type HclObject, type HclValue } from './values';

/*
 * Decodes a body against a declarative schema, the way gohcl decodes into Nomad's api structs:
 * unknown arguments and blocks are errors that name the item and suggest a close match.
 */

function fail(summary: string, detail: string, range: Range): never {
  throw new JobspecError(summary, detail, range);
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0] as number;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j] as number;
      d[j] = Math.min((d[j] as number) + 1, (d[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length] as number;
}

function suggestion(name: string, candidates: string[]): string {
  let best: string | undefined;
  let bestDist = 3;
  for (const c of candidates) {
    const dist = levenshtein(name, c);
    if (dist < bestDist) {
      best = c;
      bestDist = dist;
    }
  }
  return best ? ` Did you mean "${best}"?` : '';
}

const isAttrLike = (f: FieldSpec): boolean => f.kind === 'attr' || f.kind === 'stringMap';
const isBlockLike = (f: FieldSpec): boolean => f.kind !== 'attr';

/** Evaluates an attribute and converts it; null means "not set", as for gohcl optional fields. */
export function convertValue(v: HclValue, type: ValueType, name: string, expr: Expr): unknown {
  if (v === null || type === 'any') return v;
  try {
    switch (type) {
      case 'string':
        return toStr(v);
      case 'number':
        return toNum(v);
      case 'bool':
        return toBool(v);
      case 'int': {
        const n = toNum(v);
        if (!Number.isInteger(n)) throw new ConvertError('a whole number is required');
        return n;
      }
      case 'duration':
        if (typeof v === 'string') {
          try {
            return parseGoDuration(v);
          } catch (e) {
            if (e instanceof ConvertError)
              fail('Unsuitable value type', `Unsuitable duration value: ${e.message}`, expr.range);
            throw e;
          }
        }
        if (typeof v === 'number') return Math.trunc(v);
        fail(
          'Unsuitable value type',
          `Unsuitable value: expected a string but found ${typeof v === 'boolean' ? 'bool' : 'object'}`,
          expr.range,
        );
        break;
      case 'stringList':
        if (!Array.isArray(v)) throw new ConvertError('list of string required');
        return v.map((x) => {
          if (x === null) throw new ConvertError('element is null; list of string required');
          return toStr(x);
        });
    }
  } catch (e) {
    if (e instanceof ConvertError)
      fail(
        'Incorrect attribute value type',
        `Inappropriate value for attribute "${name}": ${e.message}.`,
        expr.range,
      );
    throw e;
  }
  return undefined;
}

interface ScopedBlock {
  block: Block;
  ctx: EvalContext;
}

/** Expands `dynamic "x" { for_each, iterator, labels, content {} }` into x blocks. */
function expandDynamic(blocks: Block[], ctx: EvalContext): ScopedBlock[] {
  const out: ScopedBlock[] = [];
  for (const b of blocks) {
    if (b.type !== 'dynamic') {
      out.push({ block: b, ctx });
      continue;
    }
    if (b.labels.length !== 1) {
      fail(
        'Missing name for dynamic',
        'A dynamic block must have one label: the type of the blocks it generates.',
        b.defRange,
      );
    }
    const type = b.labels[0] as string;
    const attrs = new Map(b.body.attributes.map((a) => [a.name, a]));
    for (const a of b.body.attributes) {
      if (!['for_each', 'iterator', 'labels'].includes(a.name)) {
        fail('Unsupported argument', `An argument named "${a.name}" is not expected here.`, a.nameRange);
      }
    }
    const contents = b.body.blocks.filter((x) => x.type === 'content');
    const stray = b.body.blocks.find((x) => x.type !== 'content');
    if (stray)
      fail(
        'Unsupported block type',
        `Blocks of type "${stray.type}" are not expected here.`,
        stray.typeRange,
      );
    if (contents.length !== 1) {
      fail(
        'Missing content block',
        'A dynamic block must have exactly one nested "content" block.',
        b.defRange,
      );
    }
    const forEach = attrs.get('for_each');
    if (!forEach)
      fail(
        'Missing required argument',
        'The argument "for_each" is required, but no definition was found.',
        b.body.range,
      );
    let iterName = type;
    const it = attrs.get('iterator');
    if (it) {
      if (it.expr.type !== 'scope' || it.expr.steps.length > 0) {
        fail(
          'Invalid expression',
          'A single static variable reference is required: only attribute access and indexing with constant keys.',
          it.expr.range,
        );
      }
      iterName = it.expr.root;
    }
    const coll = evaluate(forEach.expr, ctx);
    const entries: [HclValue, HclValue][] = Array.isArray(coll)
      ? coll.map((v, i) => [i, v])
      : isObject(coll)
        ? Object.keys(coll)
            .sort()
            .map((k) => [k, coll[k] as HclValue])
        : fail(
            'Invalid dynamic for_each value',
            'Cannot use a value of this type in for_each. An iterable collection is required.',
            forEach.expr.range,
          );
    for (const [key, value] of entries) {
      const inner = withScope(ctx, { [iterName]: { key, value } });
      const labelsAttr = attrs.get('labels');
      const labels = labelsAttr
        ? (convertValue(
            evaluate(labelsAttr.expr, inner),
            'stringList',
            'labels',
            labelsAttr.expr,
          ) as string[])
        : [];
      const content = contents[0] as Block;
      out.push({
        block: {
          ...content,
          type,
          labels,
          labelRanges: labels.map(() => b.labelRanges[0] as Range),
          typeRange: b.labelRanges[0] as Range,
        },
        ctx: inner,
      });
    }
  }
  return out;
}

function decodeStringMap(value: HclValue, name: string, expr: Expr): Record<string, string> {
  if (!isObject(value))
    fail(
      'Incorrect attribute value type',
      `Inappropriate value for attribute "${name}": map of string required.`,
      expr.range,
    );
  const out: [string, HclValue][] = [];
  for (const [k, v] of Object.entries(value)) {
    out.push([k, convertValue(v, 'string', name, expr) as string]);
  }
  return sortedObject(out) as Record<string, string>;
}

function justAttributes(body: Body, what: string): Attribute[] {
  const b = body.blocks[0];
  if (b) fail('Unexpected block', `Blocks are not allowed in ${what}.`, b.typeRange);
  return body.attributes;
}

/**
 * Nomad reads driver `config` through a body wrapper that turns nested blocks into attributes:
 * blocks of one type become a list of objects, labels become nested single-item lists, and an
 * object written as an attribute value is wrapped into a one-item list too.
 */
function freeformBody(body: Body, ctx: EvalContext): HclObject {
  const entries = new Map<string, HclValue>();
  for (const a of body.attributes) {
    const v = evaluate(a.expr, ctx);
    entries.set(a.name, a.expr.type === 'object' ? [v] : v);
  }
  const byType = new Map<string, ScopedBlock[]>();
  for (const sb of expandDynamic(body.blocks, ctx)) {
    if (!byType.has(sb.block.type)) byType.set(sb.block.type, []);
    (byType.get(sb.block.type) as ScopedBlock[]).push(sb);
  }
  for (const [type, blocks] of byType) {
    entries.set(
      type,
      blocks.map(({ block: b, ctx: bctx }) => {
        let v: HclValue = freeformBody(b.body, bctx);
        for (let i = b.labels.length - 1; i >= 0; i--) v = { [b.labels[i] as string]: [v] };
        return v;
      }),
    );
  }
  return sortedObject(entries.entries());
}

export function decodeBody(body: Body, schema: StructSchema, ctx: EvalContext, block?: Block): Decoded {
  const out: Decoded = {};
  const byName = new Map(schema.fields.map((f) => [f.name, f]));
  const attrNames = schema.fields.filter(isAttrLike).map((f) => f.name);
  const blockNames = schema.fields.filter(isBlockLike).map((f) => f.name);
  const mapAttrs = new Map<string, Attribute>();

  for (const a of body.attributes) {
    const spec = byName.get(a.name);
    if (!spec || !isAttrLike(spec)) {
      const detail = spec
        ? ` Did you mean to define a block of type "${a.name}"?`
        : suggestion(a.name, attrNames);
      fail(
        'Unsupported argument',
        `An argument named "${a.name}" is not expected here.${detail}`,
        a.nameRange,
      );
    }
    const v = evaluate(a.expr, ctx);
    if (spec.kind === 'stringMap') {
      mapAttrs.set(a.name, a);
      if (v !== null) out[spec.field] = decodeStringMap(v, a.name, a.expr);
    } else if (spec.kind === 'attr') {
      const converted = convertValue(v, spec.type, a.name, a.expr);
      if (converted !== null && converted !== undefined) out[spec.field] = converted;
    }
  }

  const seenSingle = new Map<string, Block>();
  for (const { block: b, ctx: bctx } of expandDynamic(body.blocks, ctx)) {
    const spec = byName.get(b.type);
    if (!spec || !isBlockLike(spec)) {
      const detail = spec
        ? ` Did you mean to define argument "${b.type}"? If so, use the equals sign to assign it a value.`
        : suggestion(b.type, blockNames);
      fail(
        'Unsupported block type',
        `Blocks of type "${b.type}" are not expected here.${detail}`,
        b.typeRange,
      );
    }
    const wantLabels = spec.kind === 'block' ? (spec.schema.labels?.length ?? 0) : 0;
    if (b.labels.length < wantLabels) {
      fail(
        `Missing name for ${b.type}`,
        `All ${b.type} blocks must have ${wantLabels} labels (name).`,
        b.defRange,
      );
    }
    if (b.labels.length > wantLabels) {
      const r = b.labelRanges[wantLabels] as Range;
      const detail =
        wantLabels === 0
          ? `No labels are expected for ${b.type} blocks.`
          : `Only ${wantLabels} labels (name) are expected for ${b.type} blocks.`;
      fail(`Extraneous label for ${b.type}`, detail, r);
    }
    const single = spec.kind !== 'block' || spec.mode === 'single';
    const prev = seenSingle.get(b.type);
    const prevAttr = mapAttrs.get(b.type);
    if (single && (prev || prevAttr)) {
      const where = prev ? formatRange(prev.defRange) : formatRange((prevAttr as Attribute).nameRange);
      fail(
        `Duplicate ${b.type} block`,
        `Only one ${b.type} block is allowed. Another was defined at ${where}.`,
        b.defRange,
      );
    }
    seenSingle.set(b.type, b);
    switch (spec.kind) {
      case 'stringMap': {
        const entries: [string, HclValue][] = justAttributes(b.body, `a ${b.type} block`).map((a) => [
          a.name,
          convertValue(evaluate(a.expr, bctx), 'string', a.name, a.expr) as HclValue,
        ]);
        out[spec.field] = sortedObject(entries);
        break;
      }
      case 'listMap': {
        const entries: [string, HclValue][] = justAttributes(b.body, `a ${b.type} block`).map((a) => [
          a.name,
          convertValue(evaluate(a.expr, bctx), 'stringList', a.name, a.expr) as HclValue,
        ]);
        out[spec.field] = sortedObject(entries);
        break;
      }
      case 'freeform':
        out[spec.field] = freeformBody(b.body, bctx);
        break;
      case 'block': {
        const decoded = decodeBody(b.body, spec.schema, bctx, b);
        if (spec.mode === 'single') out[spec.field] = decoded;
        else if (spec.mode === 'list') ((out[spec.field] ??= []) as Decoded[]).push(decoded);
        else {
          const m = (out[spec.field] ??= {}) as Record<string, Decoded>;
          m[b.labels[0] as string] = decoded;
        }
        break;
      }
    }
  }

  for (const f of schema.fields) {
    if (f.kind === 'attr' && f.required && !body.attributes.some((a) => a.name === f.name)) {
      fail(
        'Missing required argument',
        `The argument "${f.name}" is required, but no definition was found.`,
        block ? block.defRange : body.range,
      );
    }
  }
  if (block) (schema.labels ?? []).forEach((f, i) => (out[f] = block.labels[i]));
  schema.post?.(out, { block, ctx });
  return out;
}
