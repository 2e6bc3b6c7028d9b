#!/usr/bin/env node
/** The `cdktf-sched` executable: runs the command line with the process's streams and signals. */
import { processIO } from './io';
import { runCli } from './run';

export { buildProgram, runCli } from './run';

if (require.main === module) {
  const io = processIO();
  const soft = new AbortController();
  const hard = new AbortController();
  io.interrupts = { soft: soft.signal, hard: hard.signal };
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write(
        '\nInterrupt received: finishing what is running, then saving state. Press Ctrl-C again to stop now.\n',
      );
      soft.abort();
    } else {
      process.stderr.write('\nStopping now.\n');
      hard.abort();
    }
  };
  // A reader that went away (`plan | head`) wants no more output: the command still finishes.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedReader);
  const argv = process.argv.slice(2);
  // `dev` handles its own signals (it runs until stopped).
  if (argv[0] !== 'dev') {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  void runCli(argv, io).then(async (code) => {
    process.exitCode = code;
    if (argv[0] === 'dev') return;
    // Exits without waiting for idle sockets, but not before the output is out: a pipe takes 64 KB
    // at once and Node queues the rest, so `plan | less` used to end a large plan mid-line.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  });
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
