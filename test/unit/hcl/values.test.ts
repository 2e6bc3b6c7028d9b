import { applyNumericOp, compareText, sortedEntries, typeName } from '../../../src/hcl/values';

describe('shared HCL value helpers', () => {
  it('names JSON value types as cty does', () => {
    expect([null, undefined, 'a', 1, true, [], {}].map(typeName)).toEqual([
      'null',
      'null',
      'string',
      'number',
      'bool',
      'tuple',
      'object',
    ]);
  });

  it('orders keys by UTF-16 code units', () => {
    expect(['b', 'B', 'a', 'é'].sort(compareText)).toEqual(['B', 'a', 'b', 'é']);
    expect(sortedEntries(Object.entries({ z: 1, a: 2 }))).toEqual([
      ['a', 2],
      ['z', 1],
    ]);
  });

  it('applies comparison and arithmetic operators', () => {
    expect(applyNumericOp('+', 2, 3)).toBe(5);
    expect(applyNumericOp('%', 7, 3)).toBe(1);
    expect(applyNumericOp('<=', 3, 3)).toBe(true);
    expect(applyNumericOp('>', 1, 3)).toBe(false);
  });
});
