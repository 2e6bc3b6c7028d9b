import { Cursor } from '../../../hcl/cursor';
import { JobspecError, type Range } from './errors';

/** The shared HCL cursor with jobspec positions: ranges carry the file name, errors are JobspecErrors. */
export class Source extends Cursor {
  constructor(
    text: string,
    readonly filename: string,
  ) {
    super(text);
  }

  range(start: number, end: number = start + 1): Range {
    const e = Math.max(end, start);
    return { filename: this.filename, start: this.posAt(start), end: this.posAt(e) };
  }

  error(summary: string, detail: string, start: number, end?: number): JobspecError {
    return new JobspecError(summary, detail, this.range(start, end ?? Math.min(start + 1, this.text.length)));
  }

  protected unterminatedComment(): Error {
    return this.error(
      'Unterminated comment',
      'There is no closing marker for this comment; a block comment must end with "*/".',
      this.pos,
      this.pos + 2,
    );
  }

  expect(ch: string, summary: string, detail: string): void {
    if (!this.startsWith(ch)) throw this.error(summary, detail, this.pos);
    this.pos += ch.length;
  }
}
