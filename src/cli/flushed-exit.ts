/**
 * Leaving the process once its output is out. A command exits without waiting for idle sockets, but
 * a pipe takes 64 KB at once and Node queues the rest, so exiting at once ended a large plan mid-line.
 */

/** A reader that went away (`plan | head`) wants no more output: the command still finishes. */
export function ignoreClosedReaders(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedReader);
}

function ignoreClosedReader(err: NodeJS.ErrnoException): void {
  if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
}

/** Resolves once everything written to `stream` so far is handed to the OS (or the reader is gone). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    // The callback comes with an error too (the reader went away meanwhile).
    stream.write('', () => resolve());
  });
}

/** Exits with `code` once stdout and stderr are flushed. */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
