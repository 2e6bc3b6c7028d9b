/**
 * Time functions on RFC 3339 timestamps. A timestamp keeps the offset it was written with, as Go's
 * time.Time does, because `formatdate` and `timeadd` print in that offset.
 */
import { DurationError, parseDuration } from '../../api/duration';
import { argStr } from './args';
import { fixed, FunctionError, impure, type FunctionTable } from './registry';

interface Timestamp {
  /** Milliseconds since the epoch, UTC. */
  ms: number;
  /** Offset from UTC in minutes (east positive). */
  offset: number;
  /** Sub-millisecond nanoseconds, kept only so comparisons are exact. */
  extraNanos: number;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function parseTimestamp(text: string, argIndex: number): Timestamp {
  const m = RFC3339.exec(text);
  const bad = (): FunctionError =>
    new FunctionError(
      `not a valid RFC3339 timestamp: cannot parse ${JSON.stringify(text)} as RFC3339 ("2006-01-02T15:04:05Z07:00")`,
      argIndex,
    );
  if (!m) throw bad();
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const frac = (m[7] ?? '').padEnd(9, '0');
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const local = Date.UTC(y, mo - 1, d, h, mi, s, Number(frac.slice(0, 3)));
  const check = new Date(local);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) throw bad();
  return { ms: local - offset * 60_000, offset, extraNanos: Number(frac.slice(3)) };
}

/** The wall-clock fields of a timestamp in its own offset. */
function fields(t: Timestamp): Date {
  return new Date(t.ms + t.offset * 60_000);
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

function offsetText(offset: number, colon: boolean): string {
  const a = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(a / 60), 2)}${colon ? ':' : ''}${pad(a % 60, 2)}`;
}

/** Go's time.RFC3339 layout: no fractional seconds, "Z" for UTC. */
export function formatRfc3339(t: Timestamp): string {
  const f = fields(t);
  const date = `${pad(f.getUTCFullYear(), 4)}-${pad(f.getUTCMonth() + 1, 2)}-${pad(f.getUTCDate(), 2)}`;
  const time = `${pad(f.getUTCHours(), 2)}:${pad(f.getUTCMinutes(), 2)}:${pad(f.getUTCSeconds(), 2)}`;
  return `${date}T${time}${t.offset === 0 ? 'Z' : offsetText(t.offset, true)}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function verb(seq: string, t: Timestamp): string {
  const f = fields(t);
  const h12 = f.getUTCHours() % 12 === 0 ? 12 : f.getUTCHours() % 12;
  const table: Record<string, () => string> = {
    YYYY: () => pad(f.getUTCFullYear(), 4),
    YY: () => pad(f.getUTCFullYear() % 100, 2),
    MMMM: () => MONTHS[f.getUTCMonth()]!,
    MMM: () => MONTHS[f.getUTCMonth()]!.slice(0, 3),
    MM: () => pad(f.getUTCMonth() + 1, 2),
    M: () => String(f.getUTCMonth() + 1),
    DD: () => pad(f.getUTCDate(), 2),
    D: () => String(f.getUTCDate()),
    EEEE: () => DAYS[f.getUTCDay()]!,
    EEE: () => DAYS[f.getUTCDay()]!.slice(0, 3),
    hh: () => pad(f.getUTCHours(), 2),
    h: () => String(f.getUTCHours()),
    HH: () => pad(h12, 2),
    H: () => String(h12),
    AA: () => (f.getUTCHours() < 12 ? 'AM' : 'PM'),
    aa: () => (f.getUTCHours() < 12 ? 'am' : 'pm'),
    mm: () => pad(f.getUTCMinutes(), 2),
    m: () => String(f.getUTCMinutes()),
    ss: () => pad(f.getUTCSeconds(), 2),
    s: () => String(f.getUTCSeconds()),
    ZZZZZ: () => offsetText(t.offset, true),
    ZZZZ: () => offsetText(t.offset, false),
    ZZZ: () => (t.offset === 0 ? 'UTC' : offsetText(t.offset, false)),
    Z: () => (t.offset === 0 ? 'Z' : offsetText(t.offset, true)),
  };
  const fn = table[seq];
  if (!fn) throw new FunctionError(`invalid date format verb "${seq}": unsupported format verb`, 0);
  return fn();
}

/** `formatdate(spec, timestamp)`: letter runs are verbs, 'quoted' text is literal, '' is a quote. */
function formatdate(spec: string, t: Timestamp): string {
  let out = '';
  let i = 0;
  while (i < spec.length) {
    const c = spec[i]!;
    if (c === "'") {
      if (spec[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      const end = spec.indexOf("'", i + 1);
      if (end < 0) throw new FunctionError("unterminated literal '", 0);
      out += spec.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (spec[j] === c) j++;
      out += verb(spec.slice(i, j), t);
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** Go's time.ParseDuration in milliseconds (which, unlike the API's reader, takes no blanks). */
function durationMs(text: string): number {
  const bad = new FunctionError(`time: invalid duration ${JSON.stringify(text)}`, 1);
  if (text !== text.trim()) throw bad;
  try {
    return parseDuration(text);
  } catch (e) {
    if (e instanceof DurationError) throw bad;
    throw e;
  }
}

function timeadd(ts: string, duration: string): string {
  const t = parseTimestamp(ts, 0);
  return formatRfc3339({ ...t, ms: t.ms + Math.trunc(durationMs(duration)) });
}

function timecmp(a: string, b: string): number {
  const x = parseTimestamp(a, 0);
  const y = parseTimestamp(b, 1);
  const d = x.ms - y.ms || x.extraNanos - y.extraNanos;
  return Math.sign(d);
}

function now(): Timestamp {
  return { ms: Math.floor(Date.now() / 1000) * 1000, offset: 0, extraNanos: 0 };
}

export const timeFunctions: FunctionTable = {
  timestamp: impure(fixed(0, () => formatRfc3339(now()))),
  plantimestamp: fixed(0, (_, ctx) => {
    const ms = Date.parse(ctx.planTimestamp);
    return formatRfc3339({ ms: Math.floor(ms / 1000) * 1000, offset: 0, extraNanos: 0 });
  }),
  formatdate: fixed(2, (a) => formatdate(argStr(a, 0), parseTimestamp(argStr(a, 1), 1))),
  timeadd: fixed(2, (a) => timeadd(argStr(a, 0), argStr(a, 1))),
  timecmp: fixed(2, (a) => timecmp(argStr(a, 0), argStr(a, 1))),
};
