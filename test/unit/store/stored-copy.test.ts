import { adoptJsonForm, storedCopy } from '../../../src/agent/store/stored-copy';

const viaJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe('storedCopy: a value as its JSON round trip leaves it', () => {
  const cases: Array<[string, object]> = [
    ['dates become strings', { at: new Date(0), list: [new Date(1)] }],
    [
      'undefined, functions and symbols vanish from objects',
      { a: undefined, f: () => 1, s: Symbol('x'), b: 1 },
    ],
    ['and become null in arrays', { list: [undefined, () => 1, Symbol('y'), 2] }],
    ['non-finite numbers become null, -0 becomes 0', { n: NaN, i: Infinity, m: -Infinity, z: -0, x: 1.5 }],
    ['boxed primitives are unboxed', { n: new Number(3), s: new String('t'), b: new Boolean(false) }],
    [
      'toJSON is called with the key',
      { v: { toJSON: (k: string) => `key:${k}` }, list: [{ toJSON: (k: string) => k }] },
    ],
    ['maps and sets become empty objects', { m: new Map([[1, 2]]), s: new Set([1]) }],
    ['holes become null', { list: [1, , 3] }], // eslint-disable-line no-sparse-arrays
    ['integer-like keys come first, in order', { b: 1, 2: 'two', a: 2, 1: 'one' }],
    ['__proto__ stays an own property', JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as object],
    ['nested arrays and objects', { a: [{ b: [{ c: null }] }], d: {} }],
  ];
  it.each(cases)('%s', (_name, value) => {
    const copy = storedCopy('t', 'k', value);
    expect(copy.value).toStrictEqual(viaJson(value));
    expect(Object.keys(copy.value)).toEqual(Object.keys(viaJson(value) as object));
    expect(copy.json()).toBe(JSON.stringify(value));
    expect(Object.isFrozen(copy.value)).toBe(true);
  });

  it('rejects what JSON cannot hold, naming the record', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = { back: cyclic };
    expect(() => storedCopy('jobs', 'web', cyclic)).toThrow(/jobs\/web is not JSON-serializable: .*circular/);
    expect(() => storedCopy('jobs', 'web', { n: 1n })).toThrow(/jobs\/web is not JSON-serializable/);
    expect(() => storedCopy('jobs', 'web', new Date(0))).toThrow(/must serialize to a JSON object or array/);
  });

  it('a value seen twice (not a cycle) is copied twice, as JSON would', () => {
    const shared = { x: 1 };
    const copy = storedCopy('t', 'k', { a: shared, b: shared }).value as Record<string, object>;
    expect(copy['a']).toStrictEqual({ x: 1 });
    expect(copy['a']).not.toBe(shared);
  });

  it('shares parts that are stored records already instead of copying them', () => {
    const job = storedCopy('jobs', 'web', { ID: 'web', Meta: { a: '1' }, Groups: [{ Count: 1 }] }).value;
    const alloc = storedCopy('allocs', 'a1', { ID: 'a1', Job: job, ClientStatus: 'pending' }).value as Record<
      string,
      unknown
    >;
    expect(alloc['Job']).toBe(job);
    const next = storedCopy('allocs', 'a1', { ...alloc, ClientStatus: 'running' }).value as Record<
      string,
      unknown
    >;
    expect(next['Job']).toBe(job);
    expect(next).toStrictEqual({ ID: 'a1', Job: viaJson(job), ClientStatus: 'running' });
    // A frozen object that the store did not make is copied, not trusted.
    const foreign = Object.freeze({ when: new Date(0) as unknown });
    const rec = storedCopy('t', 'k', { foreign }).value as Record<string, unknown>;
    expect(rec['foreign']).toStrictEqual({ when: '1970-01-01T00:00:00.000Z' });
  });
});

describe('adoptJsonForm: a value already in JSON form is stored without a copy', () => {
  it('adopts plain JSON values: frozen, and shared by the records that embed them', () => {
    const job = { ID: 'web', Count: 2, Ratio: 0.5, Stop: false, Meta: { a: '1' }, Groups: [{ Tasks: null }] };
    expect(adoptJsonForm(job)).toBe(true);
    expect(Object.isFrozen(job.Groups[0])).toBe(true);
    const rec = storedCopy('jobs', 'web', { ...job, Version: 1 }).value as Record<string, unknown>;
    expect(rec['Meta']).toBe(job.Meta);
    expect(rec['Groups']).toBe(job.Groups);
    expect(rec).toStrictEqual({ ...(viaJson(job) as object), Version: 1 });
  });

  it('adopts a part reached twice (not a cycle), and a refused value freezes none of its parts', () => {
    const shared = { Attempts: 2 };
    const job = { Groups: [{ Restart: shared }, { Restart: shared }] };
    expect(adoptJsonForm(job)).toBe(true);
    expect(Object.isFrozen(shared)).toBe(true);
    const good = { a: 1 };
    const bad = { first: good, second: { at: new Date(0) } };
    expect(adoptJsonForm(bad)).toBe(false);
    expect(Object.isFrozen(good)).toBe(false);
  });

  it.each<[string, () => object]>([
    ['undefined in an object', () => ({ a: { b: undefined } })],
    ['a hole in an array', () => ({ list: [1, , 3] })], // eslint-disable-line no-sparse-arrays
    ['-0, NaN and Infinity', () => ({ z: -0 })],
    ['NaN', () => ({ n: [NaN] })],
    ['a Date', () => ({ at: new Date(0) })],
    ['a toJSON method', () => ({ v: { toJSON: () => 1 } })],
    ['a symbol key', () => ({ [Symbol('s')]: 1, a: 1 })],
    ['a hidden key', () => Object.defineProperty({ a: 1 }, 'h', { value: 2, enumerable: false })],
    ['a class instance', () => ({ m: new Map() })],
    ['an array with an extra property', () => ({ list: Object.assign([1, 2], { extra: 3 }) })],
    // As many own keys as a whole array, but one is not an index: the hole must still be found.
    ['a hole and an extra property', () => ({ list: Object.assign([, 2], { extra: 3 }) })], // eslint-disable-line no-sparse-arrays
    [
      'a cycle',
      () => {
        const o: Record<string, unknown> = {};
        o['self'] = o;
        return o;
      },
    ],
  ])('refuses a value with %s and leaves it as it was', (name, make) => {
    const value = make();
    expect(adoptJsonForm(value)).toBe(false);
    expect(Object.isFrozen(value)).toBe(false);
    if (name === 'a cycle') return; // not storable at all
    const rec = storedCopy('t', 'k', { value }).value as Record<string, unknown>;
    expect(rec['value']).not.toBe(value);
  });
});
