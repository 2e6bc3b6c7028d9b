#!/usr/bin/env node
/** The `cdktf-sched` executable: runs the command line with the process's streams and signals. */
import { exitWhenFlushed, ignoreClosedReaders } from './flushed-exit';
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
  ignoreClosedReaders();
  const argv = process.argv.slice(2);
  // `dev` handles its own signals (it runs until stopped).
  if (argv[0] !== 'dev') {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // The command starts once this module's top level is over: the bin's code cache preloads the
  // built-ins that its top level required (common/code-cache.ts), and what one run of a command
  // requires at once (a synth's child_process) is not what every run of it needs.
  queueMicrotask(() => {
    void runCli(argv, io).then(async (code) => {
      process.exitCode = code;
      if (argv[0] === 'dev') return;
      await exitWhenFlushed(code);
    });
  });
}
