/**
 * `cdktf-sched terraform-mirror DIR`: a filesystem mirror with terraform-provider-sched and
 * terraform-provider-reg, so Terraform or OpenTofu installs them offline. The CLI configuration goes to
 * stdout (so it can be redirected into a file) and to DIR/cli.tfrc; what was done goes to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { PROVIDER_VERSION, currentPlatform, writeMirror } from '../plugin/mirror';
import type { CliIO } from './io';

export const CLI_CONFIG_FILE = 'cli.tfrc';

export function terraformMirrorCommand(io: CliIO): Command {
  return new Command('terraform-mirror')
    .description('lay out a Terraform/OpenTofu filesystem mirror of the sched and reg providers')
    .argument('<dir>', 'mirror directory (created)')
    .option('--platform <os_arch>', 'Terraform platform of the launchers', currentPlatform())
    .option('--node <path>', 'Node.js executable the launchers run', process.execPath)
    .action((dir: string, o: { platform: string; node: string }) => {
      const mirror = writeMirror({ dir: path.resolve(io.cwd, dir), platform: o.platform, node: o.node });
      const configFile = path.join(mirror.dir, CLI_CONFIG_FILE);
      fs.writeFileSync(configFile, mirror.cliConfig);
      for (const p of mirror.providers)
        io.stderr.write(`${p.address} ${p.version} (${o.platform}): ${p.executable}\n`);
      io.stderr.write(
        `\nCLI configuration written to ${configFile}; use it with\n` +
          `  export TF_CLI_CONFIG_FILE=${configFile}\n` +
          `or add the block below to ~/.terraformrc. Then require the providers as\n` +
          `  sched = { source = "cdktf-sched/sched", version = "${PROVIDER_VERSION}" }\n` +
          `  reg   = { source = "cdktf-sched/reg", version = "${PROVIDER_VERSION}" }\n\n`,
      );
      io.stdout.write(mirror.cliConfig);
    });
}
