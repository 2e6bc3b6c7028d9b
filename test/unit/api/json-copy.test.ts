import { copyJson } from '../../../src/api/json-copy';

describe('copyJson', () => {
  const wide = (n: number): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, { nested: [i, { deep: `v${i}` }] }]));

  it.each([3, 40])('copies an object of %i keys deeply: changing the copy leaves the original alone', (n) => {
    const original: Record<string, unknown> & { list: unknown[] } = {
      ...wide(n),
      list: [1, { a: null, b: undefined }],
      flag: true,
    };
    const copy = copyJson(original);
    expect(copy).toEqual(original);
    expect(Object.keys(copy)).toEqual(Object.keys(original));
    expect('b' in (copy.list[1] as object)).toBe(true);
    (copy['k0'] as { nested: unknown[] }).nested.push('changed');
    (copy.list[1] as Record<string, unknown>)['a'] = 'changed';
    expect((original['k0'] as { nested: unknown[] }).nested).toHaveLength(2);
    expect((original.list[1] as Record<string, unknown>)['a']).toBeNull();
  });

  it.each([1, 40])('keeps a "__proto__" key of parsed JSON as data among %i other keys', (n) => {
    const parsed = JSON.parse(
      `{"__proto__": {"polluted": true}, ${Object.keys(wide(n))
        .map((k) => `"${k}": 1`)
        .join(',')}}`,
    ) as Record<string, unknown>;
    const copy = copyJson(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toContain('__proto__');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
  });

  it('returns primitives as they are', () => {
    expect(copyJson(null)).toBeNull();
    expect(copyJson('text')).toBe('text');
    expect(copyJson(4.5)).toBe(4.5);
  });
});
