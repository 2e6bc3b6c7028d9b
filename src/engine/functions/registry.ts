/**
 * The table of Terraform functions the engine implements. Each function declares its arity and how
 * it treats unknown arguments, so the evaluator can short-circuit to UNKNOWN without every function
 * handling the marker itself.
 */

/** A function rejected its arguments; the evaluator turns it into `Call to function "x" failed: ...`. */
export class FunctionError extends Error {
  constructor(
    message: string,
    /** Zero-based index of the offending argument, when one is to blame. */
    readonly argIndex?: number,
  ) {
    super(message);
    this.name = 'FunctionError';
  }
}

export interface FunctionDef {
  /** Fewest and most arguments (Infinity for variadic functions). */
  minArgs: number;
  maxArgs: number;
  /**
   * `deep` (the default): an argument that is, or contains, UNKNOWN makes the result UNKNOWN.
   * `shallow`: only an argument that is itself UNKNOWN does; UNKNOWN elements inside collections are
   * passed to the implementation, which keeps them in place (e.g. `concat`, `length`, `merge`).
   */
  unknowns?: 'deep' | 'shallow';
  impl(args: unknown[]): unknown;
}

export type FunctionTable = Record<string, FunctionDef>;

export function fixed(
  n: number,
  impl: (args: unknown[]) => unknown,
  unknowns?: 'deep' | 'shallow',
): FunctionDef {
  return { minArgs: n, maxArgs: n, impl, ...(unknowns ? { unknowns } : {}) };
}

export function between(
  min: number,
  max: number,
  impl: (args: unknown[]) => unknown,
  unknowns?: 'deep' | 'shallow',
): FunctionDef {
  return { minArgs: min, maxArgs: max, impl, ...(unknowns ? { unknowns } : {}) };
}
