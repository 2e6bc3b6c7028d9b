/** `cdktf-sched synth`: runs the app named in cdktf.json and lists the stacks it wrote to cdktf.out/. */
import path from 'node:path';
import { Command } from 'commander';
import { loadProject, synth } from '../engine/project';
import type { CliIO } from './io';

export function synthCommand(io: CliIO): Command {
  return new Command('synth')
    .description('run the CDKTF app and write cdktf.out/')
    .option('--app <dir>', 'CDKTF project directory (with cdktf.json)', '.')
    .action(async (o: { app: string }) => {
      const project = loadProject(path.resolve(io.cwd, o.app));
      const stacks = await synth(project, (l) => void io.stderr.write(`${l}\n`), io.env);
      for (const s of stacks) io.stdout.write(`${s.name}: ${path.relative(io.cwd, s.file) || s.file}\n`);
    });
}
