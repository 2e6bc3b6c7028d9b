/**
 * Crash-safe file replacement: the new bytes go to a temporary file in the same directory, are
 * flushed to disk, then renamed over the target (rename is atomic within a file system), and the
 * directory entry is flushed too. A reader therefore sees the old file or the new one, never a mix,
 * whenever the writer is killed.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

function tempPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Flushes a directory so a rename inside it survives a power loss; not possible everywhere (Windows). */
async function syncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, constants.O_RDONLY);
    await fh.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    await fh?.close();
  }
}

async function unlinkQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return undefined;
  }
}

/**
 * Points `backupPath` at the current content of `path` without a window where the backup is
 * partial: a hard link (or, where links are not allowed, a flushed copy) under a temporary name,
 * then a rename.
 */
async function backupCurrent(path: string, backupPath: string): Promise<void> {
  const tmp = tempPath(backupPath);
  try {
    try {
      await link(path, tmp);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      await copyFile(path, tmp);
      const fh = await open(tmp, 'r+');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    await rename(tmp, backupPath);
  } catch (e) {
    await unlinkQuietly(tmp);
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
}

export interface AtomicWriteOptions {
  /** Keep the file being replaced under this name. */
  backupPath?: string;
  /** Permissions of a new file; an existing file keeps its own. State holds secrets: 0600 by default. */
  mode?: number;
  /**
   * The OS lock on the file being replaced (see os-file-lock.ts): the new file is locked before the
   * rename and its descriptor handed over after it, so the path is never unlocked in between.
   */
  lock?: { lockSuccessor(fh: FileHandle): Promise<void>; adopt(fh: FileHandle): Promise<void> };
}

export async function writeFileAtomic(
  path: string,
  data: string,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const tmp = tempPath(path);
  const mode = (await existingMode(path)) ?? opts.mode ?? 0o600;
  let held: FileHandle | undefined;
  try {
    const fh = await open(tmp, opts.lock ? 'wx+' : 'wx', mode);
    try {
      await fh.writeFile(data, 'utf8');
      await fh.sync();
      if (opts.lock) {
        await opts.lock.lockSuccessor(fh);
        held = fh;
      }
    } finally {
      if (!held) await fh.close();
    }
    if (opts.backupPath) await backupCurrent(path, opts.backupPath);
    await rename(tmp, path);
  } catch (e) {
    await held?.close();
    await unlinkQuietly(tmp);
    throw e;
  }
  if (held) await opts.lock!.adopt(held);
  await syncDir(dirname(path));
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes temporary files a killed writer left beside `path` (and its backup). Only files whose
 * writing process no longer exists are touched. Returns the names removed.
 */
export async function removeStaleTemps(path: string): Promise<string[]> {
  const dir = dirname(path);
  const bases = [basename(path), `${basename(path)}.backup`];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    for (const base of bases) {
      if (!name.startsWith(`.${base}.`) || !name.endsWith('.tmp')) continue;
      const m = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
      if (!m || m[1] !== base || !processGone(Number(m[2]))) continue;
      await unlinkQuietly(join(dir, name));
      removed.push(name);
    }
  }
  return removed;
}
