/** A stream that holds what is written to it until released, then passes everything through in order. */
import { Writable } from 'node:stream';

type Target = Writable & { isTTY?: boolean; columns?: number };

export class HeldStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  private held:
    Array<{ chunk: Buffer | string; enc: BufferEncoding; done: (e?: Error | null) => void }> | undefined = [];

  constructor(private readonly target: Target) {
    // Strings pass as they are: the target (the redacting stream) works on text, and encoding each
    // chunk here only for it to decode it again cost two copies per write.
    super({ decodeStrings: false });
    this.isTTY = target.isTTY;
    this.columns = target.columns;
  }

  override _write(chunk: Buffer | string, enc: BufferEncoding, done: (e?: Error | null) => void): void {
    if (this.held) this.held.push({ chunk, enc, done });
    else this.pass(chunk, enc, done);
  }

  /** Writes what was held and passes later writes straight through. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const h of held) this.pass(h.chunk, h.enc, h.done);
  }

  private pass(chunk: Buffer | string, enc: BufferEncoding, done: (e?: Error | null) => void): void {
    if (typeof chunk === 'string') this.target.write(chunk, enc, done);
    else this.target.write(chunk, done);
  }
}
