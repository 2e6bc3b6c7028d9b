import { FilterError, parseFilter } from '../../../src/agent/filter';
import type { FilterExpr, MatchExpr } from '../../../src/agent/filter';

function match(expression: string): MatchExpr {
  const expr = parseFilter(expression);
  if (expr.type !== 'match') throw new Error(`expected a match expression, got ${expr.type}`);
  return expr;
}

/** A compact rendering of the tree, so precedence tests read like the expressions they check. */
function shape(expr: FilterExpr): string {
  switch (expr.type) {
    case 'match':
      return `${expr.selector.segments.join('.')} ${expr.operator}${expr.value ? ` ${expr.value.raw}` : ''}`;
    case 'not':
      return `(not ${shape(expr.operand)})`;
    default:
      return `(${shape(expr.left)} ${expr.type} ${shape(expr.right)})`;
  }
}

function syntaxErrorOf(expression: string): FilterError {
  try {
    parseFilter(expression);
  } catch (err) {
    if (err instanceof FilterError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

describe('parseFilter: match forms', () => {
  it.each([
    ['Status == "running"', 'equal', ['Status'], 'running'],
    ['Status != "dead"', 'notEqual', ['Status'], 'dead'],
    ['"dc1" in Datacenters', 'in', ['Datacenters'], 'dc1'],
    ['"dc1" not in Datacenters', 'notIn', ['Datacenters'], 'dc1'],
    ['Datacenters contains "dc1"', 'in', ['Datacenters'], 'dc1'],
    ['Datacenters not contains "dc1"', 'notIn', ['Datacenters'], 'dc1'],
    ['Name matches "^web"', 'matches', ['Name'], '^web'],
    ['Name not matches "^web"', 'notMatches', ['Name'], '^web'],
  ])('%s', (expression, operator, segments, raw) => {
    const m = match(expression);
    expect(m.operator).toBe(operator);
    expect(m.selector.segments).toEqual(segments);
    expect(m.value?.raw).toBe(raw);
  });

  it('parses "is empty" and "is not empty" without a value', () => {
    expect(match('Meta is empty')).toMatchObject({ operator: 'isEmpty', selector: { segments: ['Meta'] } });
    expect(match('Meta is empty').value).toBeUndefined();
    expect(match('Meta is not empty')).toMatchObject({ operator: 'isNotEmpty' });
    expect(match('Meta   is \n not\t empty').operator).toBe('isNotEmpty');
  });

  it('records the offset of each match', () => {
    const expr = parseFilter('  A == 1 and B == 2');
    expect(expr.type).toBe('and');
    if (expr.type !== 'and') return;
    expect(expr.left).toMatchObject({ offset: 2 });
    expect(expr.right).toMatchObject({ offset: 13 });
  });

  it('allows == and != without surrounding whitespace', () => {
    expect(match('Status=="running"')).toMatchObject({ operator: 'equal', value: { raw: 'running' } });
    expect(match('Count!=3')).toMatchObject({ operator: 'notEqual', value: { raw: '3', kind: 'number' } });
  });

  it('ignores whitespace (spaces, tabs, newlines) between tokens', () => {
    expect(shape(parseFilter('\n\t A\t==\n1\r\n and\n(B == 2) '))).toBe('(A equal 1 and B equal 2)');
  });
});

describe('parseFilter: precedence and grouping', () => {
  it.each([
    ['A == 1 and not B == 2 or C == 3', '((A equal 1 and (not B equal 2)) or C equal 3)'],
    ['A == 1 or B == 2 and C == 3', '(A equal 1 or (B equal 2 and C equal 3))'],
    ['(A == 1 or B == 2) and C == 3', '((A equal 1 or B equal 2) and C equal 3)'],
    ['not (A == 1 or B == 2)', '(not (A equal 1 or B equal 2))'],
    ['not A == 1 and B == 2', '((not A equal 1) and B equal 2)'],
    ['A == 1 or B == 2 or C == 3', '((A equal 1 or B equal 2) or C equal 3)'],
    ['((((A == 1))))', 'A equal 1'],
    ['not(A == 1)', '(not A equal 1)'],
  ])('%s', (expression, expected) => {
    expect(shape(parseFilter(expression))).toBe(expected);
  });

  it('folds double negation the way go-bexpr does', () => {
    expect(shape(parseFilter('not not A == 1'))).toBe('A equal 1');
    expect(shape(parseFilter('not not not A == 1'))).toBe('(not A equal 1)');
  });

  it('treats "not" as a name where an operator follows it', () => {
    expect(match('not == 1').selector.segments).toEqual(['not']);
    expect(match('not is empty').operator).toBe('isEmpty');
    expect(match('not in Tags')).toMatchObject({
      operator: 'in',
      value: { raw: 'not' },
      selector: { segments: ['Tags'] },
    });
  });

  it('does not take a keyword prefix of a longer word as the keyword', () => {
    expect(shape(parseFilter('nothing == 1 and android == 2'))).toBe('(nothing equal 1 and android equal 2)');
    expect(match('index in Tags').value?.raw).toBe('index');
  });
});

describe('parseFilter: selectors', () => {
  it('parses dotted names with letters, digits and underscores', () => {
    expect(match('Job_1.Task_Groups2.x == 1').selector).toEqual({
      kind: 'path',
      segments: ['Job_1', 'Task_Groups2', 'x'],
      text: 'Job_1.Task_Groups2.x',
    });
  });

  it('parses ["key"] index segments for keys that are not names', () => {
    expect(match('Meta["my-key"] == "v"').selector.segments).toEqual(['Meta', 'my-key']);
    expect(match('Meta[ "a b" ].c == 1').selector.segments).toEqual(['Meta', 'a b', 'c']);
    expect(match('Meta[`raw\\key`] == 1').selector.segments).toEqual(['Meta', 'raw\\key']);
    expect(match('Meta["quo\\"te"] == 1').selector.segments).toEqual(['Meta', 'quo"te']);
    expect(match('A["x"]["y"] == 1').selector.text).toBe('A["x"]["y"]');
  });

  it('parses numeric segments as array indexes', () => {
    expect(match('TaskGroups.0.Name == "web"').selector.segments).toEqual(['TaskGroups', '0', 'Name']);
    expect(match('A.10.2 == 1').selector.segments).toEqual(['A', '10', '2']);
  });

  it('parses a double-quoted JSON pointer in selector position', () => {
    expect(match('"/Meta/a~1b/c~0d" == "v"').selector).toEqual({
      kind: 'pointer',
      segments: ['Meta', 'a/b', 'c~d'],
      text: '"/Meta/a~1b/c~0d"',
    });
    expect(match('"x" in "/Meta/tags"').selector).toMatchObject({
      kind: 'pointer',
      segments: ['Meta', 'tags'],
    });
  });

  it('takes a quoted string before "in" as a value even when it starts with "/"', () => {
    expect(match('"/usr" in Paths')).toMatchObject({
      operator: 'in',
      value: { raw: '/usr', kind: 'string' },
    });
  });
});

describe('parseFilter: values', () => {
  it('expands escape sequences in double-quoted strings', () => {
    expect(match('A == "tab\\tnl\\ncr\\rbs\\\\q\\"bell\\a"').value?.raw).toBe('tab\tnl\ncr\rbs\\q"bell\x07');
    expect(match('A == "\\x41\\101\\u00e9\\U0001F600"').value?.raw).toBe('AAé😀');
    expect(match('A == "\\xc3\\xa9"').value?.raw).toBe('é');
    expect(match('A == "\\f\\v\\b"').value?.raw).toBe('\f\v\b');
  });

  it('keeps backtick strings raw', () => {
    expect(match('A == `a\\nb\\"c`').value?.raw).toBe('a\\nb\\"c');
    expect(match('A == `two\nlines`').value?.raw).toBe('two\nlines');
    expect(match('A == `cr\r\nlf`').value?.raw).toBe('cr\nlf');
    expect(match('A == `has "quotes"`').value).toEqual({ kind: 'string', raw: 'has "quotes"' });
  });

  it('keeps unicode text as written', () => {
    expect(match('Name == "Zürich 東京"').value?.raw).toBe('Zürich 東京');
  });

  it('parses integers and floats, keeping the text', () => {
    expect(match('A == 42').value).toEqual({ kind: 'number', raw: '42' });
    expect(match('A == -7').value).toEqual({ kind: 'number', raw: '-7' });
    expect(match('A == 0').value).toEqual({ kind: 'number', raw: '0' });
    expect(match('A == 3.25').value).toEqual({ kind: 'number', raw: '3.25' });
    expect(match('A == -0.5').value).toEqual({ kind: 'number', raw: '-0.5' });
    expect(match('(A == 1)').value?.raw).toBe('1');
    expect(match('5 in Ports')).toMatchObject({ operator: 'in', value: { kind: 'number', raw: '5' } });
  });

  it('accepts bare words as values, keeping their text (never looked up)', () => {
    expect(match('Status == running').value).toEqual({ kind: 'selector', raw: 'running' });
    expect(match('Status == a.b["c d"]').value).toEqual({ kind: 'selector', raw: 'a.b.c d' });
    expect(match('web in Tags')).toMatchObject({ operator: 'in', value: { kind: 'selector', raw: 'web' } });
    expect(match('web not in Tags')).toMatchObject({ operator: 'notIn', value: { raw: 'web' } });
    expect(match('Name matches web').value?.raw).toBe('web');
  });
});

describe('parseFilter: syntax errors name the position and what was expected', () => {
  it.each([
    ['', 0, 'empty expression'],
    ['   ', 3, 'empty expression'],
    ['Status ==', 9, 'expected a value'],
    ['Status = "x"', 7, 'expected an operator'],
    ['Status "x"', 7, 'expected an operator'],
    ['Status is', 9, 'expected "empty" or "not empty"'],
    ['Status is full', 10, 'expected "empty" or "not empty"'],
    ['Status not equal 1', 11, 'expected "contains", "matches" or "in" after "not"'],
    ['A == 1 and', 10, 'expected an expression'],
    // The second "or" is a selector named "or" (as in go-bexpr), so the operator is missing after it.
    ['A == 1 or or B == 2', 13, 'after selector or, found "B"'],
    ['A == 1 B == 2', 7, 'expected "and", "or" or the end'],
    ['(A == 1', 7, 'expected ")" to close the "(" at line 1, column 1'],
    ['A == 1)', 6, 'unmatched ")"'],
    ['A == "open', 5, 'unterminated string literal'],
    ['A == `open', 5, 'unterminated string literal'],
    ['A == "bad \\q escape"', 10, 'invalid escape sequence "\\q"'],
    ['A == "\\x4"', 6, 'hexadecimal digits'],
    ['A == "\\ud800"', 6, 'not a valid Unicode code point'],
    ['A == "\\12"', 6, 'invalid octal escape'],
    ['A == "line\nbreak"', 10, 'newline in double-quoted string'],
    ['A == 01', 5, 'invalid number literal "01"'],
    ['A == 1e5', 5, 'invalid number literal "1e5"'],
    ['A == 1.', 5, 'invalid number literal "1."'],
    ['A == 5x', 5, 'invalid number literal "5x"'],
    ['A. == 1', 2, 'expected a name or an index after "."'],
    ['A[b] == 1', 2, 'expected a quoted key inside "[...]"'],
    ['A["b" == 1', 6, 'expected "]" to close the "[" at line 1, column 2'],
    ['"x" == A', 4, 'expected "in" or "not in" after the string value'],
    ['1 == A', 2, 'expected "in" or "not in" after the number'],
    ['"x" in 5', 7, 'expected a selector'],
    ['"x" in "rel/path"', 7, 'JSON pointer'],
    ['"/a~2" == 1', 0, 'invalid JSON pointer'],
    ['"/a//b" == 1', 0, 'empty segment'],
    ['== 1', 0, 'expected an expression'],
    ['A == 1 && B == 2', 7, 'expected "and", "or" or the end'],
    ['A ~= 1', 2, 'expected an operator'],
  ])('%j fails at offset %d: %s', (expression, offset, text) => {
    const err = syntaxErrorOf(expression);
    expect(err.message).toContain(text);
    expect(err.position?.offset).toBe(offset);
    expect(err.message).toContain(`(offset ${offset})`);
  });

  it('reports line and column for multi-line expressions', () => {
    const err = syntaxErrorOf('A == 1 and\n  B ==');
    expect(err.position).toEqual({ offset: 17, line: 2, column: 7 });
    expect(err.message).toMatch(/^filter syntax error at line 2, column 7 \(offset 17\): expected a value/);
  });

  it('counts columns in characters, not UTF-16 units', () => {
    const err = syntaxErrorOf('A == "😀" B');
    expect(err.position).toMatchObject({ line: 1, column: 10 });
  });

  it('says what it found', () => {
    expect(syntaxErrorOf('A == 1 B == 2').message).toContain('found "B"');
    expect(syntaxErrorOf('A = 1').message).toContain('found "="');
    expect(syntaxErrorOf('A ==').message).toContain('found end of input');
    expect(syntaxErrorOf('"x" == 1').message).toContain('found "=="');
  });

  it('rejects invalid regular expressions at parse time, pointing at the pattern', () => {
    const err = syntaxErrorOf('Name matches "(unclosed"');
    expect(err.message).toContain('invalid regular expression "(unclosed"');
    expect(err.message).toContain('missing ): (unclosed');
    expect(err.position?.offset).toBe(13);
    expect(err.selector).toBe('Name');
    expect(syntaxErrorOf('Name not matches `a(?=b)`').message).toContain('invalid perl operator: (?=');
  });

  it('bounds nesting depth and expression count instead of overflowing the stack', () => {
    expect(syntaxErrorOf('('.repeat(500) + 'A == 1' + ')'.repeat(500)).message).toContain(
      'nested too deeply',
    );
    expect(syntaxErrorOf('not '.repeat(500) + 'A == 1').message).toContain('nested too deeply');
    expect(syntaxErrorOf(Array.from({ length: 1001 }, (_, i) => `A == ${i}`).join(' or ')).message).toContain(
      'too many match expressions',
    );
    expect(() => parseFilter(Array.from({ length: 1000 }, (_, i) => `A == ${i}`).join(' or '))).not.toThrow();
  });
});
