/**
 * The pending journal of one open state (see ./pending.ts), kept open for the run. Opening, syncing and
 * closing the file once per create cost more than the create's own bookkeeping when creates start
 * ten at a time; here the descriptor stays open and appends group-commit: lines appended in the same
 * turn of the event loop, or while a datasync is in flight, are written together and share one. The
 * guarantee is unchanged: an append resolves only once a datasync that followed the write of its line
 * has completed.
 */
import { writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { pendingPathFor, removePending, type PendingLine } from './pending';

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class PendingJournal {
  private handle: Promise<FileHandle> | undefined;
  /** The open descriptor, once `handle` has resolved (for markStarted's synchronous append). */
  private fd: number | undefined;
  /** Lines not yet written, and who waits for them to be on disk. */
  private lines: string[] = [];
  private waiters: Waiter[] = [];
  /** The drain in progress; cleared by the drain itself in the same step that sees nothing left. */
  private draining: Promise<void> | undefined;

  constructor(private readonly statePath: string) {}

  /** Resolves once the line is on disk. */
  append(line: PendingLine | string): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.lines.push(typeof line === 'string' ? line : `${JSON.stringify(line)}\n`);
    this.draining ??= this.drain();
    return done;
  }

  /**
   * Records that the create of a line journaled ahead (its `ahead` token) starts now. Written at once
   * and not synced: a kill of this process leaves it in the file (only the OS losing its page cache
   * loses it, and then the create is forgotten rather than an object wrongly adopted). The line it
   * marks is on disk already: the create waited for it.
   */
  markStarted(token: string): Promise<void> | void {
    const text = `${JSON.stringify({ started: token })}\n`;
    if (this.fd === undefined) return this.append(text);
    writeSync(this.fd, text);
  }

  /** Waits for appends in flight, then closes the descriptor (a later append opens it again). */
  async close(): Promise<void> {
    while (this.draining) await this.draining;
    const handle = this.handle;
    this.handle = undefined;
    this.fd = undefined;
    if (handle) await (await handle.catch(() => undefined))?.close();
  }

  /** Closes the journal and deletes its file. */
  async remove(): Promise<void> {
    await this.close();
    await removePending(this.statePath);
  }

  private async drain(): Promise<void> {
    // Creates that start together (a walk releases a wave of them in one turn) share the first
    // batch too, instead of the first one writing alone and the rest waiting for its datasync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      // Lines appended while a batch is written form the next batch.
      while (this.lines.length > 0) await this.writeBatch();
    } finally {
      // Same step as the check above: an append made after it starts a new drain.
      this.draining = undefined;
    }
  }

  private async writeBatch(): Promise<void> {
    const text = this.lines.join('');
    const waiters = this.waiters;
    this.lines = [];
    this.waiters = [];
    try {
      // O_APPEND: every write lands at the end, whatever else appends to the file.
      this.handle ??= open(pendingPathFor(this.statePath), 'a', 0o600);
      const fh = await this.handle;
      this.fd = fh.fd;
      await writeAll(fh, Buffer.from(text));
      await fh.datasync();
      for (const w of waiters) w.resolve();
    } catch (e) {
      // The next batch starts on a fresh descriptor: this one may be what failed.
      const failed = this.handle;
      this.handle = undefined;
      this.fd = undefined;
      await failed?.then((fh) => fh.close()).catch(() => undefined);
      for (const w of waiters) w.reject(e);
    }
  }
}

/** Writes all of `buf` (a write may take only part of it). */
async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  for (let at = 0; at < buf.length;) at += (await fh.write(buf, at)).bytesWritten;
}
