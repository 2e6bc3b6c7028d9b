import {
  JobspecError,
  evaluate,
  parseHcl,
  parseHclExpression,
  type EvalContext,
  type HclValue,
} from '../../../src/agent/sched/jobspec';

function ctxFor(text: string, vars: Record<string, HclValue> = {}): EvalContext {
  return { text, variables: vars, locals: {}, scope: new Map(), keepUnknown: true };
}

/** Evaluates a standalone expression with optional `var.*` values. */
function ev(text: string, vars: Record<string, HclValue> = {}): HclValue {
  return evaluate(parseHclExpression(text, 'expr.hcl'), ctxFor(text, vars));
}

function parseError(text: string): JobspecError {
  try {
    parseHcl(text, 'job.hcl');
  } catch (e) {
    if (e instanceof JobspecError) return e;
    throw e;
  }
  throw new Error('expected a JobspecError');
}

describe('HCL bodies', () => {
  it('reads attributes and labelled blocks in order, skipping all comment styles', () => {
    const body = parseHcl(
      [
        '# hash comment',
        'a = 1 // line comment',
        '/* block',
        '   comment */',
        'outer "x" y {',
        '  inner { b = "two" }',
        '}',
      ].join('\n'),
      'f.hcl',
    );
    expect(body.attributes.map((a) => a.name)).toEqual(['a']);
    const outer = body.blocks[0];
    expect(outer?.type).toBe('outer');
    expect(outer?.labels).toEqual(['x', 'y']);
    expect(outer?.typeRange.start).toMatchObject({ line: 5, column: 1 });
    expect(outer?.body.blocks[0]?.body.attributes[0]?.name).toBe('b');
  });

  it('reports a syntax error with its line and column', () => {
    const err = parseError('job "x" {\n  count = \n}\n');
    expect(err.summary).toBe('Invalid expression');
    expect(err.line).toBe(2);
    expect(err.column).toBe(11);
    // HCL's own range for this error runs to the start of the next line.
    expect(err.message).toBe(
      'job.hcl:2,11-3,1: Invalid expression; Expected the start of an expression, but found an invalid expression token.',
    );
  });

  it('rejects an argument set twice, pointing at the first definition', () => {
    const err = parseError('a = 1\nb = 2\na = 3\n');
    expect(err.summary).toBe('Attribute redefined');
    expect(err.line).toBe(3);
    expect(err.detail).toContain('job.hcl:1,1-2');
  });

  it('requires a newline after an argument', () => {
    expect(parseError('a = 1 b = 2').summary).toBe('Missing newline after argument');
  });

  it('reports unclosed blocks and strings', () => {
    expect(parseError('job "x" {\n  a = 1\n').summary).toBe('Unclosed configuration block');
    const s = parseError('a = "abc\nb = 1');
    expect(s.summary).toBe('Unterminated template string');
    expect(s.line).toBe(1);
  });
});

