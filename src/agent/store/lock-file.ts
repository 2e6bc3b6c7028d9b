import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../../common/process';

export const LOCK_FILE = 'LOCK';

/**
 * Takes the data dir's lock file (created exclusively, holding our pid) and returns its release function. A lock
 * left by a process that no longer exists is taken over; one held by a live process (this one included: two
 * stores in one process would corrupt each other just the same) is refused with its pid.
 */
export function acquireLock(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  // The pid is written to a private file first and then hard-linked into place: the link appears atomically
  // with its content, so nobody ever reads a half-written lock and mistakes it for a stale one.
  const tmp = path.join(dir, `${LOCK_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.linkSync(tmp, file);
        return () => releaseLock(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readHolder(file);
      if (holder !== undefined && processAlive(holder)) {
        const who =
          holder === process.pid ? `this process (pid ${holder}) already has it open` : `pid ${holder}`;
        throw new Error(
          `store: data dir ${dir} is locked by another agent: ${who}. Stop it or use another data dir.`,
        );
      }
      // The holder is gone (crash, kill -9): the lock is stale.
      fs.rmSync(file, { force: true });
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  throw new Error(`store: could not take the lock ${file}: another agent keeps creating it`);
}

function releaseLock(file: string): void {
  // Only remove the lock if it is still ours; never a successor's.
  if (readHolder(file) === process.pid) fs.rmSync(file, { force: true });
}

function readHolder(file: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}
