import { sameJsonText } from '../../../src/engine/same-json-text';

/** Pairs whose JSON texts are equal and pairs whose are not, each checked against JSON.stringify itself. */
const VALUES: unknown[] = [
  null,
  0,
  -0,
  1,
  NaN,
  Infinity,
  '',
  '0',
  'null',
  true,
  false,
  [],
  {},
  [null],
  [undefined],
  [() => 1],
  { a: 1 },
  { a: 1, b: undefined },
  { b: undefined, a: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: [1, { c: null }] },
  { a: [1, { c: undefined }] },
  { a: [1, {}] },
  { a: [1, { c: NaN }] },
  { a: { x: 'long text '.repeat(50) } },
  { a: { x: 'long text '.repeat(50) + '!' } },
  { __unknown__: true },
];

describe('sameJsonText', () => {
  it('agrees with comparing JSON.stringify texts for every pair', () => {
    for (const a of VALUES) {
      for (const b of VALUES) {
        const expected = JSON.stringify(a) === JSON.stringify(b);
        expect([a, b, sameJsonText(a, b)]).toEqual([a, b, expected]);
      }
    }
  });

  it('tells undefined apart from null at the top, as the texts do', () => {
    expect(sameJsonText(undefined, undefined)).toBe(true);
    expect(sameJsonText(undefined, null)).toBe(false);
  });
});
