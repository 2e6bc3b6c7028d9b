/**
 * What starting Node costs on this machine before any of our code runs, for the run's header: every
 * engine command and every plugin process Terraform starts pays it. `NODE_EXTRA_CA_CERTS` matters most
 * here: Node 20 parses the file's certificates (and its own bundled roots) at every start, whether or
 * not the process ever opens a TLS connection; on the development machine, 144 certificates cost each
 * start about 80 ms, a fifth of a plan of 200 new jobs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const STARTS = 5;

/** Median wall time (ms) of `node -e 0` under `env`. */
function medianStartMs(env: NodeJS.ProcessEnv): number {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(STARTS / 2)]!;
}

function certificateCount(file: string): number | undefined {
  try {
    return readFileSync(file, 'latin1').split('-----BEGIN CERTIFICATE-----').length - 1;
  } catch {
    return undefined;
  }
}

/** "`node -e 0` 104 ms (22 ms without NODE_EXTRA_CA_CERTS, which names 144 certificates)", or without the parenthesis. */
export function nodeStartSummary(env: NodeJS.ProcessEnv = process.env): string {
  const asIs = medianStartMs(env);
  const extra = env['NODE_EXTRA_CA_CERTS'];
  if (!extra) return `\`node -e 0\` ${asIs.toFixed(0)} ms`;
  const { NODE_EXTRA_CA_CERTS: _omitted, ...without } = env;
  const bare = medianStartMs(without);
  const count = certificateCount(extra);
  const names = count === undefined ? 'an unreadable file' : `${count} certificates`;
  return `\`node -e 0\` ${asIs.toFixed(0)} ms (${bare.toFixed(0)} ms without NODE_EXTRA_CA_CERTS, which names ${names}; every engine command and plugin process pays it)`;
}
