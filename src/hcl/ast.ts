import type { BinaryOp, UnaryOp } from './syntax';

/**
 * Syntax tree of the HCL native expression language, as the shared parser (./parser) produces it
 * for both dialects: the jobspec parser of the dev agent and the engine's parser for the strings of
 * a Terraform JSON configuration (`cdk.tf.json`), where JSON arrays/objects/numbers also become
 * tuple/object/literal nodes so a whole resource body is one tree.
 *
 * Offsets (`start`/`end`) are positions in the source text the node came from; a dialect maps them
 * to lines and columns (jobspec diagnostics) or quotes the text around them (engine snippets).
 */

export interface Span {
  start: number;
  end: number;
}

/** `.name` or `[key]` after a value. */
export type Step = { kind: 'attr'; name: string; span: Span } | { kind: 'index'; key: Expr; span: Span };

export type TemplatePart =
  | { kind: 'literal'; text: string }
  | { kind: 'interp'; expr: Expr }
  | { kind: 'if'; cond: Expr; then: TemplatePart[]; else: TemplatePart[]; span: Span }
  | { kind: 'for'; keyVar?: string; valVar: string; coll: Expr; body: TemplatePart[]; span: Span };

export type { BinaryOp, UnaryOp };

export interface ObjectItem {
  /** Identifier keys are literal strings, as in HCL; `(expr)` keys and JSON keys with `${` are evaluated. */
  key: Expr;
  value: Expr;
}

/**
 * A `dynamic "name" { for_each, iterator, content }` block inside a JSON body (Terraform's dynamic
 * block extension; only the engine's JSON bodies build them), as cdktf writes it under
 * the `dynamic` key: it expands into one `name` block per element of `for_each`.
 */
export interface DynamicBlock {
  blockType: string;
  forEach: Expr;
  /** Name the content uses for the current element (`each` in cdktf output, the block type by default). */
  iterator: string;
  content: Expr;
}

export type Expr =
  | {
      type: 'literal';
      value: string | number | boolean | null;
      span: Span;
      /** A number literal's text when the double in `value` does not hold it exactly (12345678901234567890, 0.1). */
      raw?: string;
    }
  /** A string with interpolations; one that is a single `${expr}` is parsed as `expr` itself (type kept). */
  | { type: 'template'; parts: TemplatePart[]; span: Span }
  /** A name and the static-or-dynamic steps after it: `var.x`, `sched_job.web[0].id`, `each.value`. */
  | { type: 'scope'; name: string; steps: Step[]; span: Span }
  /** Steps applied to the result of another expression: `jsondecode(x).a`, `(a)[0]`. */
  | { type: 'relative'; source: Expr; steps: Step[]; span: Span }
  /** `source[*].steps` (and legacy `source.*.steps`): the steps applied to each element. */
  | { type: 'splat'; source: Expr; steps: Step[]; span: Span }
  | { type: 'call'; name: string; args: Expr[]; expandFinal: boolean; span: Span }
  | { type: 'tuple'; items: Expr[]; span: Span }
  | { type: 'object'; items: ObjectItem[]; dynamic?: DynamicBlock[]; span: Span }
  | { type: 'unary'; op: UnaryOp; operand: Expr; span: Span }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr; span: Span }
  | { type: 'conditional'; cond: Expr; then: Expr; else: Expr; span: Span }
  | ForExpr
  | { type: 'paren'; expr: Expr; span: Span };

export interface ForExpr {
  type: 'for';
  keyVar?: string;
  valVar: string;
  coll: Expr;
  /** Present for `{ for ... : k => v }`; absent for `[ for ... : v ]`. */
  keyExpr?: Expr;
  valExpr: Expr;
  cond?: Expr;
  /** `...` after the value: values with the same key are grouped into lists. */
  grouping: boolean;
  span: Span;
}
