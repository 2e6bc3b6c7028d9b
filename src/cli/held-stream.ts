/** A stream that holds what is written to it until released, then passes everything through in order. */
import { Writable } from 'node:stream';

type Target = Writable & { isTTY?: boolean; columns?: number };

export class HeldStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  private held: Array<{ chunk: Buffer; done: (e?: Error | null) => void }> | undefined = [];

  constructor(private readonly target: Target) {
    super();
    this.isTTY = target.isTTY;
    this.columns = target.columns;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    if (this.held) this.held.push({ chunk, done });
    else this.target.write(chunk, done);
  }

  /** Writes what was held and passes later writes straight through. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const h of held) this.target.write(h.chunk, h.done);
  }
}
