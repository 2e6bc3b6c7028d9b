import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateFile } from '../../../../src/engine/state/state-file';
import { StateWriter } from '../../../../src/engine/state/writer';

const child = join(__dirname, 'helpers', 'crash-child.ts');

/** Runs the looping writer until it is killed: by itself (crashAt) or by us `killAfterMs` after its first round. */
function runUntilKilled(
  statePath: string,
  opts: { crashAt?: number; killAfterMs?: number; blobBytes?: number },
) {
  return new Promise<void>((resolve, reject) => {
    const env = {
      ...process.env,
      CRASH_AT: String(opts.crashAt ?? 0),
      BLOB_BYTES: String(opts.blobBytes ?? 1 << 20),
    };
    const p = spawn(process.execPath, ['--import', 'tsx', child, statePath], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    if (opts.killAfterMs !== undefined) {
      p.stdout.once('data', () => setTimeout(() => p.kill('SIGKILL'), opts.killAfterMs));
    }
    p.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited without being killed: ${err}`)),
    );
  });
}

async function expectIntact(path: string): Promise<StateFile> {
  const state = StateFile.parse(await readFile(path, 'utf8'), path);
  if ((await readdir(join(path, '..'))).includes('terraform.tfstate.backup')) {
    StateFile.parse(await readFile(`${path}.backup`, 'utf8'), `${path}.backup`);
  }
  return state;
}

describe('state writes under a crash', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crash-'));
    path = join(dir, 'terraform.tfstate');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a kill between any two file operations of a write leaves the old or the new state', async () => {
    const seed = new StateWriter(path, StateFile.empty());
    await seed.setInstance('sched_job.seed', { schemaVersion: 0, attributes: { id: 'seed' } });
    let serial = 1;
    let advanced = 0;
    // 30 steps cover the first write (with its backup) and most of the second.
    for (let crashAt = 1; crashAt <= 30; crashAt++) {
      await runUntilKilled(path, { crashAt, blobBytes: 16 });
      const state = await expectIntact(path);
      expect(state.has('sched_job.seed')).toBe(true);
      expect(state.serial).toBeGreaterThanOrEqual(serial);
      if (state.serial > serial) advanced++;
      serial = state.serial;
    }
    // Some crash points fall after a rename: the new state must have become visible then.
    expect(advanced).toBeGreaterThan(0);
    // Killed writers leave temporary files; the next writer clears them before writing.
    expect((await readdir(dir)).some((n) => n.endsWith('.tmp'))).toBe(true);
    const next = new StateWriter(path, await StateFile.load(path));
    await next.setInstance('sched_job.after', { schemaVersion: 0, attributes: { id: 'after' } });
    expect((await readdir(dir)).sort()).toEqual(['terraform.tfstate', 'terraform.tfstate.backup']);
  }, 90000);

  it('random kills during large writes never leave a partial file', async () => {
    for (const ms of [0, 9, 23, 47]) {
      await runUntilKilled(path, { killAfterMs: ms });
      expect((await expectIntact(path)).addresses().length).toBe(8);
    }
  }, 60000);
});
