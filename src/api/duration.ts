/**
 * Go-style durations ("1h30m", "250ms", "1.5s"), which both services use in query parameters and
 * configuration, converted to and from milliseconds and nanoseconds.
 */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

// µ (micro sign) and μ (Greek mu) escaped: one non-ASCII character makes Node decode the
// whole bundle into a two-byte string at every start (tens of ms for the command line's bundle).
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;

export class DurationError extends Error {
  constructor(value: string) {
    super(`"${value}" is not a duration (use forms like "30s", "5m", "1h30m", "250ms")`);
    this.name = 'DurationError';
  }
}

/** Parses a Go duration string to milliseconds. Throws DurationError. */
export function parseDuration(input: string): number {
  let s = input.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationError(input);
  let total = 0;
  PART.lastIndex = 0;
  let pos = 0;
  while (pos < s.length) {
    PART.lastIndex = pos;
    const m = PART.exec(s);
    if (!m) throw new DurationError(input);
    total += Number(m[1]) * UNIT_MS[m[2] as string]!;
    pos = PART.lastIndex;
  }
  return sign * total;
}

/** Formats milliseconds the way Go's time.Duration.String does ("1h30m0s", "1.5s", "250ms", "0s"). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  let out: string;
  if (rest < 1000) {
    out = `${trimNumber(rest)}ms`;
    if (rest < 1) out = `${trimNumber(rest * 1000)}µs`;
  } else {
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const s = rest / 1000;
    out = h > 0 ? `${h}h${m}m${trimNumber(s)}s` : m > 0 ? `${m}m${trimNumber(s)}s` : `${trimNumber(s)}s`;
  }
  return neg ? `-${out}` : out;
}

function trimNumber(n: number): string {
  return String(Math.round(n * 1e9) / 1e9);
}

export const msToNs = (ms: number): number => Math.round(ms * 1e6);
export const nsToMs = (ns: number): number => ns / 1e6;
