/**
 * A Terraform filesystem mirror holding our two providers, so `terraform init` (or `tofu init`)
 * installs them offline. It uses the "unpacked" layout,
 *
 *   DIR/registry.terraform.io/cdktf-sched/sched/0.1.0/linux_amd64/terraform-provider-sched_v0.1.0
 *
 * where the executable is a small shell script that runs our plugin entry with Node: Terraform only
 * needs a file whose name starts with terraform-provider-TYPE that it can execute, and it hashes the
 * directory's content (h1:) into .terraform.lock.hcl like any other provider.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROVIDER_ADDRESSES } from '../provider/terraform-schema';

/** Kept equal to package.json's version (a test checks). */
export const PROVIDER_VERSION = '0.1.0';

export type PluginName = keyof typeof PROVIDER_ADDRESSES;
export const PLUGIN_NAMES: readonly PluginName[] = ['sched', 'reg'];

export interface MirrorOptions {
  /** Mirror directory (created). */
  dir: string;
  version?: string;
  /** Terraform platform, e.g. linux_amd64 (default: this machine's). */
  platform?: string;
  /** Node.js executable the launchers run (default: the one running now). */
  node?: string;
  /** The JavaScript entry of each plugin (default: the compiled main-sched.js / main-reg.js beside this file). */
  entries?: Partial<Record<PluginName, string>>;
  /** Extra Node.js arguments, e.g. ["--enable-source-maps"]. */
  nodeArgs?: string[];
}

export interface MirroredProvider {
  name: PluginName;
  /** e.g. registry.terraform.io/cdktf-sched/sched */
  address: string;
  version: string;
  executable: string;
}

export interface Mirror {
  dir: string;
  providers: MirroredProvider[];
  /** The CLI configuration that installs our providers from this mirror and the rest as usual. */
  cliConfig: string;
}

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };
const OS: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'windows', freebsd: 'freebsd' };

export function currentPlatform(): string {
  return `${OS[process.platform] ?? process.platform}_${ARCH[process.arch] ?? process.arch}`;
}

/** Single-quoted for sh: every ' becomes '\''. */
function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The built plugin entry: the single-file bundle (it loads in about half the time of the module tree,
 * and Terraform starts a plugin several times per command), else the compiled module; beside this file
 * in dist, beside the command line's bundle (dist/src/cli), or, when this runs from the TypeScript
 * sources (tsx, tests), in the repository's dist.
 */
export function defaultEntry(name: PluginName): string {
  const dirs = [
    __dirname,
    path.resolve(__dirname, '..', 'plugin'),
    path.resolve(__dirname, '..', '..', 'dist', 'src', 'plugin'),
  ];
  const candidates = dirs.flatMap((d) => [
    path.join(d, `main-${name}.bundle.js`),
    path.join(d, `main-${name}.js`),
  ]);
  return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
}

export function launcherScript(
  name: PluginName,
  version: string,
  node: string,
  entry: string,
  nodeArgs: string[] = [],
): string {
  const args = [node, ...nodeArgs, entry].map(shQuote).join(' ');
  return `#!/bin/sh\n# terraform-provider-${name} ${version}: the cdktf-sched ${name} provider plugin, run by Node.js.\nexec ${args} "$@"\n`;
}

/** The HCL of a CLI configuration using the mirror for cdktf-sched's providers only. */
export function mirrorCliConfig(dir: string): string {
  const include = `"${path.posix.dirname(PROVIDER_ADDRESSES.sched)}/*"`;
  return [
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${JSON.stringify(path.resolve(dir))}`,
    `    include = [${include}]`,
    '  }',
    '  direct {',
    `    exclude = [${include}]`,
    '  }',
    '}',
    '',
  ].join('\n');
}

export function writeMirror(opts: MirrorOptions): Mirror {
  const dir = path.resolve(opts.dir);
  const version = opts.version ?? PROVIDER_VERSION;
  const platform = opts.platform ?? currentPlatform();
  if (platform.startsWith('windows_')) {
    throw new Error('the mirror launchers are shell scripts: Windows is not supported (use WSL)');
  }
  const node = opts.node ?? process.execPath;
  const providers: MirroredProvider[] = [];
  for (const name of PLUGIN_NAMES) {
    const entry = path.resolve(opts.entries?.[name] ?? defaultEntry(name));
    if (!fs.existsSync(entry))
      throw new Error(`the ${name} plugin entry ${entry} does not exist; build first (npm run build)`);
    const address = PROVIDER_ADDRESSES[name];
    const target = path.join(dir, ...address.split('/'), version, platform);
    fs.mkdirSync(target, { recursive: true });
    // One executable per version directory: a leftover from another name would be ambiguous.
    for (const f of fs.readdirSync(target)) fs.rmSync(path.join(target, f), { recursive: true, force: true });
    const executable = path.join(target, `terraform-provider-${name}_v${version}`);
    fs.writeFileSync(executable, launcherScript(name, version, node, entry, opts.nodeArgs), { mode: 0o755 });
    fs.chmodSync(executable, 0o755);
    providers.push({ name, address, version, executable });
  }
  const cliConfig = mirrorCliConfig(dir);
  return { dir, providers, cliConfig };
}
