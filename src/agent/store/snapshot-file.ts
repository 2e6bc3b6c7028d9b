import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Table } from './table';

export const SNAPSHOT_FILE = 'snapshot.json';
const FORMAT_VERSION = 1;

export interface SnapshotTable {
  name: string;
  index: number;
  /** The table's prunedFloor: tombstones are not kept in snapshots, only the highest index they had. */
  floor: number;
  /** [key, version (index of its last write), value] */
  rows: [string, number, object][];
}

export interface Snapshot {
  v: number;
  index: number;
  tables: SnapshotTable[];
}

/** Same framing as a log line: `<crc32 hex> <JSON>\n`, so a damaged snapshot is detected, never half-loaded. */
export function encodeSnapshot(index: number, tables: Iterable<Table>): string {
  const tparts: string[] = [];
  for (const t of tables) {
    const rows: string[] = [];
    for (const [key, row] of t.rows)
      rows.push(`[${JSON.stringify(key)},${row.version},${JSON.stringify(row.value)}]`);
    tparts.push(
      `{"name":${JSON.stringify(t.name)},"index":${t.index},"floor":${t.prunedFloor},"rows":[${rows.join(',')}]}`,
    );
  }
  const json = `{"v":${FORMAT_VERSION},"index":${index},"tables":[${tparts.join(',')}]}`;
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** Replaces the snapshot atomically: temp file, fsync, rename over, fsync the directory so the rename sticks. */
export function writeSnapshot(dir: string, text: string): void {
  const file = path.join(dir, SNAPSHOT_FILE);
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    const data = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  fsyncDir(dir);
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    // Some platforms (Windows) cannot open or fsync a directory; there the rename is as durable as it gets.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Loads the snapshot, or undefined if there is none. A damaged snapshot is an error: it was written atomically. */
export function readSnapshot(dir: string): Snapshot | undefined {
  const file = path.join(dir, SNAPSHOT_FILE);
  fs.rmSync(`${file}.tmp`, { force: true }); // an interrupted compaction; the previous snapshot still stands
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const fail = (why: string): never => {
    throw new Error(`store: snapshot ${file} is unusable: ${why}. Restore the data dir from a backup.`);
  };
  const end = buf.length > 0 && buf[buf.length - 1] === 0x0a ? buf.length - 1 : buf.length;
  if (end < 10 || buf[8] !== 0x20) fail('malformed header');
  const sum = buf.subarray(0, 8).toString('latin1');
  const body = buf.subarray(9, end);
  if (!/^[0-9a-f]{8}$/.test(sum) || Number.parseInt(sum, 16) !== crc32(body)) fail('checksum mismatch');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return fail(`invalid JSON (${(err as Error).message})`);
  }
  const snap = parsed as Partial<Snapshot>;
  if (snap.v !== FORMAT_VERSION)
    fail(`unknown format version ${String(snap.v)} (this build reads ${FORMAT_VERSION})`);
  if (!Number.isSafeInteger(snap.index) || !Array.isArray(snap.tables)) fail('missing index or tables');
  for (const t of snap.tables!) {
    const ok =
      t !== null &&
      typeof t === 'object' &&
      typeof t.name === 'string' &&
      Number.isSafeInteger(t.index) &&
      Number.isSafeInteger(t.floor) &&
      Array.isArray(t.rows);
    if (!ok) fail('a table entry is malformed');
  }
  return snap as Snapshot;
}
