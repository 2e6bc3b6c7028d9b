import type { Expr } from '../../../src/hcl/ast';
import { ASCII_IDENT, Cursor } from '../../../src/hcl/cursor';
import { ExprParser, type Dialect, type ExprMessages } from '../../../src/hcl/parser';
import { nestTemplate, readTemplateTokens, type TemplateMessages } from '../../../src/hcl/template';

class TestCursor extends Cursor {
  protected unterminatedComment(): Error {
    return new Error('unterminatedComment');
  }
}

/** Every message is its own name, so a test sees which rule fired. */
function named<T extends object>(names: (keyof T)[]): T {
  return Object.fromEntries(names.map((n) => [n, () => new Error(String(n))])) as T;
}

const exprMessages = named<ExprMessages>([
  'missingFalse',
  'unbalancedParen',
  'invalidExpression',
  'missingArgSeparator',
  'missingItemSeparator',
  'missingKeyValueSeparator',
  'forVariable',
  'forIn',
  'forColon',
  'forArrow',
  'forClose',
  'indexClose',
  'attributeName',
]);

const templateMessages = named<TemplateMessages>([
  'unterminatedString',
  'newlineInString',
  'escape',
  'unclosedInterpolation',
  'directiveKeyword',
  'forDirective',
  'unclosedDirective',
  'unexpectedDirective',
  'unterminatedDirective',
  'secondElse',
]);

function parse(text: string, options: Partial<Dialect> = {}): Expr {
  const c = new TestCursor(text, options.terraformTraversals ? ASCII_IDENT : undefined);
  c.nlFree = 1;
  const dialect: Dialect = {
    messages: exprMessages,
    template: (p, kind) => {
      const start = c.pos;
      c.pos++;
      const parts = nestTemplate(
        c,
        readTemplateTokens(p, templateMessages, start, { quoted: kind === 'quoted' }),
        templateMessages,
      );
      c.pos++;
      return { type: 'template', parts, span: { start, end: c.pos } };
    },
    heredocs: false,
    tightSpans: true,
    terraformTraversals: false,
    arrowIsNotSeparator: false,
    ...options,
  };
  return new ExprParser(c, dialect).parseExpr();
}

describe('shared HCL expression parser', () => {
  it('parses operators by precedence with offset spans', () => {
    expect(parse('a + b * 2 == c')).toMatchObject({
      type: 'binary',
      op: '==',
      left: { type: 'binary', op: '+', right: { type: 'binary', op: '*' } },
      span: { start: 0, end: 14 },
    });
    expect(parse('!a ? -1 : "${b}-x"')).toMatchObject({
      type: 'conditional',
      cond: { type: 'unary', op: '!' },
      then: { type: 'unary', op: '-' },
      else: { type: 'template', parts: [{ kind: 'interp' }, { kind: 'literal', text: '-x' }] },
    });
  });

  it('keeps traversal steps on the name they follow', () => {
    expect(parse('var.list[local.i].name')).toMatchObject({
      type: 'scope',
      name: 'var',
      steps: [
        { kind: 'attr', name: 'list' },
        { kind: 'index', key: { type: 'scope', name: 'local' } },
        { kind: 'attr' },
      ],
    });
    expect(parse('f(x)[0].y')).toMatchObject({ type: 'relative', source: { type: 'call', name: 'f' } });
  });

  it('ends spans at the last child or where the cursor stopped, per dialect', () => {
    expect(parse('a + b  ', { tightSpans: true }).span).toEqual({ start: 0, end: 5 });
    expect(parse('a + b  ', { tightSpans: false }).span).toEqual({ start: 0, end: 7 });
  });

  it('applies HCL or Terraform splat rules', () => {
    // HCL: a computed index ends the splat; Terraform: it applies per element.
    expect(parse('x[*].a[i]')).toMatchObject({
      type: 'relative',
      source: { type: 'splat', steps: [{ kind: 'attr' }] },
    });
    expect(parse('x[ * ].a[i]', { terraformTraversals: true })).toMatchObject({
      type: 'splat',
      steps: [{ kind: 'attr' }, { kind: 'index' }],
    });
  });

  it('parses for expressions and function calls', () => {
    expect(parse('{ for k, v in m : k => v... if v }')).toMatchObject({
      type: 'for',
      keyVar: 'k',
      grouping: true,
    });
    expect(parse('f(a, b...)')).toMatchObject({ type: 'call', expandFinal: true, args: [{}, {}] });
  });

  it('reports through the dialect, with optional rules only where the dialect has them', () => {
    expect(() => parse('[1 2]')).toThrow('missingItemSeparator');
    expect(() => parse('{ a => 1 }', { arrowIsNotSeparator: true })).toThrow('missingKeyValueSeparator');
    expect(() => parse('{ a => 1 }')).toThrow('invalidExpression');
    expect(parse('f(a..., b)')).toMatchObject({ type: 'call', args: [{}, {}] });
    const strict = { messages: { ...exprMessages, expandNotLast: () => new Error('expandNotLast') } };
    expect(() => parse('f(a..., b)', strict)).toThrow('expandNotLast');
    expect(() => parse('"%{ if a }x"')).toThrow('unterminatedDirective');
  });
});