describe('HCL expressions', () => {
  it('evaluates literals, collections and operators with HCL precedence', () => {
    expect(ev('1 + 2 * 3')).toBe(7);
    expect(ev('(1 + 2) * 3')).toBe(9);
    expect(ev('10 % 4 == 2 && !false')).toBe(true);
    expect(ev('-3 < 2 ? "yes" : "no"')).toBe('yes');
    expect(ev('[1, "a", true, null]')).toEqual([1, 'a', true, null]);
    expect(ev('{ b = 1, "a" = [2] }')).toEqual({ a: [2], b: 1 });
    expect(ev('"5" + 1')).toBe(6);
  });

  it('spans brackets over several lines', () => {
    expect(ev('[\n  1,\n  2,\n]')).toEqual([1, 2]);
    expect(ev('{\n  a = 1\n  b = 2\n}')).toEqual({ a: 1, b: 2 });
  });

  it('interpolates variables in strings and keeps a lone interpolation typed', () => {
    expect(ev('"v${var.n}-${upper(var.s)}"', { n: 3, s: 'x' })).toBe('v3-X');
    expect(ev('"${var.n}"', { n: 3 })).toBe(3);
    expect(ev('"a$${b}c%%{d}"')).toBe('a${b}c%{d}');
    expect(ev('"tab\\there \\"q\\" \\u00e9"')).toBe('tab\there "q" é');
  });

  it('keeps references to runtime names as literal interpolations, as Nomad does', () => {
    expect(ev('"${attr.kernel.name}"')).toBe('${attr.kernel.name}');
    expect(ev('"http://${NOMAD_ADDR_http}/x"')).toBe('http://${NOMAD_ADDR_http}/x');
    expect(ev('"${meta["rack"]}"')).toBe('${meta["rack"]}');
  });

  it('fails on an undeclared input variable', () => {
    expect(() => ev('var.missing', { present: 1 })).toThrow(
      /Reference to undeclared input variable.*"missing"/,
    );
  });

  it('evaluates for expressions, splats, indexes and conditionals', () => {
    expect(ev('[for x in [1, 2, 3] : x * 2 if x > 1]')).toEqual([4, 6]);
    expect(ev('{for k, v in {a = 1, b = 2} : upper(k) => v}')).toEqual({ A: 1, B: 2 });
    expect(ev('{for s in ["a", "b", "a"] : s => s...}')).toEqual({ a: ['a', 'a'], b: ['b'] });
    expect(ev('var.l[*].n', { l: [{ n: 1 }, { n: 2 }] })).toEqual([1, 2]);
    expect(ev('var.m.k[1]', { m: { k: ['x', 'y'] } })).toBe('y');
    expect(() => ev('var.m.k[5]', { m: { k: ['x'] } })).toThrow(/Invalid index/);
  });

  it('renders heredocs, trimming common indentation for <<-', () => {
    expect(ev('<<EOT\nline ${var.a}\n  two\nEOT\n', { a: 1 })).toBe('line 1\n  two\n');
    expect(ev('<<-EOT\n    one\n      two\n    EOT\n')).toBe('one\n  two\n');
  });

  it('renders template directives with strip markers', () => {
    expect(ev('"%{ if var.on }on%{ else }off%{ endif }"', { on: false })).toBe('off');
    expect(ev('<<EOT\n%{ for x in ["a", "b"] ~}\n${x};\n%{ endfor ~}\nEOT\n')).toBe('a;\nb;\n');
  });

  it('calls the common functions', () => {
    expect(ev('format("%s-%03d", "web", 7)')).toBe('web-007');
    expect(ev('join(",", concat(["a"], ["b", "c"]))')).toBe('a,b,c');
    expect(ev('lower("ABC")')).toBe('abc');
    expect(ev('length({a = 1, b = 2})')).toBe(2);
    expect(ev('lookup({a = 1}, "b", 9)')).toBe(9);
    expect(ev('merge({a = 1}, {b = 2})')).toEqual({ a: 1, b: 2 });
    expect(ev('replace("a-b-c", "/-/", "_")')).toBe('a_b_c');
    expect(ev('jsonencode({a = [1]})')).toBe('{"a":[1]}');
    expect(ev('try(var.nope.x, "fallback")', { nope: {} })).toBe('fallback');
    expect(ev('max(1, 5, 3)')).toBe(5);
    expect(ev('formatlist("%s=%s", ["a", "b"], "x")')).toEqual(['a=x', 'b=x']);
  });

  it("runs regex_replace and replace(/re/) on RE2 with Go's $-templates, in linear time", () => {
    expect(ev('regex_replace("web-12", "(?P<name>[a-z]+)-(\\\\d+)", "$${2}_$${name}")')).toBe('12_web');
    expect(ev('replace("a1b22", "/[0-9]+/", "<$0>")')).toBe('a<1>b<22>');
    expect(ev('regex_replace("price", "i", "$$")')).toBe('pr$ce');
    const started = performance.now();
    expect(ev(`regex_replace("${'a'.repeat(5000)}b", "^(a+)+$", "x")`)).toBe(`${'a'.repeat(5000)}b`);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(() => ev('regex_replace("a", "a(?=b)", "x")')).toThrow(
      /invalid regular expression: invalid perl operator/,
    );
  });

  it('names an unknown function', () => {
    expect(() => ev('nosuch(1)')).toThrow(/Call to unknown function; There is no function named "nosuch"/);
  });
});
