import { compileRe2, Re2SyntaxError } from '../../../src/common/re2';

describe('compileRe2', () => {
  it('runs a pattern that backtracking engines take exponential time on, in linear time', () => {
    const started = Date.now();
    expect(compileRe2('^(a+)+$').test('a'.repeat(5000) + 'b')).toBe(false);
    // RegExp would not finish; RE2 takes milliseconds. The bound is loose on purpose.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("reads Go's syntax: named groups, Unicode classes, inline flags", () => {
    const m = compileRe2('(?P<word>\\pL+)-(\\d+)').first('x héllo-42');
    expect(m?.groups).toEqual(['héllo-42', 'héllo', '42']);
    expect(m?.named).toEqual({ word: 'héllo' });
    expect(compileRe2('(?i)abc').test('ABC')).toBe(true);
  });

  it('finds every match, empty ones included, without looping', () => {
    expect(
      compileRe2('[0-9]+')
        .all('a1b22c333')
        .map((m) => m.groups[0]),
    ).toEqual(['1', '22', '333']);
    expect(compileRe2('x*').all('ab').length).toBe(3);
  });

  it("refuses lookaheads and unbalanced groups with RE2's reason", () => {
    expect(() => compileRe2('a(?=b)')).toThrow(Re2SyntaxError);
    expect(() => compileRe2('(a')).toThrow(/missing \)/);
  });
});
