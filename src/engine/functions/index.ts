/**
 * Terraform's built-in functions as the engine implements them. `try`, `can` and the sensitivity
 * functions are not here: the evaluator implements them itself (see SPECIAL_FUNCTIONS).
 */
import { collectionFunctions } from './collections';
import { conversionFunctions } from './conversion';
import { cryptoFunctions } from './crypto';
import { encodingFunctions } from './encoding';
import { filesystemFunctions } from './filesystem';
import { networkFunctions } from './network';
import { numericFunctions } from './numeric';
import type { FunctionDef, FunctionTable } from './registry';
import { stringFunctions } from './strings';
import { timeFunctions } from './time';
import { yamlFunctions } from './yaml';

export { FunctionError, type FunctionContext, type FunctionDef, type FunctionTable } from './registry';
export { jsonEncode } from './encoding';
export { formatString } from './format';

export const FUNCTIONS: Readonly<FunctionTable> = Object.freeze({
  ...stringFunctions,
  ...collectionFunctions,
  ...numericFunctions,
  ...encodingFunctions,
  ...cryptoFunctions,
  ...conversionFunctions,
  ...filesystemFunctions,
  ...networkFunctions,
  ...timeFunctions,
  ...yamlFunctions,
});

/**
 * Functions the evaluator implements itself: `try` and `can` need their arguments unevaluated, and
 * the sensitivity functions see marks (see expressions/mark-functions.ts).
 */
export const SPECIAL_FUNCTIONS: readonly string[] = [
  'try',
  'can',
  'sensitive',
  'nonsensitive',
  'issensitive',
];

export function lookupFunction(name: string): FunctionDef | undefined {
  return Object.prototype.hasOwnProperty.call(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
}

export function isKnownFunction(name: string): boolean {
  return SPECIAL_FUNCTIONS.includes(name) || lookupFunction(name) !== undefined;
}

/** All supported names, sorted, for "did you mean" hints and docs. */
export function functionNames(): string[] {
  return [...Object.keys(FUNCTIONS), ...SPECIAL_FUNCTIONS].sort();
}
