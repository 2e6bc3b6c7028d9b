/** The engine uses the shared HCL syntax tree (see src/hcl/ast.ts). */
export type {
  BinaryOp,
  DynamicBlock,
  Expr,
  ForExpr,
  ObjectItem,
  Span,
  Step,
  TemplatePart,
} from '../../hcl/ast';
