/**
 * Running the real terraform binary against our plugins: finding it, and the environment that keeps it
 * offline (no checkpoint calls, the filesystem mirror's CLI configuration) and away from the user's
 * own terraform settings and from our SCHED_/REG_ variables (and their Nomad/Consul names), which
 * would otherwise steer the plugins.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The terraform executable on PATH, or undefined. */
export function findTerraform(path = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'terraform');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export interface OfflineTerraformEnv {
  /** The CLI configuration that points terraform at the mirror (Mirror.cliConfig written to a file). */
  cliConfigFile: string;
  /** Terraform's working data (TF_DATA_DIR). */
  dataDir: string;
  /** Added last (e.g. TF_PLUGIN_CACHE_DIR or the addresses the plugins should use). */
  extra?: Record<string, string>;
  base?: Readonly<Record<string, string | undefined>>;
}

export function offlineTerraformEnv(opts: OfflineTerraformEnv): Record<string, string> {
  const inherited = Object.entries(opts.base ?? process.env).filter(
    (e): e is [string, string] =>
      e[1] !== undefined && !e[0].startsWith('TF_') && !/^(SCHED|REG|NOMAD|CONSUL)_/.test(e[0]),
  );
  return {
    ...Object.fromEntries(inherited),
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    TF_CLI_CONFIG_FILE: opts.cliConfigFile,
    TF_DATA_DIR: opts.dataDir,
    ...opts.extra,
  };
}
