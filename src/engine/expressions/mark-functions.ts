/**
 * `sensitive`, `nonsensitive` and `issensitive`: the functions that see marks (Terraform's
 * AllowMarked parameters), so the evaluator calls them itself instead of through the function
 * table, whose functions never see a mark. As in Terraform 1.11 they act on the value's own mark
 * only: `nonsensitive` of a value that is not sensitive returns it unchanged, and `issensitive` of
 * an unknown unmarked value is unknown.
 */
import { isUnknown, UNKNOWN } from '../../provider/values';
import { markSensitive, unmark } from './marks';

const MARK_FUNCTIONS: Readonly<Record<string, (v: unknown) => unknown>> = {
  sensitive: (v) => markSensitive(v),
  nonsensitive: (v) => unmark(v)[0],
  issensitive: (v) => {
    const [inner, marked] = unmark(v);
    if (marked) return true;
    return isUnknown(inner) ? UNKNOWN : false;
  },
};

export const MARK_FUNCTION_NAMES: readonly string[] = Object.keys(MARK_FUNCTIONS);

export function isMarkFunction(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(MARK_FUNCTIONS, name);
}

export function callMarkFunction(name: string, arg: unknown): unknown {
  return MARK_FUNCTIONS[name]!(arg);
}
