import type { BinaryOp } from '../../../hcl/syntax';
import type { Range } from './errors';
import type { HclValue } from './values';

/*
 * Bodies, blocks and attributes of a jobspec, and the located view of its expressions: the shared
 * parser (src/hcl) builds the expression tree with offsets, and expr-parser.ts maps it to these
 * nodes with `file:line,col` ranges so evaluation errors point at the right place, and with the
 * static steps after a name kept on its `scope` node so an unknown reference such as
 * `${attr.kernel.name}` can be kept as its literal source text (Nomad's runtime interpolation).
 */

export interface Attribute {
  name: string;
  nameRange: Range;
  expr: Expr;
  range: Range;
}

export interface Block {
  type: string;
  labels: string[];
  typeRange: Range;
  labelRanges: Range[];
  body: Body;
  /** From the block type to the opening brace, as HCL's DefRange. */
  defRange: Range;
}

export interface Body {
  /** In source order; names are unique (the parser rejects duplicates). */
  attributes: Attribute[];
  blocks: Block[];
  range: Range;
}

/** A static step of a traversal: `.name`, `[0]` or `["key"]`. */
export type TraverseStep =
  { kind: 'attr'; name: string; range: Range } | { kind: 'index'; key: HclValue; range: Range };

export type TemplatePart =
  | { kind: 'literal'; text: string }
  | { kind: 'interp'; expr: Expr }
  | { kind: 'if'; cond: Expr; then: TemplatePart[]; else: TemplatePart[]; range: Range }
  | {
      kind: 'for';
      keyVar: string | undefined;
      valVar: string;
      coll: Expr;
      body: TemplatePart[];
      range: Range;
    };

export type Expr =
  | { type: 'literal'; value: HclValue; range: Range }
  | { type: 'template'; parts: TemplatePart[]; range: Range }
  | { type: 'scope'; root: string; steps: TraverseStep[]; range: Range }
  | { type: 'call'; name: string; args: Expr[]; expandFinal: boolean; range: Range; nameRange: Range }
  | { type: 'tuple'; items: Expr[]; range: Range }
  | { type: 'object'; items: ObjectItem[]; range: Range }
  | { type: 'index'; target: Expr; key: Expr; range: Range }
  | { type: 'getattr'; target: Expr; name: string; range: Range }
  | { type: 'splat'; target: Expr; steps: TraverseStep[]; range: Range }
  | { type: 'unary'; op: '-' | '!'; operand: Expr; range: Range }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr; range: Range }
  | { type: 'conditional'; cond: Expr; then: Expr; else: Expr; range: Range }
  | ForExpr
  | { type: 'paren'; expr: Expr; range: Range };

export interface ForExpr {
  type: 'for';
  keyVar: string | undefined;
  valVar: string;
  coll: Expr;
  keyExpr: Expr | undefined;
  valExpr: Expr;
  cond: Expr | undefined;
  grouping: boolean;
  range: Range;
}

export interface ObjectItem {
  /** A bare identifier key is a literal string, as in HCL. */
  key: Expr;
  value: Expr;
}

export type { BinaryOp };
