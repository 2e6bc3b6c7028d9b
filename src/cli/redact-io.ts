/**
 * The one redaction path of the command line: everything a command writes (plans, progress,
 * summaries, diagnostics, the final `Error:` line) passes through the same Redactor, which knows
 * every secret learnt so far in the run and their JSON-escaped forms. Marks mask values where the
 * renderers meet them; this net catches a secret anywhere else (an echo in a server's message).
 */
import { Writable } from 'node:stream';
import { Redactor } from '../engine/render/sensitive';
import type { CliIO } from './io';

/** Where commands report secrets as they learn them. */
export interface SecretSink {
  add(texts: Iterable<string>): void;
}

class SecretBook implements SecretSink {
  private readonly secrets = new Set<string>();
  private redactor = new Redactor([]);

  add(texts: Iterable<string>): void {
    const before = this.secrets.size;
    for (const t of texts) this.secrets.add(t);
    if (this.secrets.size !== before) this.redactor = new Redactor(this.secrets);
  }

  text(s: string): string {
    return this.redactor.text(s);
  }
}

type Stream = CliIO['stdout'];

/** A stream that writes to `target` what `scrub` leaves of each chunk, and looks like it (TTY, width). */
class RedactingStream extends Writable {
  constructor(
    private readonly target: Stream,
    private readonly scrub: (s: string) => string,
  ) {
    super({ decodeStrings: false });
  }

  get isTTY(): boolean | undefined {
    return this.target.isTTY;
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  // Done at once, not when the target has flushed: otherwise later chunks would wait in this
  // stream's buffer, and an exit right after the last write would lose them.
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.target.write(this.scrub(chunk.toString()));
    cb();
  }
}

/** The same IO with both output streams guarded, and the sink commands report secrets to. */
export function guardIO(io: CliIO): CliIO {
  if (io.secrets) return io;
  const book = new SecretBook();
  const scrub = (s: string): string => book.text(s);
  return {
    ...io,
    stdout: new RedactingStream(io.stdout, scrub),
    stderr: new RedactingStream(io.stderr, scrub),
    secrets: book,
  };
}
