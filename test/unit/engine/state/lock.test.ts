import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import {
  FORCE_UNLOCK_COMMAND,
  LockError,
  StateLockedError,
  acquireLock,
  forceUnlock,
  lockPathFor,
  readLock,
  withLock,
} from '../../../../src/engine/state/lock';

/** A pid that existed and is gone: a finished child process. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('state lock', () => {
  let dir: string;
  let state: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lock-'));
    state = join(dir, 'terraform.tfstate');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes Terraform lock info plus pid beside the state and removes it on release', async () => {
    const lock = await acquireLock(state, {
      operation: 'OperationTypeApply',
      info: 'deploy',
      version: '0.1.0',
    });
    // Terraform's name for it, so each tool shows the other's holder.
    expect(lock.path).toBe(join(dir, '.terraform.tfstate.lock.info'));
    const onDisk = JSON.parse(await readFile(lockPathFor(state), 'utf8'));
    expect(onDisk).toEqual({
      ID: lock.info.ID,
      Operation: 'OperationTypeApply',
      Info: 'deploy',
      Who: expect.stringMatching(/.+@.+/),
      Version: '0.1.0',
      Created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      Path: state,
      Pid: process.pid,
      Hostname: hostname(),
    });
    await lock.release();
    await lock.release();
    expect(await readLock(state)).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a held lock is refused with who, when, pid and how to force-unlock', async () => {
    const lock = await acquireLock(state, { operation: 'OperationTypeApply' });
    const err = await acquireLock(state, { operation: 'OperationTypePlan', takeStale: true }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StateLockedError);
    const e = err as StateLockedError;
    expect(e.stale).toBe(false);
    expect(e.info?.ID).toBe(lock.info.ID);
    expect(e.message).toContain(lock.info.Who);
    expect(e.message).toContain(`pid ${process.pid}`);
    expect(e.message).toContain(lock.info.Created);
    expect(e.message).toContain(`${FORCE_UNLOCK_COMMAND} ${lock.info.ID}`);
    await lock.release();
  });

  it('only one of many concurrent lockers wins', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => acquireLock(state, { operation: 'OperationTypeApply' })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof StateLockedError),
    ).toBe(true);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
  });

  it('withLock releases the lock when the work fails', async () => {
    await expect(
      withLock(state, { operation: 'OperationTypeApply' }, async (lock) => {
        expect((await readLock(state))?.ID).toBe(lock.info.ID);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await readLock(state)).toBeUndefined();
  });

  describe('stale locks', () => {
    async function plantLock(pid: number, host = hostname()): Promise<string> {
      const info = {
        ID: 'dead-beef',
        Operation: 'OperationTypeApply',
        Info: '',
        Who: 'ci@elsewhere',
        Version: '0.1.0',
        Created: '2024-01-01T00:00:00.000Z',
        Path: state,
        Pid: pid,
        Hostname: host,
      };
      await writeFile(lockPathFor(state), JSON.stringify(info));
      return info.ID;
    }

    it('a lock file left by a process that died is taken over: nobody holds the OS lock', async () => {
      await plantLock(deadPid());
      const lock = await acquireLock(state, { operation: 'OperationTypeApply' });
      expect((await readLock(state))?.ID).toBe(lock.info.ID);
      await lock.release();
    });

    it('so is one from another host or from terraform (no pid): the OS lock is what counts', async () => {
      await plantLock(deadPid(), 'some-other-host');
      const lock = await acquireLock(state, { operation: 'x' });
      expect((await readLock(state))?.ID).toBe(lock.info.ID);
      await lock.release();
    });

    it('another process holding the OS lock on the state file refuses us, with its lock info', async () => {
      const id = await plantLock(deadPid(), 'elsewhere');
      await writeFile(state, '');
      // A child that takes the fcntl lock terraform takes, then waits to be killed.
      const child = spawn(
        process.execPath,
        [
          '-e',
          `const fs=require('fs');const {lock}=require('os-lock');const fd=fs.openSync(process.argv[1],'r+');` +
            `lock(fd,{exclusive:true,immediate:true}).then(()=>{process.stdout.write('locked');setInterval(()=>{},1000)})`,
          state,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
        const err = (await acquireLock(state, { operation: 'x', takeStale: true }).catch(
          (e: unknown) => e,
        )) as StateLockedError;
        expect(err).toBeInstanceOf(StateLockedError);
        expect(err.info?.ID).toBe(id);
        expect(err.message).toContain('ci@elsewhere');
      } finally {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
      // Gone with its holder, as terraform's is.
      const lock = await acquireLock(state, { operation: 'x' });
      await lock.release();
    });
  });

  describe('force-unlock', () => {
    it('removes the lock with the matching ID only', async () => {
      const lock = await acquireLock(state, { operation: 'OperationTypeApply' });
      await expect(forceUnlock(state, 'wrong-id')).rejects.toThrow(/does not match/);
      expect((await readLock(state))?.ID).toBe(lock.info.ID);
      expect((await forceUnlock(state, lock.info.ID)).ID).toBe(lock.info.ID);
      expect(await readLock(state)).toBeUndefined();
      // The old holder's release must not remove a lock someone else took since.
      const next = await acquireLock(state, { operation: 'OperationTypeApply' });
      await lock.release();
      expect((await readLock(state))?.ID).toBe(next.info.ID);
      await next.release();
    });

    it('says so when there is no lock', async () => {
      await expect(forceUnlock(state, 'x')).rejects.toThrow(LockError);
      await expect(forceUnlock(state, 'x')).rejects.toThrow(/not locked/);
    });
  });
});
