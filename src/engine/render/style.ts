/**
 * ANSI styling that disappears when colour is off, so one code path renders both. The caller
 * decides (colour only on a TTY and not under CI); renderers never look at the environment.
 */
export interface Style {
  readonly color: boolean;
  bold(s: string): string;
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
}

const wrap =
  (on: boolean, open: number, close: number) =>
  (s: string): string =>
    on && s.length > 0 ? `\x1b[${open}m${s}\x1b[${close}m` : s;

export function makeStyle(color: boolean): Style {
  return {
    color,
    bold: wrap(color, 1, 22),
    green: wrap(color, 32, 39),
    red: wrap(color, 31, 39),
    yellow: wrap(color, 33, 39),
    cyan: wrap(color, 36, 39),
    dim: wrap(color, 2, 22),
  };
}

/** Removes ANSI escape sequences (for measuring and for tests). */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/** Whether colour fits this stream: a TTY, not under CI, NO_COLOR unset. For callers, not renderers. */
export function wantsColor(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (!stream.isTTY) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') return false;
  return env.TERM !== 'dumb';
}
