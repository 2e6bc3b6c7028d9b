import type * as H from '../../../hcl/ast';
import { ExprParser as HclExprParser, staticKey, type Dialect, type ExprMessages } from '../../../hcl/parser';
import type { Expr, TemplatePart, TraverseStep } from './ast';
import type { Source } from './source';
import { parseTemplate } from './template-parser';

/*
 * The jobspec dialect of the shared HCL expression parser: HCL's own diagnostics, heredocs, HCL's
 * traversal rules, and a syntax tree whose nodes carry `file:line,col` ranges (and static traversal
 * steps kept apart from computed indexes, which evaluation and Nomad's runtime interpolation use).
 */

const INVALID_EXPR = 'Expected the start of an expression, but found an invalid expression token.';

const at =
  (summary: string, detail: string) =>
  (s: Source): Error =>
    s.error(summary, detail, s.pos);
const badFor = (detail: string) => at('Invalid "for" expression', detail);

const MESSAGES: ExprMessages<Source> = {
  missingFalse: at(
    'Missing false expression in conditional',
    'The conditional operator (...?...:...) requires a false expression, delimited by a colon.',
  ),
  unbalancedParen: at(
    'Unbalanced parentheses',
    'Expected a closing parenthesis to terminate the expression.',
  ),
  invalidExpression: at('Invalid expression', INVALID_EXPR),
  missingArgSeparator: at(
    'Missing argument separator',
    'A comma is required to separate each function argument from the next.',
  ),
  unterminatedTuple: (s, start) =>
    s.error(
      'Unterminated tuple constructor',
      'There is no corresponding closing bracket before the end of the file.',
      start,
    ),
  unterminatedObject: (s, start) =>
    s.error(
      'Unterminated object constructor',
      'There is no corresponding closing brace before the end of the file.',
      start,
    ),
  missingItemSeparator: at(
    'Missing item separator',
    'Expected a comma to mark the beginning of the next item.',
  ),
  missingKeyValueSeparator: at(
    'Missing key/value separator',
    'Expected an equals sign ("=") to mark the beginning of the attribute value.',
  ),
  forVariable: badFor('For expression requires a variable name after "for".'),
  forIn: badFor('For expression requires the "in" keyword after its name declarations.'),
  forColon: badFor('For expression requires a colon after the collection expression.'),
  forArrow: badFor('Key expression in object "for" expression must be followed by an arrow ("=>").'),
  forClose: (s, close) =>
    s.error(
      'Invalid "for" expression',
      `Extra characters after the end of the "for" expression; expected "${close}".`,
      s.pos,
    ),
  indexClose: at(
    'Missing close bracket on index',
    'The index operator must end with a closing bracket ("]").',
  ),
  attributeName: at('Invalid attribute name', 'An attribute name is required after a dot.'),
};

const DIALECT: Dialect<Source> = {
  messages: MESSAGES,
  template: (p, kind) => parseTemplate(p, kind),
  heredocs: true,
  tightSpans: true,
  terraformTraversals: false,
  arrowIsNotSeparator: true,
};

/** Reads jobspec expressions from a Source with the shared parser and gives them jobspec ranges. */
export class ExprParser {
  readonly core: HclExprParser<Source>;

  constructor(readonly src: Source) {
    this.core = new HclExprParser(src, DIALECT);
  }

  parseExpr(): Expr {
    return located(this.core.parseExpr(), this.src);
  }
}

