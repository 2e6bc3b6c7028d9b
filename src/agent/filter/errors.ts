/** Where in the expression text something went wrong (offset is 0-based, line and column 1-based). */
export interface FilterPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export interface FilterErrorDetails {
  /** Set for syntax errors and for errors tied to one place in the expression. */
  readonly position?: FilterPosition;
  /** The selector as written, for evaluation errors about one selector. */
  readonly selector?: string;
}

/**
 * Every failure of this module: syntax errors, invalid regular expressions, selectors that do not
 * exist on the datum, values that cannot be converted. HTTP layers map it to status 400.
 */
export class FilterError extends Error {
  override readonly name = 'FilterError';
  readonly position: FilterPosition | undefined;
  readonly selector: string | undefined;

  constructor(message: string, details: FilterErrorDetails = {}) {
    super(message);
    this.position = details.position;
    this.selector = details.selector;
  }
}

export function positionAt(text: string, offset: number): FilterPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  // Columns count code points so that a position under non-ASCII text still points at the right character.
  const column = Array.from(text.slice(lineStart, offset)).length + 1;
  return { offset, line, column };
}

export function syntaxError(text: string, offset: number, problem: string): FilterError {
  const position = positionAt(text, offset);
  return new FilterError(
    `filter syntax error at line ${position.line}, column ${position.column} (offset ${offset}): ${problem}`,
    { position },
  );
}
