import {
  ExpressionError,
  findReferences,
  formatReference,
  parseExpression,
  parseTemplate,
} from '../../../../src/engine/expressions';

describe('parseTemplate', () => {
  it('returns a plain literal for strings without interpolation', () => {
    expect(parseTemplate('hello')).toMatchObject({ type: 'literal', value: 'hello' });
    expect(parseTemplate('')).toMatchObject({ type: 'literal', value: '' });
  });

  it('unwraps a string that is exactly one interpolation', () => {
    expect(parseTemplate('${var.n}')).toMatchObject({
      type: 'scope',
      name: 'var',
      steps: [{ kind: 'attr', name: 'n' }],
    });
    expect(parseTemplate('${ 1 + 2 }')).toMatchObject({ type: 'binary', op: '+' });
  });

  it('keeps literal text around interpolations as a template', () => {
    const e = parseTemplate('${local.prefix}-ns');
    expect(e.type).toBe('template');
    if (e.type !== 'template') return;
    expect(e.parts.map((p) => p.kind)).toEqual(['interp', 'literal']);
  });

  it('treats $${ and %%{ as literal escapes', () => {
    expect(parseTemplate('$${not}')).toMatchObject({ type: 'literal', value: '${not}' });
    expect(parseTemplate('%%{ if x }')).toMatchObject({ type: 'literal', value: '%{ if x }' });
    expect(parseTemplate('cost: $5 and 10%')).toMatchObject({ type: 'literal', value: 'cost: $5 and 10%' });
  });

  it('parses nested quoted templates with escapes inside an interpolation', () => {
    const e = parseTemplate('${jsonencode({"ID" = "web-${count.index}", "Q" = "a\\"b\\n"})}');
    expect(e.type).toBe('call');
    const refs = findReferences(e).map(formatReference);
    expect(refs).toEqual(['count.index']);
  });

  it('parses if/for directives, including else and strip markers', () => {
    const e = parseTemplate('%{ if var.on }yes%{ else }no%{ endif }');
    expect(e).toMatchObject({ type: 'template', parts: [{ kind: 'if' }] });
    const f = parseTemplate('%{ for k, v in var.m ~}\n  ${k}=${v}\n%{~ endfor }');
    expect(f).toMatchObject({ type: 'template', parts: [{ kind: 'for', keyVar: 'k', valVar: 'v' }] });
  });

  it('rejects malformed templates with a located error', () => {
    expect(() => parseTemplate('${var.x')).toThrow(ExpressionError);
    expect(() => parseTemplate('%{ if x }no end')).toThrow(/missing %\{endif\}/);
    expect(() => parseTemplate('%{ endfor }')).toThrow(/without a matching opening/);
    expect(() => parseTemplate('%{ bogus }')).toThrow(/is not a directive/);
    try {
      parseTemplate('abc ${1 +} def');
      fail('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(ExpressionError);
      const err = e as ExpressionError;
      expect(err.source).toBe('abc ${1 +} def');
      expect(err.span?.start).toBeGreaterThanOrEqual(4);
    }
  });
});

describe('parseExpression', () => {
  it('follows HCL operator precedence', () => {
    expect(parseExpression('1 + 2 * 3')).toMatchObject({
      type: 'binary',
      op: '+',
      right: { type: 'binary', op: '*' },
    });
    expect(parseExpression('a || b && c')).toMatchObject({
      type: 'binary',
      op: '||',
      right: { type: 'binary', op: '&&' },
    });
    expect(parseExpression('!a == b')).toMatchObject({
      type: 'binary',
      op: '==',
      left: { type: 'unary', op: '!' },
    });
    expect(parseExpression('x > 1 ? "a" : "b"')).toMatchObject({
      type: 'conditional',
      cond: { type: 'binary', op: '>' },
    });
  });

  it('parses traversals with attribute, index, legacy numeric and splat steps', () => {
    expect(parseExpression('sched_job.web[0].id')).toMatchObject({
      type: 'scope',
      name: 'sched_job',
      steps: [{ kind: 'attr', name: 'web' }, { kind: 'index' }, { kind: 'attr', name: 'id' }],
    });
    expect(parseExpression('var.list.0')).toMatchObject({
      steps: [{ kind: 'attr' }, { kind: 'index', key: { value: 0 } }],
    });
    expect(parseExpression('sched_job.web[*].id')).toMatchObject({
      type: 'splat',
      steps: [{ kind: 'attr', name: 'id' }],
    });
    expect(parseExpression('var.objs.*.name')).toMatchObject({
      type: 'splat',
      steps: [{ kind: 'attr', name: 'name' }],
    });
    expect(parseExpression('jsondecode(x).a["b"]')).toMatchObject({
      type: 'relative',
      source: { type: 'call' },
    });
  });

  it('parses for expressions in both forms', () => {
    expect(parseExpression('[for s in var.l : upper(s) if s != ""]')).toMatchObject({
      type: 'for',
      valVar: 's',
      cond: { type: 'binary' },
    });
    expect(parseExpression('{ for key, val in var.l: val.name => val... }')).toMatchObject({
      type: 'for',
      keyVar: 'key',
      valVar: 'val',
      grouping: true,
    });
  });

  it('parses objects with =, : and newline separators, and function calls with expansion', () => {
    expect(parseExpression('{"a" = 1, b: 2\n c = 3}')).toMatchObject({ type: 'object', items: [{}, {}, {}] });
    expect(parseExpression('concat(var.a, var.b...)')).toMatchObject({
      type: 'call',
      name: 'concat',
      expandFinal: true,
    });
  });

  it('rejects trailing garbage and unsupported constructs', () => {
    expect(() => parseExpression('1 2')).toThrow(/Extra characters/);
    expect(() => parseExpression('provider::x::f()')).toThrow(/provider-defined functions/);
  });
});

describe('findReferences', () => {
  it('describes resource, data, var, local, count and each references', () => {
    const e = parseTemplate(
      '${sched_job.web[1].id} ${data.sched_job.x.status} ${var.a} ${local.b} ${count.index} ${each.value}',
    );
    expect(findReferences(e).map(formatReference)).toEqual([
      'sched_job.web[1].id',
      'data.sched_job.x.status',
      'var.a',
      'local.b',
      'count.index',
      'each.value',
    ]);
  });

  it('ignores names bound by for expressions', () => {
    const e = parseTemplate('${[for key, val in var.l : val.name if key != local.skip]}');
    expect(findReferences(e).map(formatReference)).toEqual(['var.l', 'local.skip']);
  });
});