/** The jobspec tree of a shared syntax tree: ranges instead of offsets, static steps merged. */
export function located(e: H.Expr, s: Source): Expr {
  const range = (sp: H.Span) => s.range(sp.start, sp.end);
  const loc = (x: H.Expr): Expr => located(x, s);
  switch (e.type) {
    case 'literal':
      return { type: 'literal', value: e.value, range: range(e.span) };
    case 'template':
      return { type: 'template', parts: e.parts.map((p) => locatedPart(p, s)), range: range(e.span) };
    case 'scope': {
      const root: Expr = {
        type: 'scope',
        root: e.name,
        steps: [],
        range: s.range(e.span.start, e.span.start + e.name.length),
      };
      return traversal(root, e.span.start, e.steps, s);
    }
    case 'relative':
      return traversal(loc(e.source), e.span.start, e.steps, s);
    case 'splat':
      return {
        type: 'splat',
        target: loc(e.source),
        steps: e.steps.map((st) => staticStep(st, s)!),
        range: range(e.span),
      };
    case 'call':
      return {
        type: 'call',
        name: e.name,
        args: e.args.map(loc),
        expandFinal: e.expandFinal,
        range: range(e.span),
        nameRange: s.range(e.span.start, e.span.start + e.name.length),
      };
    case 'tuple':
      return { type: 'tuple', items: e.items.map(loc), range: range(e.span) };
    case 'object':
      return {
        type: 'object',
        items: e.items.map((it) => ({ key: loc(it.key), value: loc(it.value) })),
        range: range(e.span),
      };
    case 'unary':
      return { type: 'unary', op: e.op, operand: loc(e.operand), range: range(e.span) };
    case 'binary':
      return { type: 'binary', op: e.op, left: loc(e.left), right: loc(e.right), range: range(e.span) };
    case 'conditional':
      return {
        type: 'conditional',
        cond: loc(e.cond),
        then: loc(e.then),
        else: loc(e.else),
        range: range(e.span),
      };
    case 'paren':
      return { type: 'paren', expr: loc(e.expr), range: range(e.span) };
    case 'for':
      return {
        type: 'for',
        keyVar: e.keyVar,
        valVar: e.valVar,
        coll: loc(e.coll),
        keyExpr: e.keyExpr && loc(e.keyExpr),
        valExpr: loc(e.valExpr),
        cond: e.cond && loc(e.cond),
        grouping: e.grouping,
        range: range(e.span),
      };
  }
}

function locatedPart(p: H.TemplatePart, s: Source): TemplatePart {
  switch (p.kind) {
    case 'literal':
      return p;
    case 'interp':
      return { kind: 'interp', expr: located(p.expr, s) };
    case 'if':
      return {
        kind: 'if',
        cond: located(p.cond, s),
        then: p.then.map((x) => locatedPart(x, s)),
        else: p.else.map((x) => locatedPart(x, s)),
        range: s.range(p.span.start, p.span.end),
      };
    case 'for':
      return {
        kind: 'for',
        keyVar: p.keyVar,
        valVar: p.valVar,
        coll: located(p.coll, s),
        body: p.body.map((x) => locatedPart(x, s)),
        range: s.range(p.span.start, p.span.end),
      };
  }
}

/** A step with a name or a literal key, or undefined for a computed index. */
function staticStep(st: H.Step, s: Source): TraverseStep | undefined {
  const range = s.range(st.span.start, st.span.end);
  if (st.kind === 'attr') return { kind: 'attr', name: st.name, range };
  const key = staticKey(st.key);
  return key === undefined ? undefined : { kind: 'index', key, range };
}

/**
 * Static steps right after a name stay in its `scope` node (evaluation resolves `var.x.y` and keeps
 * unknown names as text); the others become `getattr`/`index` nodes around what came before.
 */
function traversal(base: Expr, start: number, steps: H.Step[], s: Source): Expr {
  let cur = base;
  for (const st of steps) {
    const range = s.range(start, st.span.end);
    const step = staticStep(st, s);
    if (step && cur.type === 'scope') {
      cur = { ...cur, steps: [...cur.steps, step], range };
    } else if (step?.kind === 'attr') {
      cur = { type: 'getattr', target: cur, name: step.name, range };
    } else if (step?.kind === 'index') {
      cur = {
        type: 'index',
        target: cur,
        key: { type: 'literal', value: step.key, range: step.range },
        range,
      };
    } else if (st.kind === 'index') {
      cur = { type: 'index', target: cur, key: located(st.key, s), range };
    }
  }
  return cur;
}
