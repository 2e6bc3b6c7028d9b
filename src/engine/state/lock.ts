/**
 * One writer at a time per state file, excluding terraform too. Terraform's local backend holds an
 * fcntl lock on the state file itself for the run and writes its LockInfo to `.<state>.lock.info`
 * beside it; we take the same OS lock (so a terraform apply and a deploy on one state refuse each
 * other, both ways) and write the same file, with the holder's pid and host added. The OS releases
 * the lock when its holder dies, as it does for terraform.
 *
 * fcntl locks belong to a process, so commands run in one process (the tests, an embedding program)
 * are kept apart by the lock info file, created exclusively (under a temporary name, then hard
 * linked to the lock name, which fails with EEXIST as an O_EXCL create would).
 */
import { safeParseOnce } from '../../common/parse-once';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { processAlive } from '../../common/process';
import { lockStateFile, type OsFileLock } from './os-file-lock';

export const LockInfoSchema = z.looseObject({
  ID: z.string(),
  Operation: z.string(),
  Info: z.string(),
  Who: z.string(),
  Version: z.string(),
  Created: z.string(),
  Path: z.string(),
  Pid: z.number().int().optional(),
  Hostname: z.string().optional(),
});
export type LockInfo = z.infer<typeof LockInfoSchema>;

/** The command users run to remove a lock whose holder is gone. */
export const FORCE_UNLOCK_COMMAND = 'cdktf-sched force-unlock';

/** Terraform's lock info file: `.<state file name>.lock.info` beside the state (one leading dot). */
export function lockPathFor(statePath: string): string {
  const name = basename(statePath);
  return join(dirname(statePath), `.${name.startsWith('.') ? name.slice(1) : name}.lock.info`);
}

function describe(info: LockInfo | undefined): string {
  if (!info) return '  (the lock file could not be read)';
  return [
    `  ID:        ${info.ID}`,
    `  Path:      ${info.Path}`,
    `  Operation: ${info.Operation}`,
    `  Who:       ${info.Who}`,
    `  Pid:       ${info.Pid ?? 'unknown'}`,
    `  Version:   ${info.Version}`,
    `  Created:   ${info.Created}`,
    ...(info.Info ? [`  Info:      ${info.Info}`] : []),
  ].join('\n');
}

export class StateLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly info: LockInfo | undefined,
    /** The holder ran on this host and its process no longer exists. */
    readonly stale: boolean,
  ) {
    const id = info?.ID ?? '';
    super(
      [
        stale
          ? `The state is locked by a process that no longer runs (pid ${info?.Pid}, ${info?.Who}): a stale lock.`
          : `The state is locked by ${info?.Who ?? 'another process'}${info?.Pid ? ` (pid ${info.Pid})` : ''} since ${info?.Created ?? 'an unknown time'}.`,
        `Lock file: ${lockPath}`,
        describe(info),
        !info
          ? `If no other deploy is running, delete the lock file by hand.`
          : stale
            ? `If no other deploy is running, remove it with: ${FORCE_UNLOCK_COMMAND} ${id}`
            : `Wait for that operation to finish. If it was interrupted, remove the lock with: ${FORCE_UNLOCK_COMMAND} ${id}`,
      ].join('\n'),
    );
    this.name = 'StateLockedError';
  }
}

export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

export interface AcquireOptions {
  /** What is being done, e.g. "OperationTypeApply" (Terraform's names) or "deploy". */
  operation: string;
  info?: string;
  /** Version of the tool holding the lock. */
  version?: string;
  /** Take over a lock whose holder ran on this host and has exited. Default false. */
  takeStale?: boolean;
}

export interface StateLock {
  readonly info: LockInfo;
  readonly path: string;
  /** The OS lock on the state file (absent when the file system refused it); see os-file-lock.ts. */
  readonly file?: OsFileLock;
  /** Removes the lock if it is still ours; safe to call twice. */
  release(): Promise<void>;
}

function who(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  return `${user}@${hostname()}`;
}

/** A new lock's LockInfo (Terraform's fields plus pid and host), for every backend. */
export function newLockInfo(
  req: { operation: string; info?: string; version?: string },
  path: string,
): LockInfo {
  return {
    ID: randomUUID(),
    Operation: req.operation,
    Info: req.info ?? '',
    Who: who(),
    Version: req.version ?? '',
    Created: new Date().toISOString(),
    Path: path,
    Pid: process.pid,
    Hostname: hostname(),
  };
}

