/**
 * A throwaway PostgreSQL server for tests: initdb in a temp dir, pg_ctl start on a free port on
 * 127.0.0.1, trust authentication. PostgreSQL refuses to run as root, so as root both run as
 * `nobody` (runuser) in a directory it owns. `findPostgres()` says why it cannot run where it cannot.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

function which(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Undefined when a server can be started here; otherwise why not (for the skip message). */
export function postgresMissing(): string | undefined {
  for (const cmd of ['initdb', 'pg_ctl']) if (!which(cmd)) return `${cmd} is not on PATH`;
  if (process.getuid?.() === 0 && !which('runuser')) return 'running as root without runuser';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PostgresServer {
  port: number;
  /** A conn_str for terraform's pg backend and ours (database `postgres`, no TLS). */
  connStr: string;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-test-'));
  const asRoot = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'nobody', '--', cmd, ...args]] : [cmd, args];
  if (asRoot) {
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    const group = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
    chownSync(dir, nobody, group);
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await run(...as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']));
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  await run(...as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']));
  return {
    port,
    connStr: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await run(...as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
