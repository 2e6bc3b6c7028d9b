import * as fs from 'node:fs';
import * as path from 'node:path';
import { acquireLock } from './lock-file';
import { LogWriter, readLog, type LogEntry } from './log-file';
import { encodeSnapshot, readSnapshot, writeSnapshot, type Snapshot } from './snapshot-file';
import type { Table } from './table';

export const LOG_FILE = 'log.jsonl';

export interface Recovered {
  snapshot: Snapshot | undefined;
  /** Log entries newer than the snapshot, contiguous, in order. */
  entries: LogEntry[];
}

/** A data dir held by one store: the lock, the append-only log and the snapshot. */
export class DurableDir {
  private constructor(
    readonly dir: string,
    private readonly log: LogWriter,
    private readonly unlock: () => void,
  ) {}

  /** Entries in the log, i.e. commits since the last snapshot. */
  get logEntries(): number {
    return this.log.entries;
  }

  static open(dir: string, initialIndex: number): { durable: DurableDir; recovered: Recovered } {
    fs.mkdirSync(dir, { recursive: true });
    const unlock = acquireLock(dir);
    try {
      const snapshot = readSnapshot(dir);
      const logFile = path.join(dir, LOG_FILE);
      const log = readLog(logFile);
      const base = snapshot?.index ?? initialIndex;
      const entries = newerThan(logFile, log.entries, base);
      const writer = LogWriter.open(logFile, log.validBytes, log.entries.length);
      return { durable: new DurableDir(dir, writer, unlock), recovered: { snapshot, entries } };
    } catch (err) {
      unlock();
      throw err;
    }
  }

  append(line: string): void {
    this.log.append(line);
  }

  /** Writes a snapshot of `tables` at `index`, then empties the log it supersedes. */
  snapshot(index: number, tables: Iterable<Table>): void {
    writeSnapshot(this.dir, encodeSnapshot(index, tables));
    // A crash right here leaves a log whose entries the snapshot already holds; open() skips them.
    this.log.reset();
  }

  close(): void {
    try {
      this.log.close();
    } finally {
      this.unlock();
    }
  }
}

/** Checks that the log continues the snapshot without a gap, and returns the entries it does not already hold. */
function newerThan(file: string, entries: LogEntry[], base: number): LogEntry[] {
  if (entries.length === 0) return entries;
  if (entries[0]!.i > base + 1) {
    throw new Error(
      `store: log ${file} starts at index ${entries[0]!.i} but the snapshot ends at ${base}: entries are missing. ` +
        `Refusing to start: restore the data dir from a backup.`,
    );
  }
  for (let n = 1; n < entries.length; n++) {
    if (entries[n]!.i !== entries[n - 1]!.i + 1) {
      throw new Error(
        `store: log ${file} entry ${n + 1} has index ${entries[n]!.i} after ${entries[n - 1]!.i}: the log is ` +
          `out of order. Refusing to start: restore the data dir from a backup.`,
      );
    }
  }
  return entries.filter((e) => e.i > base);
}
