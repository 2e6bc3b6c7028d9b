import { flattenFull, flattenPrimitives, goFloat } from '../../../src/agent/sched/diff/flatten';
import { compareGoStrings, semanticEqual } from '../../../src/agent/sched/diff/json';

describe('diff helpers', () => {
  it('prints floats as Go %v does', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [8080, '8080'],
      [123456, '123456'],
      [1_000_000, '1e+06'],
      [1_234_567, '1.234567e+06'],
      [0.5, '0.5'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [-2.5e-7, '-2.5e-07'],
      [1e21, '1e+21'],
      [608863452348.1149, '6.088634523481149e+11'],
    ];
    expect(cases.map(([n]) => goFloat(n))).toEqual(cases.map(([, s]) => s));
  });

  it('flattens only scalars and scalar maps of a struct', () => {
    expect(
      flattenPrimitives(
        { Name: 'x', Count: 2, Enabled: true, Meta: { a: '1' }, Nested: { b: 1 }, List: [1], Gone: null },
        ['Name'],
      ),
    ).toEqual({ Count: '2', Enabled: 'true', 'Meta[a]': '1' });
  });

  it('keeps a __proto__ key as an ordinary key', () => {
    const flat = flattenFull(JSON.parse('{"__proto__": "x", "a": {"__proto__": 1}}'));
    expect(Object.keys(flat).sort()).toEqual(['__proto__', 'a[__proto__]']);
  });

  it('orders strings by code point like Go', () => {
    const astral = '\u{1F600}';
    expect(compareGoStrings(astral, '\uFF21')).toBe(1);
    expect('\uFF21' < astral).toBe(false); // JavaScript alone gets this wrong
    expect(compareGoStrings('a', 'ab')).toBe(-1);
    expect(compareGoStrings('B', 'a')).toBe(-1);
  });

  it('compares values with Go zero-value semantics', () => {
    expect(semanticEqual({ a: null, b: [], c: '', d: 0, e: false }, {})).toBe(true);
    expect(semanticEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(semanticEqual({ a: { b: 1 } }, { a: { b: 1, c: null } })).toBe(true);
  });
});
