/**
 * The OS lock terraform's local backend takes on a state file (fcntl F_SETLK, whole file, write
 * lock), taken on the same file so that each tool refuses to run while the other holds it.
 *
 * fcntl locks have two traps this module keeps inside: they belong to the process and its inode,
 * and closing *any* descriptor of that inode in the process drops them. So the state is read through
 * the locked descriptor (never by opening the path again), a state written by rename is locked
 * before the rename (the new inode takes over), and a second hold in this process never opens the
 * file (the lock info file keeps commands of one process apart; see lock.ts).
 */
import { constants } from 'node:fs';
import { open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { lazyModule } from '../../common/lazy-module';

// A native addon, resolved and opened only when a state is locked (not for --version or help).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const osLock = lazyModule(() => require('os-lock') as typeof import('os-lock'));

export interface OsFileLock {
  /** The locked descriptor of the state file as it is now. */
  readonly handle: FileHandle;
  /** Locks a file about to be renamed over the state, so the lock never leaves the path. */
  lockSuccessor(next: FileHandle): Promise<void>;
  /** After the rename: the successor is the state file; the replaced one is let go. */
  adopt(next: FileHandle): Promise<void>;
  /** The state file's text, read through the locked descriptor. */
  read(): Promise<string>;
  release(): Promise<void>;
}

const heldHere = new Set<string>();

const BUSY = new Set(['EAGAIN', 'EACCES', 'EBUSY']);
/** File systems without fcntl locks: the lock info file alone keeps writers apart there. */
const UNSUPPORTED = new Set(['ENOLCK', 'EOPNOTSUPP', 'ENOTSUP', 'ENOSYS', 'EINVAL']);

async function tryLock(fh: FileHandle): Promise<'ok' | 'busy' | 'unsupported'> {
  try {
    await osLock().lock(fh.fd, { exclusive: true, immediate: true });
    return 'ok';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (BUSY.has(code)) return 'busy';
    if (UNSUPPORTED.has(code)) return 'unsupported';
    throw e;
  }
}

async function readThrough(fh: FileHandle): Promise<string> {
  const { size } = await fh.stat();
  const buf = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const { bytesRead } = await fh.read(buf, off, size - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return buf.subarray(0, off).toString('utf8');
}

/**
 * Takes the OS lock on `statePath` (creating the file, as terraform does). Returns 'busy' when
 * another process holds it, undefined when this process already does or the file system has no such
 * locks (the lock info file decides then).
 */
export async function lockStateFile(statePath: string): Promise<OsFileLock | 'busy' | undefined> {
  const key = resolve(statePath);
  if (heldHere.has(key)) return undefined;
  const created = await stat(statePath).then(
    () => false,
    () => true,
  );
  const fh = await open(statePath, constants.O_RDWR | constants.O_CREAT, 0o600);
  const got = await tryLock(fh).catch(async (e: unknown) => {
    await fh.close();
    throw e;
  });
  if (got !== 'ok') {
    // This process holds no lock on the file (heldHere says so): closing drops nothing of ours.
    await fh.close();
    if (created) await unlink(statePath).catch(() => undefined);
    return got === 'busy' ? 'busy' : undefined;
  }
  heldHere.add(key);
  let current = fh;
  let released = false;
  return {
    get handle() {
      return current;
    },
    async lockSuccessor(next) {
      if ((await tryLock(next)) === 'busy')
        throw new Error(`could not lock the new state file for ${statePath}`);
    },
    async adopt(next) {
      const old = current;
      current = next;
      await old.close();
    },
    read: () => readThrough(current),
    async release() {
      if (released) return;
      released = true;
      // Terraform removes a state file it created for the lock and never wrote.
      const empty = created && (await current.stat()).size === 0;
      if (empty) await unlink(statePath).catch(() => undefined);
      await current.close();
      heldHere.delete(key);
    },
  };
}
