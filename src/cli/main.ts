#!/usr/bin/env node
/** The `cdktf-sched` command line. One file per command; this one only assembles them. */
import { Command, CommanderError } from 'commander';
import { deployCommand, destroyCommand } from './deploy';
import { devCommand } from './dev';
import { importCommand, refreshCommand } from './import';
import { ExitCode, processIO, type CliIO } from './io';
import { planCommand } from './plan';
import { forceUnlockCommand, outputCommand, stateCommand } from './state';
import { synthCommand } from './synth';
import { terraformMirrorCommand } from './terraform-mirror';

export function buildProgram(io: CliIO): Command {
  const program = new Command('cdktf-sched')
    .description('Infrastructure as code for the workload scheduler and the service registry')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
  for (const c of [
    devCommand(),
    synthCommand(io),
    planCommand(io),
    deployCommand(io),
    destroyCommand(io),
    importCommand(io),
    refreshCommand(io),
    stateCommand(io),
    outputCommand(io),
    forceUnlockCommand(io),
    terraformMirrorCommand(io),
  ]) {
    program.addCommand(c.exitOverride());
  }
  return program;
}

/** Runs the command line; resolves with the exit code (never calls process.exit). */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof ExitCode) {
      if (err.message) io.stderr.write(`${err.message}\n`);
      return err.code;
    }
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

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
  const argv = process.argv.slice(2);
  // `dev` handles its own signals (it runs until stopped).
  if (argv[0] !== 'dev') {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  void runCli(argv, io).then((code) => {
    process.exitCode = code;
    if (argv[0] !== 'dev') setImmediate(() => process.exit(code));
  });
}
