/** `cdktf-sched dev --data-dir` as a real process, for the tests that kill and restart it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedClient } from '../../../src/api/sched/client';
import { spawnCli, until } from './helpers';

const dataDirs: string[] = [];
// Imported by a test file, this runs in its scope: the directories go when the file is done.
afterAll(() => dataDirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fresh data dir, removed after the test file. */
export function newDataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'agent-restart-'));
  dataDirs.push(d);
  return d;
}

export interface DevProcess {
  sched: SchedClient;
  registryUrl: string;
  run: ReturnType<typeof spawnCli>;
}

/** Starts the CLI's `dev` command on its data dir, on free ports. */
export async function startDev(dataDir: string, timeScale = 0.01): Promise<DevProcess> {
  const run = spawnCli({ dir: dataDir, env: {} }, [
    'dev',
    '--port',
    '0',
    '--registry-port',
    '0',
    '--data-dir',
    dataDir,
    '--time-scale',
    String(timeScale),
  ]);
  await until(() => /registry: \S+/.test(run.out()), 30_000);
  const url = /scheduler: (\S+)/.exec(run.out())![1]!;
  return {
    run,
    registryUrl: /registry: (\S+)/.exec(run.out())![1]!,
    sched: new SchedClient({ address: url, env: {}, retries: { max: 0 } }),
  };
}

/** Ends it with a signal; the exit code (null when killed). */
export async function stopDev(p: DevProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null> {
  await p.sched.close();
  if (p.run.child.exitCode === null && p.run.child.signalCode === null) p.run.child.kill(signal);
  return p.run.exited;
}
