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

/** What a function may need beyond its arguments: where files are, and whether this is the apply. */
export interface FunctionContext {
  /** Where relative file paths resolve: Terraform's working directory, the stack's directory. */
  baseDir: string;
  /** The plan's timestamp (RFC 3339), for `plantimestamp()`. */
  planTimestamp: string;
  /** Renders a template file's text with `vars` as the only names in scope (`templatefile`). */
  renderTemplate(text: string, vars: Readonly<Record<string, unknown>>, file: string): unknown;
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
  /**
   * Impure functions (`timestamp`, `uuid`, `bcrypt`) return a different value on every call, so, as in
   * Terraform, their result is unknown while planning and only known during apply.
   */
  impure?: boolean;
  impl(args: unknown[], ctx: FunctionContext): unknown;
}

export type FunctionTable = Record<string, FunctionDef>;

type Impl = FunctionDef['impl'];

export function fixed(n: number, impl: Impl, unknowns?: 'deep' | 'shallow'): FunctionDef {
  return { minArgs: n, maxArgs: n, impl, ...(unknowns ? { unknowns } : {}) };
}

export function between(min: number, max: number, impl: Impl, unknowns?: 'deep' | 'shallow'): FunctionDef {
  return { minArgs: min, maxArgs: max, impl, ...(unknowns ? { unknowns } : {}) };
}

/** Marks a function impure (see `FunctionDef.impure`). */
export function impure(def: FunctionDef): FunctionDef {
  return { ...def, impure: true };
}
