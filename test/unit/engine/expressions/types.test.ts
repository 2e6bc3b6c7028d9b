import { convertToType, formatType, parseTypeConstraint, UNKNOWN } from '../../../../src/engine/expressions';

describe('type constraints', () => {
  it('parses the forms cdktf writes', () => {
    expect(formatType(parseTypeConstraint('number'))).toBe('number');
    expect(formatType(parseTypeConstraint('list(string)'))).toBe('list(string)');
    expect(formatType(parseTypeConstraint('map(list(number))'))).toBe('map(list(number))');
    expect(formatType(parseTypeConstraint('object({name=string, port=optional(number, 80)})'))).toBe(
      'object({name=string, port=optional(number)})',
    );
    expect(formatType(parseTypeConstraint('tuple([string, bool])'))).toBe('tuple([string, bool])');
    expect(formatType(parseTypeConstraint('list'))).toBe('list(any)');
    expect(formatType(parseTypeConstraint('${map(string)}'))).toBe('map(string)');
  });

  it('rejects what is not a type', () => {
    expect(() => parseTypeConstraint('lst(string)')).toThrow(/not a type constructor/);
    expect(() => parseTypeConstraint('strng')).toThrow(/"strng" is not a type/);
    expect(() => parseTypeConstraint('optional(string)')).toThrow(/only valid for an attribute/);
  });

  it('converts values like Terraform variable assignment', () => {
    expect(convertToType('3', parseTypeConstraint('number'))).toBe(3);
    expect(convertToType(5, parseTypeConstraint('string'))).toBe('5');
    expect(convertToType(['b', 'a', 'b'], parseTypeConstraint('set(string)'))).toEqual(['a', 'b']);
    expect(convertToType({ a: '1' }, parseTypeConstraint('map(number)'))).toEqual({ a: 1 });
    expect(convertToType(null, parseTypeConstraint('list(string)'))).toBeNull();
    expect(convertToType(UNKNOWN, parseTypeConstraint('string'))).toBe(UNKNOWN);
  });

  it('fills optional object attributes and drops undeclared ones', () => {
    const t = parseTypeConstraint(
      'list(object({name=string, port=optional(number, 80), tags=optional(map(string))}))',
    );
    expect(convertToType([{ name: 'api', extra: true }], t)).toEqual([{ name: 'api', port: 80, tags: null }]);
    expect(() => convertToType([{ port: 1 }], t)).toThrow(/at \[0\]: attribute "name" is required/);
    expect(() => convertToType([{ name: 'x', port: 'high' }], t)).toThrow(
      /at \[0\]\["port"\]: cannot convert "high" to number/,
    );
  });
});
