import type { Pos } from '../../../hcl/cursor';

export type { Pos };

export interface Range {
  filename: string;
  start: Pos;
  end: Pos;
}

/** Renders a range the way HCL does in its diagnostics: `file:3,5-9` or `file:3,5-4,2`. */
export function formatRange(r: Range): string {
  const head = `${r.filename}:${r.start.line},${r.start.column}`;
  if (r.end.line === r.start.line) return `${head}-${r.end.column}`;
  return `${head}-${r.end.line},${r.end.column}`;
}

/**
 * A problem in a jobspec or its variables. The message follows HCL's diagnostic format
 * (`file:line,col-col: Summary; Detail`) so users see what the Nomad CLI would show them.
 */
export class JobspecError extends Error {
  readonly summary: string;
  readonly detail: string;
  readonly range: Range | undefined;

  constructor(summary: string, detail: string, range?: Range) {
    const where = range ? `${formatRange(range)}: ` : '';
    super(`${where}${summary}${detail ? `; ${detail}` : ''}`);
    this.name = 'JobspecError';
    this.summary = summary;
    this.detail = detail;
    this.range = range;
  }

  get filename(): string | undefined {
    return this.range?.filename;
  }

  get line(): number | undefined {
    return this.range?.start.line;
  }

  get column(): number | undefined {
    return this.range?.start.column;
  }
}
