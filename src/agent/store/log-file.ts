import * as fs from 'node:fs';
import { crc32 } from 'node:zlib';

/** One change inside a log entry: `v` is present for puts and absent for deletes. */
export interface LogChange {
  t: string;
  k: string;
  v?: object;
}

export interface LogEntry {
  i: number;
  c: LogChange[];
}

/** A change ready to be logged: the value's JSON text is reused as is, never re-serialized. */
export interface ChangeToLog {
  table: string;
  key: string;
  json: string | null;
}

/**
 * One line per commit: `<crc32 of the JSON, 8 hex digits> <JSON>\n`. The checksum tells a torn or corrupt line
 * from a good one without trusting the JSON parser to notice.
 */
export function encodeLogLine(index: number, changes: readonly ChangeToLog[]): string {
  const parts = changes.map((c) => {
    const head = `{"t":${JSON.stringify(c.table)},"k":${JSON.stringify(c.key)}`;
    return c.json === null ? `${head}}` : `${head},"v":${c.json}}`;
  });
  const json = `{"i":${index},"c":[${parts.join(',')}]}`;
  return `${hex8(crc32(json))} ${json}\n`;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** Parses one line (without its newline); returns a reason string when the line is not a valid entry. */
function decodeLine(line: Buffer): LogEntry | string {
  if (line.length < 10 || line[8] !== 0x20) return 'malformed line';
  const sum = line.subarray(0, 8).toString('latin1');
  const body = line.subarray(9);
  if (!/^[0-9a-f]{8}$/.test(sum) || Number.parseInt(sum, 16) !== crc32(body)) return 'checksum mismatch';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'invalid JSON';
  }
  return isLogEntry(parsed) ? parsed : 'not a log entry';
}

function isLogEntry(x: unknown): x is LogEntry {
  if (x === null || typeof x !== 'object') return false;
  const e = x as { i?: unknown; c?: unknown };
  if (!Number.isSafeInteger(e.i) || !Array.isArray(e.c)) return false;
  return e.c.every((c: unknown) => {
    if (c === null || typeof c !== 'object') return false;
    const ch = c as { t?: unknown; k?: unknown; v?: unknown };
    return (
      typeof ch.t === 'string' &&
      typeof ch.k === 'string' &&
      (ch.v === undefined || (ch.v !== null && typeof ch.v === 'object'))
    );
  });
}

export interface LogContents {
  entries: LogEntry[];
  /** Bytes of intact entries; anything after is a torn final write to cut off. */
  validBytes: number;
  /** Total size of the file as found. */
  fileBytes: number;
}

/**
 * Reads the log. A bad region at the very end (a partial line, or garbage with no intact entry after it) is what
 * a crash in the middle of an append leaves: it was never acknowledged, so it is reported as torn and dropped.
 * A bad line FOLLOWED by intact entries is real corruption: acknowledged commits would be lost, so we refuse.
 */
export function readLog(file: string): LogContents {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], validBytes: 0, fileBytes: 0 };
    throw err;
  }
  const entries: LogEntry[] = [];
  let validBytes = 0;
  let firstBad: { line: number; offset: number; reason: string } | undefined;
  let pos = 0;
  for (let lineNo = 1; pos < buf.length; lineNo++) {
    const nl = buf.indexOf(0x0a, pos);
    const end = nl === -1 ? buf.length : nl;
    // A final line without its newline was cut short by the crash, even if its checksum happens to hold.
    const decoded = nl === -1 ? 'incomplete final line' : decodeLine(buf.subarray(pos, end));
    if (typeof decoded === 'string') {
      firstBad ??= { line: lineNo, offset: pos, reason: decoded };
    } else if (firstBad) {
      throw new Error(
        `store: log ${file} is corrupt at line ${firstBad.line} (byte ${firstBad.offset}): ${firstBad.reason}. ` +
          `Intact entries follow it, so this is not a torn final write and committed data would be lost. ` +
          `Refusing to start: restore the data dir from a backup, or move it away to start empty.`,
      );
    } else {
      entries.push(decoded);
      validBytes = end + 1;
    }
    pos = end + 1;
  }
  return { entries, validBytes, fileBytes: buf.length };
}

/** The append side of the log: one fd in append mode, each commit appended and fdatasync'ed before returning. */
export class LogWriter {
  private size: number;
  /** Entries appended since the log was last emptied (i.e. since the last snapshot). */
  entries: number;

  private constructor(
    private readonly fd: number,
    size: number,
    entries: number,
  ) {
    this.size = size;
    this.entries = entries;
  }

  /** Opens the log for appending, first cutting it to `validBytes` to drop a torn tail. */
  static open(file: string, validBytes: number, entries: number): LogWriter {
    const fd = fs.openSync(file, 'a');
    try {
      if (fs.fstatSync(fd).size !== validBytes) {
        fs.ftruncateSync(fd, validBytes);
        fs.fsyncSync(fd);
      }
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    return new LogWriter(fd, validBytes, entries);
  }

  /** Durably appends one line. On failure the file is cut back so it never holds an unacknowledged entry. */
  append(line: string): void {
    const data = Buffer.from(line, 'utf8');
    try {
      let off = 0;
      while (off < data.length) off += fs.writeSync(this.fd, data, off, data.length - off);
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // The original error matters more; a leftover partial line is handled as torn on the next open.
      }
      throw new Error(`store: could not append to the log: ${(err as Error).message}`, { cause: err });
    }
    this.size += data.length;
    this.entries++;
  }

  /** Empties the log once a snapshot holds everything in it. */
  reset(): void {
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.size = 0;
    this.entries = 0;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
