import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { neutralJob } from '../../../src/api/dialect/nomad-jobspec';
import type { JsonRecord } from '../../../src/api/json-record';
import { JobSchema } from '../../../src/api/sched/schemas';
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

describe('fastParser(JobSchema) against JobSchema.safeParse', () => {
  const fast = fastParser(JobSchema);

  it('decides the real jobs itself, with the data zod returns, key order included', () => {
    for (const job of fixtures) {
      const mine = fast(job);
      const zods = JobSchema.safeParse(job);
      expect(mine.success).toBe(true);
      expect(zods.success).toBe(true);
      if (mine.success && zods.success) expect(exact(mine.data)).toBe(exact(zods.data));
    }
  });

  it('never accepts what zod refuses, and returns zod data for what it accepts', () => {
    let accepted = 0;
    let refused = 0;
    for (const job of fixtures) {
      for (const variant of variants(job, (x) => x)) {
        const mine = fast(variant);
        const zods = JobSchema.safeParse(variant);
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

  it('defers an absent key of a schema that is not optional', () => {
    const parse = fastParser(z.looseObject({ a: z.string(), b: z.unknown() }));
    expect(parse({ b: 1 }).success).toBe(false);
    expect(parse({ a: 's', b: undefined })).toEqual({ success: true, data: { a: 's', b: undefined } });
  });
});
