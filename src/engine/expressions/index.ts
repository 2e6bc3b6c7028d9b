/**
 * Terraform expressions inside JSON configuration: parsing (`parseTemplate`, `parseExpression`),
 * static analysis (`findReferences`, `visitExpr`), evaluation against a caller's `EvalScope` with
 * UNKNOWN propagation (`evaluate`), and type constraints (`parseTypeConstraint`, `convertToType`).
 */
export type { BinaryOp, DynamicBlock, Expr, ForExpr, ObjectItem, Span, Step, TemplatePart } from './ast';
export { ExpressionError } from './errors';
export { evaluate, type EvalScope } from './evaluate';
export { parseExpression, parseTemplate } from './parser';
export {
  findReferences,
  formatReference,
  referenceOf,
  resourceRefAddress,
  visitExpr,
  type ExprVisitor,
  type Reference,
  type ResourceMode,
  type ResourceRef,
} from './references';
export {
  convertToType,
  formatType,
  parseTypeConstraint,
  setProp,
  type ObjectAttribute,
  type TypeConstraint,
} from './types';
export {
  containsUnknown,
  formatNumber,
  isObjectValue,
  isUnknown,
  sameValue,
  toBool,
  toNum,
  toSetArray,
  toStr,
  typeName,
  UNKNOWN,
  valuesEqual,
  type ValueObject,
} from './values';
