import { compileRe2 } from '../../../src/common/re2';
import { re2ReplaceAll } from '../../../src/common/re2-replace';

const replace = (pattern: string, text: string, template: string): string =>
  re2ReplaceAll(compileRe2(pattern), text, template);

describe("re2ReplaceAll: Go's Regexp.ReplaceAllString", () => {
  it('expands numbered and named groups, braced or not', () => {
    expect(replace('(\\w+)-(\\d+)', 'web-1 api-2', '$2:$1')).toBe('1:web 2:api');
    expect(replace('(?P<svc>\\w+)-(\\d+)', 'web-1', '${svc}_${2}')).toBe('web_1');
  });

  it('reads the longest name after $, as Go does: $1x is the group named 1x, which is empty', () => {
    expect(replace('(a)', 'a', '$1x')).toBe('');
    expect(replace('(a)', 'a', '${1}x')).toBe('ax');
  });

  it('keeps $$ as one $ and a $ that starts no reference as it is', () => {
    expect(replace('a', 'a', '$$')).toBe('$');
    expect(replace('a', 'a', '$-')).toBe('$-');
    expect(replace('a', 'a', '${')).toBe('${');
  });

  it('expands a group that did not take part, or does not exist, to nothing', () => {
    expect(replace('(a)|(b)', 'b', '[$1][$2][$9][$nope]')).toBe('[][b][][]');
  });

  it('skips an empty match right after a match, as Go does (JavaScript does not)', () => {
    expect(replace('a*', 'baaac', 'x')).toBe('xbxcx');
    expect('baaac'.replace(/a*/g, 'x')).toBe('xbxxcx');
  });
});
