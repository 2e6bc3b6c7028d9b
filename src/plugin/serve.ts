/**
 * A provider plugin's life as Terraform runs it: check the handshake environment, serve, print the
 * handshake line, and exit once the host asks for shutdown (or has gone away without asking).
 */
import type { Writable } from 'node:stream';
import type { ProviderFactory } from '../provider/resource';
import { HandshakeError, readHandshakeEnv } from './handshake';
import { startPluginServer } from './server';

export interface RunPluginOptions {
  env?: Readonly<Record<string, string | undefined>>;
  stdout?: Writable;
  stderr?: Writable;
}

/** Serves `factory` as a Terraform provider until the host stops it; resolves with the exit code. */
export async function runPlugin(factory: ProviderFactory, opts: RunPluginOptions = {}): Promise<number> {
  const env = opts.env ?? process.env;
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  let clientCertPem: string | undefined;
  try {
    ({ clientCertPem } = readHandshakeEnv(env));
  } catch (e) {
    if (e instanceof HandshakeError) {
      stderr.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
  // Terraform forwards Ctrl-C to its plugins' process group and then calls StopProvider, which cancels
  // what is running; dying on the signal itself would lose the state of an apply in flight.
  process.on('SIGINT', () => undefined);
  const server = await startPluginServer({
    factory,
    env,
    log: (line) => void stderr.write(`${line}\n`),
    ...(clientCertPem ? { clientCertPem } : {}),
  });
  stdout.write(`${server.handshakeLine}\n`);
  // A host killed outright never calls Shutdown; an orphaned plugin would serve nobody forever.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) void server.stop();
  }, 2000);
  watch.unref();
  await server.closed;
  clearInterval(watch);
  return 0;
}

/** The body of a plugin executable. */
export function pluginMain(factory: ProviderFactory): void {
  // stdout carries the handshake; anything else printed there would reach the host as noise.
  console.log = (...args: unknown[]) => console.error(...args);
  // Started after the bin's top level, as cli/main.ts starts a command (see common/code-cache.ts).
  queueMicrotask(() => {
    runPlugin(factory).then(
      (code) => process.exit(code),
      (err: unknown) => {
        process.stderr.write(
          `terraform-provider-${factory.name}: ${err instanceof Error ? err.message : String(err)}\n`,
        );
        process.exit(1);
      },
    );
  });
}
