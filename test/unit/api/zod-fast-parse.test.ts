import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { dialectFor } from '../../../src/api/dialect';
import { neutralJob } from '../../../src/api/dialect/nomad-jobspec';
import type { JsonRecord } from '../../../src/api/json-record';
import {
  JobPlanPassedDiffResponseSchema,
  JobPlanResponseSchema,
  JobSchema,
} from '../../../src/api/sched/schemas';
import { fastParser } from '../../../src/api/zod-fast-parse';

/** JSON with key order and `undefined` members visible, so "the same data" means the same bytes. */
function exact(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '<undefined>' : x));
}

/** Jobs as the jobspec reader hands them to the schema: in neutral names. */
const fixtures = ['job-1.11.json', 'job-1.9.json', 'config-web.json'].map((f) =>
  neutralJob(JSON.parse(readFileSync(join(__dirname, '../../fixtures/nomad', f), 'utf8')) as JsonRecord),
);

/** Every variant of `job` with one member changed: removed, nulled, of another type, or an extra key. */
function* variants(v: unknown, set: (x: unknown) => unknown): Generator<unknown> {
  for (const other of [undefined, null, 'text', 7, Infinity, true, [], {}, [1]]) yield set(other);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      yield* variants(v[i], (x) => set(v.map((item, j) => (j === i ? x : item))));
    }
  } else if (typeof v === 'object' && v !== null) {
    const rec = v as Record<string, unknown>;
    yield set({ ...rec, Extra: { a: 1 } });
    yield set({ Zfirst: 1, ...rec });
    for (const key of Object.keys(rec)) {
      const { [key]: _removed, ...rest } = rec;
      yield set(rest);
      yield* variants(rec[key], (x) => set({ ...rec, [key]: x }));
    }
  }
}

/** The fast parser's answers on `samples` and on every one-member variant of them, against zod's. */
function compareWithZod(schema: z.ZodType, samples: unknown[]): void {
  const fast = fastParser(schema);
  for (const sample of samples) {
    const mine = fast(sample);
    const zods = schema.safeParse(sample);
    // The real samples are valid, and the fast path must decide them itself (that is its point).
    expect(zods.success).toBe(true);
    expect(mine.success).toBe(true);
    if (mine.success && zods.success) expect(exact(mine.data)).toBe(exact(zods.data));
  }
  let accepted = 0;
  let refused = 0;
  for (const sample of samples) {
    for (const variant of variants(sample, (x) => x)) {
      const mine = fast(variant);
      const zods = schema.safeParse(variant);
      if (!zods.success) {
        refused++;
        expect(mine.success).toBe(false);
      } else if (mine.success) {
        accepted++;
        expect(exact(mine.data)).toBe(exact(zods.data));
      }
    }
  }
  // Both sides must be exercised for the comparison to mean anything.
  expect(accepted).toBeGreaterThan(100);
  expect(refused).toBeGreaterThan(100);
}

describe('fastParser against safeParse: the same verdict on valid input, the same data, key order included', () => {
  it('on jobs and their variants', () => compareWithZod(JobSchema, fixtures));

  it('on a plan answer from Nomad 1.9, as the transport decodes it, and its variants', () => {
    const plan = dialectFor('scheduler', 'nomad').fromWire(
      JSON.parse(readFileSync(join(__dirname, '../../fixtures/nomad/plan-1.9.json'), 'utf8')),
    );
    compareWithZod(JobPlanResponseSchema, [plan]);
    compareWithZod(JobPlanPassedDiffResponseSchema, [plan]);
  });
});

describe('fastParser on the node kinds it does not model', () => {
  it('drops the extra keys of a strip object, like zod', () => {
    const schema = z.object({ a: z.string(), b: z.number().nullish() });
    const out = fastParser(schema)({ x: 1, b: null, a: 'v' });
    expect(out).toEqual({ success: true, data: { a: 'v', b: null } });
    expect(exact(out.success && out.data)).toBe(exact(schema.parse({ x: 1, b: null, a: 'v' })));
  });

  it('leaves checks, defaults and transforms to zod', () => {
    for (const schema of [
      z.object({ a: z.string().min(2) }),
      z.object({ a: z.string().default('d') }),
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ a: z.enum(['x']) }),
    ]) {
      expect(fastParser(schema)({ a: 'x' }).success).toBe(false);
    }
  });

  it('reads keys that are not identifiers (quotes, backslashes, spaces) as zod does', () => {
    const schema = z.looseObject({ 'a"b\\c': z.string(), 'x y': z.number().optional(), "it's": z.unknown() });
    const parse = fastParser(schema);
    const input = { extra: true, "it's": null, 'x y': 2, 'a"b\\c': 's' };
    expect(exact(parse(input))).toBe(exact({ success: true, data: schema.parse(input) }));
    expect(parse({ 'a"b\\c': 1, "it's": 0 }).success).toBe(false);
  });

  it('defers an absent key of a schema that is not optional', () => {
    const parse = fastParser(z.looseObject({ a: z.string(), b: z.unknown() }));
    expect(parse({ b: 1 }).success).toBe(false);
    expect(parse({ a: 's', b: undefined })).toEqual({ success: true, data: { a: 's', b: undefined } });
  });
});

describe('fastParser on a recursive schema', () => {
  interface Tree {
    name: string;
    children?: Tree[] | null;
  }
  const TreeSchema: z.ZodType<Tree> = z.looseObject({
    name: z.string(),
    get children() {
      return z.array(TreeSchema).nullish();
    },
  });

  it('parses nested levels and defers an invalid deep one', () => {
    const parse = fastParser(TreeSchema);
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', x: 1 }] }] };
    expect(parse(tree)).toEqual({ success: true, data: tree });
    expect(parse({ name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] }).success).toBe(false);
  });
});
