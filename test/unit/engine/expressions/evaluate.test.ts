import {
  ExpressionError,
  UNKNOWN,
  evaluate,
  isUnknown,
  parseExpression,
} from '../../../../src/engine/expressions';
import { ev, scopeOf } from './helpers';

const vars = {
  n: 3,
  s: 'x',
  flag: true,
  list: ['a', 'b'],
  obj: { k: 'v', nested: { deep: 1 } },
  nothing: null,
};

describe('templates and typed interpolation', () => {
  const scope = scopeOf({ vars });

  it('keeps the type of a whole-string interpolation', () => {
    expect(ev('${var.n}', scope)).toBe(3);
    expect(ev('${var.flag}', scope)).toBe(true);
    expect(ev('${var.list}', scope)).toEqual(['a', 'b']);
    expect(ev('${var.obj}', scope)).toEqual(vars.obj);
    expect(ev('${var.nothing}', scope)).toBeNull();
  });

  it('concatenates string templates, converting numbers and bools', () => {
    expect(ev('n=${var.n} flag=${var.flag} s=${var.s}', scope)).toBe('n=3 flag=true s=x');
    expect(ev('${var.s}${var.n}', scope)).toBe('x3');
    expect(ev('${1.5}-${10000000}', scope)).toBe('1.5-10000000');
  });

  it('keeps escapes literal', () => {
    expect(ev('$${var.n} is ${var.n}', scope)).toBe('${var.n} is 3');
    expect(ev('%%{ if } stays', scope)).toBe('%{ if } stays');
  });

  it('refuses null and collections inside a string template', () => {
    expect(() => ev('a-${var.nothing}', scope)).toThrow(/null value/);
    expect(() => ev('a-${var.list}', scope)).toThrow(/string required, but have tuple/);
  });

  it('evaluates template directives with strip markers', () => {
    expect(ev('%{ if var.flag }on%{ else }off%{ endif }', scope)).toBe('on');
    expect(ev('%{ for i, x in var.list ~}\n[${i}:${x}]\n%{~ endfor }', scope)).toBe('[0:a][1:b]');
  });
});

describe('operators', () => {
  const scope = scopeOf({ vars });

  it('does arithmetic and comparisons with number conversion', () => {
    expect(ev('${var.n + 10}', scope)).toBe(13);
    expect(ev('${(var.n + 1) * 2 - 1}', scope)).toBe(7);
    expect(ev('${7 % 3}', scope)).toBe(1);
    expect(ev('${-var.n}', scope)).toBe(-3);
    expect(ev('${"5" + 1}', scope)).toBe(6);
    expect(ev('${var.n >= 3 && var.n < 4}', scope)).toBe(true);
    // cty divides big floats: an infinity, not an error; and x % 0 is x.
    expect(ev('${1 / 0}', scope)).toBe(Infinity);
    expect(ev('${7 % 0}', scope)).toBe(7);
    expect(() => ev('${var.list + 1}', scope)).toThrow(/Unsuitable value for left operand/);
  });

  it('compares values structurally and by type', () => {
    expect(ev('${var.list == ["a", "b"]}', scope)).toBe(true);
    expect(ev('${var.obj != {k = "v"}}', scope)).toBe(true);
    expect(ev('${1 == "1"}', scope)).toBe(false);
    expect(ev('${var.nothing == null}', scope)).toBe(true);
  });

  it('evaluates only the chosen branch of a conditional', () => {
    expect(ev('${var.n == 3 ? "three" : "other"}', scope)).toBe('three');
    expect(ev('${var.nothing != null ? var.nothing.x : "none"}', scope)).toBe('none');
    expect(ev('${!var.flag}', scope)).toBe(false);
    expect(() => ev('${var.s ? 1 : 2}', scope)).toThrow(/Incorrect condition type/);
  });

  it('short-circuits && and || on a deciding left side', () => {
    expect(ev('${var.nothing != null && var.nothing.x == 1}', scope)).toBe(false);
    expect(ev('${var.flag || var.nothing.x}', scope)).toBe(true);
  });
});

