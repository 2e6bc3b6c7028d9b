/** What a command reads and writes, injectable so tests run commands in-process. */
import type { Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { Env } from '../api/env';
import type { SecretSink } from './redact-io';

export interface CliIO {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  env: Env;
  cwd: string;
  /** Asks a yes/no question on a terminal; undefined when there is none. */
  confirm?: (question: string) => Promise<boolean>;
  /** Where commands report the secrets they learn, so no output shows them (see redact-io.ts). */
  secrets?: SecretSink;
  /** Signals the run should stop (first: finish what runs; second: stop now). */
  interrupts?: { soft: AbortSignal; hard: AbortSignal };
}

/** Thrown to end a command with an exit code (after its output is written). */
export class ExitCode extends Error {
  constructor(
    readonly code: number,
    message = '',
  ) {
    super(message);
    this.name = 'ExitCode';
  }
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    // process.stdin's stream is built on first access (a pipe's socket, a terminal's reader): only a
    // command that asks a question needs it. Its isTTY is exactly this.
    confirm: isatty(0)
      ? async (question) => {
          const { createInterface } = await import('node:readline/promises');
          const rl = createInterface({ input: process.stdin, output: process.stderr });
          try {
            const answer = await rl.question(question);
            return answer.trim() === 'yes';
          } finally {
            rl.close();
          }
        }
      : undefined,
  };
}
