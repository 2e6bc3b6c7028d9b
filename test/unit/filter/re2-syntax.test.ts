/**
 * The filter grammar's `matches` reads Go's RE2 syntax; src/common/re2 runs RE2 itself. These pin the
 * places where RE2 and JavaScript's RegExp disagree, so a change of engine cannot slip by.
 */
import { compileRe2, Re2SyntaxError } from '../../../src/common/re2';

function matches(pattern: string, text: string): boolean {
  return compileRe2(pattern).test(text);
}

function rejection(pattern: string): string {
  try {
    compileRe2(pattern);
  } catch (err) {
    if (err instanceof Re2SyntaxError) return err.message;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(pattern)} to be rejected`);
}

describe('compileRe2: behaviour shared with JavaScript', () => {
  it.each([
    ['^web-\\d+$', 'web-12', true],
    ['^web-\\d+$', 'web-x', false],
    ['a|b', 'xbx', true],
    ['colou?r', 'color', true],
    ['^(?:ab)+$', 'ababab', true],
    ['^a{2,3}$', 'aaa', true],
    ['^a{2,3}$', 'aaaa', false],
    ['^a{2,}$', 'aaaaa', true],
    ['^a{2}?$', 'aa', true],
    ['^(?P<name>\\w+)$', 'job_1', true],
    ['^(?<name>\\w+)$', 'job_1', true],
    ['\\bword\\b', 'a word here', true],
    ['\\Bord', 'word', true],
    ['[^a]', '\n', true],
  ])('%j on %j -> %s', (pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected);
  });

  it('searches (unanchored) like Go MatchString', () => {
    expect(matches('unn', 'running')).toBe(true);
  });

  it('matches code points, not UTF-16 units', () => {
    expect(matches('^.$', '😀')).toBe(true);
    expect(matches('^[😀-😂]$', '😁')).toBe(true);
  });
});

describe('compileRe2: RE2 constructs translated to JavaScript', () => {
  it('\\s is ASCII [\\t\\n\\f\\r ] as in RE2 (no \\v, no Unicode spaces)', () => {
    expect(matches('^\\s$', ' ')).toBe(true);
    expect(matches('^\\s$', '\t')).toBe(true);
    expect(matches('^\\s$', '\v')).toBe(false);
    expect(matches('^\\s$', '\u00a0')).toBe(false);
    expect(matches('^\\S$', '\u00a0')).toBe(true);
    expect(matches('^[\\s]$', '\u2003')).toBe(false);
    expect(matches('^[\\S]$', '\u2003')).toBe(true);
    expect(matches('^[\\S]$', ' ')).toBe(false);
  });

  it('. does not match \\n only (JavaScript also excludes \\r)', () => {
    expect(matches('^a.b$', 'a\rb')).toBe(true);
    expect(matches('^a.b$', 'a\nb')).toBe(false);
    expect(matches('(?s)^a.b$', 'a\nb')).toBe(true);
  });

  it('(?m) anchors at \\n only', () => {
    expect(matches('(?m)^b$', 'a\nb\nc')).toBe(true);
    expect(matches('^b$', 'a\nb\nc')).toBe(false);
    expect(matches('(?m)^b$', 'a\rb\rc')).toBe(false);
    expect(matches('(?m)^a', 'a')).toBe(true);
    expect(matches('(?m)c$', 'a\nb\nc')).toBe(true);
  });

  it('\\A and \\z anchor the whole text even under (?m)', () => {
    expect(matches('(?m)\\Ab', 'a\nb')).toBe(false);
    expect(matches('(?m)\\Aa', 'a\nb')).toBe(true);
    expect(matches('(?m)a\\z', 'a\nb')).toBe(false);
    expect(matches('(?m)b\\z', 'a\nb')).toBe(true);
  });

  it('leading flags apply to the whole pattern', () => {
    expect(matches('(?i)^web$', 'WEB')).toBe(true);
    expect(matches('(?i)(?s)^w.b$', 'W\nB')).toBe(true);
    expect(matches('(?is)^w.b$', 'W\nB')).toBe(true);
    expect(matches('(?i:^web$)', 'WeB')).toBe(true);
  });

  it('POSIX classes inside brackets, plain and negated', () => {
    expect(matches('^[[:alpha:]]+$', 'abcXYZ')).toBe(true);
    expect(matches('^[[:alpha:]]+$', 'abc1')).toBe(false);
    expect(matches('^[[:digit:][:upper:]]+$', '9Z')).toBe(true);
    expect(matches('^[[:^digit:]]+$', 'abc')).toBe(true);
    expect(matches('^[[:^digit:]]+$', 'a1')).toBe(false);
    expect(matches('^[[:xdigit:]]+$', 'deadBEEF09')).toBe(true);
    expect(matches('^[[:punct:]]$', '~')).toBe(true);
    expect(matches('^[[:space:]]$', '\v')).toBe(true);
    expect(matches('^[[:word:]]+$', 'a_1')).toBe(true);
  });

  it('Unicode classes: categories, scripts and negations', () => {
    expect(matches('^\\pL+$', 'Zürich')).toBe(true);
    expect(matches('^\\p{Lu}', 'Ab')).toBe(true);
    expect(matches('^\\p{Greek}+$', 'αβγ')).toBe(true);
    expect(matches('^\\P{Greek}+$', 'abc')).toBe(true);
    expect(matches('^\\p{^Greek}+$', 'αβγ')).toBe(false);
    expect(matches('^[\\p{Han}a]+$', '東京a')).toBe(true);
    expect(matches('^\\pN$', '٣')).toBe(true);
  });

  it('\\Q...\\E quotes metacharacters', () => {
    expect(matches('^\\Qa.b*c\\E$', 'a.b*c')).toBe(true);
    expect(matches('^\\Qa.b*c\\E$', 'axbbc')).toBe(false);
    expect(matches('\\Q(unclosed', 'x(unclosed')).toBe(true);
  });

  it('hex, octal and control escapes', () => {
    expect(matches('^\\x41\\x{1F600}$', 'A😀')).toBe(true);
    expect(matches('^\\101$', 'A')).toBe(true);
    expect(matches('^\\0$', '\0')).toBe(true);
    expect(matches('^\\a\\f\\t\\n\\r\\v$', '\x07\f\t\n\r\v')).toBe(true);
  });

  it('escaped punctuation is literal, including characters JavaScript would reject as escapes', () => {
    expect(matches('^\\-\\_\\#\\~\\:\\<$', '-_#~:<')).toBe(true);
    expect(matches('^[\\-\\_a]+$', '-_a')).toBe(true);
  });

  it('braces that are not repetitions are literals, as in RE2', () => {
    expect(matches('^{x}$', '{x}')).toBe(true);
    expect(matches('^a{,3}$', 'a{,3}')).toBe(true);
    expect(matches('^}$', '}')).toBe(true);
    expect(matches('^]$', ']')).toBe(true);
  });

  it('character class edge cases', () => {
    expect(matches('^[]a]+$', ']a')).toBe(true);
    expect(matches('^[^]a]$', 'b')).toBe(true);
    expect(matches('^[a-]+$', 'a-')).toBe(true);
    expect(matches('^[a-c-e]+$', 'b-e')).toBe(true);
    expect(matches('^[a[]+$', '[a')).toBe(true);
    expect(matches('^[\\d\\w]+$', '9_x')).toBe(true);
    expect(matches('^[\\D]$', '5')).toBe(false);
    expect(matches('^[\\W]$', '%')).toBe(true);
    expect(matches('^[/]$', '/')).toBe(true);
  });
});

describe('compileRe2: what RE2 rejects, with its reason', () => {
  it.each([
    ['(?=a)', 'invalid perl operator: (?='],
    ['(?!a)', 'invalid perl operator: (?!'],
    ['(?<=a)b', 'invalid perl operator: (?<'],
    ['(a)\\1', 'invalid escape sequence: \\1'],
    ['(?P<n>a)(?P=n)', 'invalid perl operator: (?P'],
    ['(?x)a', 'invalid perl operator: (?x'],
    ['\\Z', 'invalid escape sequence: \\Z'],
    ['[\\b]', 'invalid escape sequence: \\b'],
    ['\\x4', 'invalid escape sequence: \\x4'],
    ['\\p{Klingon}', 'invalid character class range: \\p{Klingon}'],
    ['[[:alphabet:]]', 'invalid character class range: [:alphabet:]'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['[abc', 'missing ]: [abc'],
    ['(abc', 'missing ): (abc'],
    ['abc)', 'unexpected ): abc)'],
    ['*a', 'no argument for repetition operator: *'],
    ['a{1001}', 'invalid repetition size: {1001}'],
    ['a{5,2}', 'invalid repetition size: {5,2}'],
    ['abc\\', 'trailing \\'],
  ])('%j: %s', (pattern, reason) => {
    expect(rejection(pattern)).toBe(reason);
  });

  it('accepts flags anywhere and the largest repeat count, as RE2 does', () => {
    expect(matches('a(?i)b', 'aB')).toBe(true);
    expect(matches('(?i:a)b', 'AB')).toBe(false);
    expect(matches('^a{1000}$', 'a'.repeat(1000))).toBe(true);
  });

  it('runs in linear time where a backtracking engine takes exponential time', () => {
    const started = performance.now();
    expect(matches('^(a+)+$', 'a'.repeat(5000) + 'b')).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