describe('references and traversal', () => {
  const web = [
    { id: 'w0', tags: { a: '1' } },
    { id: 'w1', tags: { a: '2' } },
  ];
  const scope = scopeOf({
    vars,
    locals: { prefix: 'web' },
    resources: {
      'sched_job.web': web,
      'sched_namespace.ns': { name: 'prod' },
      'data.sched_job.cur': { status: 'running' },
    },
  });

  it('indexes and traverses resource values', () => {
    expect(ev('${sched_job.web[1].id}', scope)).toBe('w1');
    expect(ev('${sched_job.web.0.id}', scope)).toBe('w0');
    expect(ev('${sched_job.web[*].id}', scope)).toEqual(['w0', 'w1']);
    expect(ev('${sched_job.web.*.tags.a}', scope)).toEqual(['1', '2']);
    expect(ev('${sched_namespace.ns.name}-${local.prefix}', scope)).toBe('prod-web');
    expect(ev('${data.sched_job.cur.status}', scope)).toBe('running');
    expect(ev('${var.obj["nested"]["deep"]}', scope)).toBe(1);
    expect(ev('${var.list[var.n - 2]}', scope)).toBe('b');
  });

  it('reports bad traversals with Terraform-like messages', () => {
    expect(() => ev('${sched_job.web[5].id}', scope)).toThrow(/out of range \(length 2\)/);
    expect(() => ev('${sched_namespace.ns.nme}', scope)).toThrow(/does not have an attribute named "nme"/);
    expect(() => ev('${sched_job.web.id}', scope)).toThrow(/Can't access attribute "id" on a list/);
    expect(() => ev('${var.nothing.x}', scope)).toThrow(/Attempt to get attribute from null value/);
    expect(() => ev('${var.missing}', scope)).toThrow(/Reference to undeclared input variable/);
    expect(() => ev('${local.missing}', scope)).toThrow(/Reference to undeclared local value/);
    expect(() => ev('${sched_job.nope.id}', scope)).toThrow(/"sched_job" "nope" has not been declared/);
    expect(() => ev('${sched_job}', scope)).toThrow(/Invalid reference/);
  });

  it('provides count.index, each.key/value and self only where set', () => {
    expect(ev('web-${count.index}', scopeOf({ count: { index: 2 } }))).toBe('web-2');
    expect(ev('${each.key}=${each.value.port}', scopeOf({ each: { key: 'api', value: { port: 80 } } }))).toBe(
      'api=80',
    );
    expect(ev('${self.id}', scopeOf({ self: { id: 'abc' } }))).toBe('abc');
    expect(() => ev('${count.index}', scope)).toThrow(/non-counted context/);
    expect(() => ev('${each.key}', scope)).toThrow(/without for_each/);
    expect(() => ev('${self.id}', scope)).toThrow(/Invalid "self" reference/);
    expect(() => ev('${count.nope}', scopeOf({ count: { index: 0 } }))).toThrow(
      /only supported attribute is count.index/,
    );
  });

  it('supports path and terraform.workspace', () => {
    const s = { ...scopeOf({}), path: { module: '/m', root: '/r', cwd: '/c' }, workspace: 'prod' };
    expect(evaluate(parseExpression('"${path.module}:${terraform.workspace}"'), s)).toBe('/m:prod');
  });
});

describe('for expressions', () => {
  const scope = scopeOf({
    vars: {
      ...vars,
      svcs: [
        { name: 'api', port: 1 },
        { name: 'ui', port: 2 },
        { name: 'api', port: 3 },
      ],
    },
  });

  it('builds tuples and objects, filtering with if', () => {
    expect(ev('${[for s in var.list : upper(s)]}', scope)).toEqual(['A', 'B']);
    expect(ev('${[for i, s in var.list : "${i}${s}" if s != "a"]}', scope)).toEqual(['1b']);
    expect(ev('${{for k, v in var.obj : k => v if k == "k"}}', scope)).toEqual({ k: 'v' });
  });

  it('groups with ... and rejects duplicate keys without it', () => {
    expect(ev('${{for s in var.svcs : s.name => s.port...}}', scope)).toEqual({ api: [1, 3], ui: [2] });
    expect(() => ev('${{for s in var.svcs : s.name => s.port}}', scope)).toThrow(/Duplicate object key/);
  });

  it('handles the shape cdktf emits for complex iterators', () => {
    expect(ev('${{ for key, val in var.svcs: "${val.name}-${val.port}" => val }}', scope)).toEqual({
      'api-1': { name: 'api', port: 1 },
      'api-3': { name: 'api', port: 3 },
      'ui-2': { name: 'ui', port: 2 },
    });
  });
});

describe('unknown values', () => {
  const scope = scopeOf({
    vars,
    resources: { 'sched_job.web': UNKNOWN, 'sched_namespace.ns': { name: 'prod', id: UNKNOWN } },
  });

  it('propagates through traversal, templates, operators and calls', () => {
    expect(isUnknown(ev('${sched_job.web.id}', scope))).toBe(true);
    expect(isUnknown(ev('${sched_job.web[*].id}', scope))).toBe(true);
    expect(isUnknown(ev('${sched_namespace.ns.id}', scope))).toBe(true);
    expect(isUnknown(ev('id=${sched_namespace.ns.id}', scope))).toBe(true);
    expect(isUnknown(ev('${sched_namespace.ns.id == "x"}', scope))).toBe(true);
    expect(isUnknown(ev('${upper(sched_namespace.ns.id)}', scope))).toBe(true);
    expect(isUnknown(ev('${jsonencode({a = sched_namespace.ns.id})}', scope))).toBe(true);
    expect(isUnknown(ev('${sched_namespace.ns.id ? 1 : 2}', scope))).toBe(true);
    expect(isUnknown(ev('${[for x in sched_job.web : x]}', scope))).toBe(true);
    expect(isUnknown(ev('${var.list[sched_namespace.ns.id]}', scope))).toBe(true);
  });

  it('keeps unknown elements inside collections rather than collapsing them', () => {
    expect(ev('${{name = sched_namespace.ns.name, id = sched_namespace.ns.id}}', scope)).toEqual({
      name: 'prod',
      id: UNKNOWN,
    });
    expect(ev('${[sched_namespace.ns.id, "b"]}', scope)).toEqual([UNKNOWN, 'b']);
    expect(ev('${length([sched_namespace.ns.id, "b"])}', scope)).toBe(2);
    expect(ev('${concat([sched_namespace.ns.id], ["b"])}', scope)).toEqual([UNKNOWN, 'b']);
  });

  it('makes logical operators unknown when either side is, as terraform does', () => {
    expect(isUnknown(ev('${false && sched_namespace.ns.id == "x"}', scope))).toBe(true);
    expect(isUnknown(ev('${sched_namespace.ns.id == "x" || true}', scope))).toBe(true);
    expect(isUnknown(ev('${sched_namespace.ns.id == "x" && true}', scope))).toBe(true);
    // A deciding left side still skips an error on the right.
    expect(ev('${true || tonumber("x") == 1}', scope)).toBe(true);
  });

  it('makes try and can unknown when the value is not known', () => {
    expect(isUnknown(ev('${try(sched_namespace.ns.id, "fallback")}', scope))).toBe(true);
    expect(isUnknown(ev('${can(sched_namespace.ns.id)}', scope))).toBe(true);
  });
});

describe('try and can', () => {
  const scope = scopeOf({ vars });

  it('returns the first expression that succeeds', () => {
    expect(ev('${try(var.obj.missing, var.obj.k)}', scope)).toBe('v');
    expect(ev('${try(var.list[9], "dflt")}', scope)).toBe('dflt');
    expect(() => ev('${try(var.list[9], var.obj.nope)}', scope)).toThrow(/no expression succeeded/);
  });

  it('reports whether an expression evaluates', () => {
    expect(ev('${can(var.obj.k)}', scope)).toBe(true);
    expect(ev('${can(var.obj.missing)}', scope)).toBe(false);
  });
});

describe('function call errors', () => {
  it('names unknown functions and bad arities', () => {
    expect(() => ev('${nosuchfunc({})}')).toThrow('Call to unknown function "nosuchfunc"');
    expect(() => ev('${upper()}')).toThrow(
      'Not enough function arguments: Function "upper" expects 1 argument(s). Missing value for "str".',
    );
    expect(() => ev('${upper("a", "b")}')).toThrow(/Too many function arguments/);
  });

  it('wraps a function failure with the function name and points at the argument', () => {
    const text = '${lookup({a = 1}, "b")}';
    try {
      ev(text);
      fail('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(ExpressionError);
      expect((e as ExpressionError).message).toMatch(
        /Invalid function argument: Invalid value for "key" parameter: the given key "b" does not exist/,
      );
      expect((e as ExpressionError).span).toEqual({
        start: text.indexOf('"b"'),
        end: text.indexOf('"b"') + 3,
      });
    }
  });

  it('expands a final list argument with ...', () => {
    expect(ev('${max([3, 9, 2]...)}')).toBe(9);
    expect(() => ev('${max(1...)}')).toThrow(/expanding argument/);
  });
});
