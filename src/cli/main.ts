#!/usr/bin/env node
/** The `cdktf-sched` command line. One file per command; this one only assembles them. */
import { Command } from 'commander';
import { devCommand } from './dev';

export function buildProgram(): Command {
  const program = new Command('cdktf-sched')
    .description('Infrastructure as code for the workload scheduler and the service registry')
    .version('0.1.0')
    .showHelpAfterError();
  program.addCommand(devCommand());
  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
