/**
 * The `cdktf-sched` command line as a function: one file per command; this one only assembles them.
 * Kept apart from main.ts (the executable) so that a bundle embedding it does not also run main's
 * entry code, which checks `require.main === module` and is true for every module of a bundle.
 */
import { Command, CommanderError } from 'commander';
import { deployCommand, destroyCommand } from './deploy';
import { devCommand } from './dev';
import { importCommand, refreshCommand } from './import';
import { ExitCode, type CliIO } from './io';
import { guardIO } from './redact-io';
import { planCommand } from './plan';
import { showCommand } from './show';
import { forceUnlockCommand, outputCommand, stateCommand } from './state';
import { synthCommand } from './synth';
import { terraformMirrorCommand } from './terraform-mirror';
import { workspaceCommand } from './workspace';

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
    workspaceCommand(io),
    refreshCommand(io),
    stateCommand(io),
    outputCommand(io),
    showCommand(io),
    forceUnlockCommand(io),
    terraformMirrorCommand(io),
  ]) {
    program.addCommand(c.exitOverride());
  }
  return program;
}

/** Runs the command line; resolves with the exit code (never calls process.exit). */
export async function runCli(argv: string[], given: CliIO): Promise<number> {
  const io = guardIO(given);
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
