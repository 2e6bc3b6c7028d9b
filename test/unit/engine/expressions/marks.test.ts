/**
 * Sensitivity marks through the evaluator: every operator, function call, template, `for`
 * expression and conversion carries them, and sensitive(), nonsensitive() and issensitive() behave
 * as in Terraform 1.11.
 */
import { UNKNOWN, convertToType, parseTypeConstraint } from '../../../../src/engine/expressions';
import {
  isSensitive,
  markPaths,
  markSensitive,
  unmarkDeep,
  unmarkWithPaths,
} from '../../../../src/engine/expressions/marks';
import { ev, scopeOf } from './helpers';

const scope = scopeOf({
  vars: {
    key: markSensitive('k-123456'),
    n: markSensitive(7),
    flag: markSensitive(true),
    obj: { open: 'plain', secret: markSensitive('s-abcdef') },
    list: markSensitive(['a', 'b']),
    plain: 'p',
    u: markSensitive(UNKNOWN),
  },
});

/** The evaluated value without marks, and whether it (or anything inside) was marked. */
function evMarked(text: string): { value: unknown; marked: boolean; whole: boolean } {
  const v = ev(text, scope);
  const [value, marked] = unmarkDeep(v);
  return { value, marked, whole: isSensitive(v) };
}

describe('marks propagate', () => {
  it.each([
    ['template', 'k=${var.key}', 'k=k-123456'],
    ['arithmetic', '${var.n + 1}', 8],
    ['unary', '${-var.n}', -7],
    ['comparison', '${var.n == 7}', true],
    ['logical', '${var.flag && true}', true],
    ['conditional on a sensitive condition', '${var.flag ? "a" : "b"}', 'a'],
    ['function call', '${upper(var.key)}', 'K-123456'],
    [
      'function with a sensitive element inside an argument',
      '${jsonencode(var.obj)}',
      '{"open":"plain","secret":"s-abcdef"}',
    ],
    ['expanded argument', '${max(var.list[*] == [] ? [1] : [1, 2]...)}', 2],
    ['index into a sensitive list', '${var.list[0]}', 'a'],
    ['splat of a sensitive list', '${var.list[*]}', ['a', 'b']],
    ['for expression over a sensitive list', '${[for x in var.list : upper(x)]}', ['A', 'B']],
    ['template for directive', '%{ for x in var.list }${x}%{ endfor }', 'ab'],
    ['template if directive', '%{ if var.flag }yes%{ endif }', 'yes'],
  ])('%s', (_what, text, expected) => {
    const r = evMarked(text);
    expect(r.value).toEqual(expected);
    expect(r.whole).toBe(true);
  });

  it('keeps a mark on the element it sits on, not on the collection around it', () => {
    const v = ev('${{ a = var.plain, b = var.key }}', scope);
    expect(isSensitive(v)).toBe(false);
    expect(unmarkWithPaths(v)).toEqual({ value: { a: 'p', b: 'k-123456' }, paths: [['b']] });
    const obj = ev('${var.obj}', scope);
    expect(unmarkWithPaths(obj).paths).toEqual([['secret']]);
    expect(isSensitive(ev('${var.obj.open}', scope))).toBe(false);
    expect(isSensitive(ev('${var.obj.secret}', scope))).toBe(true);
    const listed = ev('${[for k, v in var.obj : v]}', scope);
    expect(unmarkWithPaths(listed).paths).toEqual([[1]]);
  });

  it('marks an unknown sensitive value and what is derived from it', () => {
    expect(isSensitive(ev('${upper(var.u)}', scope))).toBe(true);
    expect(isSensitive(ev('x-${var.u}', scope))).toBe(true);
  });

  it('leaves values without marks alone', () => {
    expect(ev('${upper(var.plain)}', scope)).toBe('P');
    expect(ev('${[var.plain]}', scope)).toEqual(['p']);
  });
});

describe('sensitive, nonsensitive, issensitive', () => {
  it('behave as Terraform 1.11', () => {
    expect(isSensitive(ev('${sensitive("x")}', scope))).toBe(true);
    expect(ev('${nonsensitive(var.key)}', scope)).toBe('k-123456');
    // Not an error since Terraform 1.8: a value that is not sensitive comes back as it is.
    expect(ev('${nonsensitive("x")}', scope)).toBe('x');
    expect(ev('${issensitive(var.key)}', scope)).toBe(true);
    expect(ev('${issensitive(var.plain)}', scope)).toBe(false);
    expect(ev('${issensitive(var.u)}', scope)).toBe(true);
    expect(ev('${issensitive(var.obj)}', scope)).toBe(false);
    expect(ev('${nonsensitive(sha256(var.key))}', scope)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('errors never quote a sensitive value', () => {
  it.each([
    ['${var.key + 1}'],
    ['${tonumber(var.key)}'],
    ['${var.obj[var.key]}'],
    ['%{ if var.key }x%{ endif }'],
  ])('%s', (text) => {
    let message = '';
    try {
      ev(text, scope);
    } catch (e) {
      message = String(e);
    }
    expect(message).not.toBe('');
    expect(message).not.toContain('k-123456');
  });
});

describe('conversion and paths', () => {
  it('converts a sensitive value to a sensitive value', () => {
    const v = convertToType(markSensitive('5'), parseTypeConstraint('number'));
    expect(isSensitive(v)).toBe(true);
    expect(unmarkDeep(v)[0]).toBe(5);
    const o = convertToType({ a: markSensitive('1') }, parseTypeConstraint('map(number)'));
    expect(unmarkWithPaths(o)).toEqual({ value: { a: 1 }, paths: [['a']] });
  });

  it('puts marks back at recorded paths', () => {
    const v = markPaths({ a: [1, { b: 'x' }], c: 'y' }, [['a', 1, 'b'], ['missing']]);
    expect(unmarkWithPaths(v)).toEqual({ value: { a: [1, { b: 'x' }], c: 'y' }, paths: [['a', 1, 'b']] });
  });
});