/** Reads the lock file; undefined when there is none, `null` when it exists but cannot be parsed. */
export async function readLock(statePath: string): Promise<LockInfo | null | undefined> {
  let text: string;
  try {
    text = await readFile(lockPathFor(statePath), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const parsed = LockInfoSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A lock is stale when its holder ran on this host and that process is gone. */
export function isStale(info: LockInfo): boolean {
  if (info.Pid === undefined || info.Hostname !== hostname()) return false;
  if (info.Pid === process.pid) return false;
  return !processAlive(info.Pid);
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
  const fh = await open(tmp, 'wx', 0o644);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await link(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw e;
    // No hard links here: fall back to O_EXCL, accepting a short window with an empty file.
    try {
      const lf = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
      try {
        await lf.writeFile(content, 'utf8');
        await lf.sync();
      } finally {
        await lf.close();
      }
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * Removes a lock only if it still holds the expected ID: it is renamed aside first, so a lock
 * taken by someone else in the meantime is put back instead of deleted.
 */
async function removeIfId(statePath: string, id: string): Promise<boolean> {
  const path = lockPathFor(statePath);
  const aside = `${path}.${process.pid}.${randomUUID()}.removing`;
  try {
    await rename(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  let info: LockInfo | null = null;
  try {
    const parsed = safeParseOnce(LockInfoSchema, JSON.parse(await readFile(aside, 'utf8')));
    info = parsed.success ? parsed.data : null;
  } catch {
    info = null;
  }
  if (info?.ID === id) {
    await unlink(aside);
    return true;
  }
  // Not the lock we meant: restore it unless a new one already took its place.
  await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return false;
}

export async function acquireLock(statePath: string, opts: AcquireOptions): Promise<StateLock> {
  const path = lockPathFor(statePath);
  // Terraform creates the directories of a state path that does not exist yet; so do we.
  await mkdir(dirname(statePath), { recursive: true });
  const got = await lockStateFile(statePath);
  if (got === 'busy') {
    const held = await readLock(statePath);
    throw new StateLockedError(path, held ?? undefined, false);
  }
  const file = got;
  try {
    return await takeInfoFile(statePath, path, opts, file);
  } catch (e) {
    await file?.release();
    throw e;
  }
}

async function takeInfoFile(
  statePath: string,
  path: string,
  opts: AcquireOptions,
  file: OsFileLock | undefined,
): Promise<StateLock> {
  const info = newLockInfo(opts, statePath);
  const content = `${JSON.stringify(info)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusive(path, content)) {
      let released = false;
      return {
        info,
        path,
        ...(file ? { file } : {}),
        release: async () => {
          if (released) return;
          released = true;
          await removeIfId(statePath, info.ID);
          await file?.release();
        },
      };
    }
    const held = await readLock(statePath);
    if (held === undefined) continue; // released between our attempt and the read: try again
    // Holding the OS lock means no other process holds this state: a lock file not written by this
    // process was left by one that died (terraform's carries no pid).
    const stale = held !== null && (file && held.Pid !== process.pid ? true : isStale(held));
    if (stale && (opts.takeStale || file)) {
      await removeIfId(statePath, held.ID);
      continue;
    }
    throw new StateLockedError(path, held ?? undefined, stale);
  }
  throw new LockError(`could not lock ${statePath}: the lock file kept changing`);
}

/** Removes the lock with this ID whoever holds it. Fails if there is no lock or it has another ID. */
export async function forceUnlock(statePath: string, id: string): Promise<LockInfo> {
  const held = await readLock(statePath);
  if (held === undefined) throw new LockError(`${statePath} is not locked`);
  if (held === null) {
    // An unreadable lock has no ID to match against.
    throw new LockError(`the lock file ${lockPathFor(statePath)} is unreadable; delete it by hand`);
  }
  if (held.ID !== id) {
    throw new LockError(`lock ID ${JSON.stringify(id)} does not match the existing lock:\n${describe(held)}`);
  }
  if (!(await removeIfId(statePath, id)))
    throw new LockError(`the lock on ${statePath} changed while unlocking`);
  return held;
}

/** Runs `fn` holding the lock; the lock is released however `fn` ends. */
export async function withLock<T>(
  statePath: string,
  opts: AcquireOptions,
  fn: (lock: StateLock) => Promise<T>,
): Promise<T> {
  const lock = await acquireLock(statePath, opts);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}
