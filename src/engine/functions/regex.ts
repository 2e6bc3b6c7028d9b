/**
 * `regex`, `regexall` and the `/pattern/` form of `replace`, with RE2 (Go's regexp syntax and
 * matching rules), which is what Terraform uses.
 */
import { compileRe2, Re2SyntaxError, type Re2, type Re2Match } from '../../common/re2';
import { FunctionError } from './registry';

function compile(pattern: string, argIndex: number): Re2 {
  try {
    return compileRe2(pattern);
  } catch (e) {
    if (e instanceof Re2SyntaxError)
      throw new FunctionError(`invalid regexp pattern: ${e.message}`, argIndex);
    throw e;
  }
}

/** The capture group names in order ('' for an unnamed group), read from the pattern. */
function groupNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/\\.|\[(?:\\.|[^\]])*\]|\((\?P?<([A-Za-z_]\w*)>|\?)?/g)) {
    if (!m[0].startsWith('(') || m[1] === '?') continue;
    names.push(m[2] ?? '');
  }
  return names;
}

/** Go's FindAll: empty matches right after a preceding match are skipped. */
function allMatches(re: Re2, text: string): Re2Match[] {
  const out: Re2Match[] = [];
  let end = -1;
  for (const m of re.all(text)) {
    const whole = m.groups[0] ?? '';
    if (whole === '' && m.index === end) continue;
    out.push(m);
    end = m.index + whole.length;
  }
  return out;
}

/** One match as Terraform returns it: the string, a list of captures, or an object of named ones. */
function result(names: string[], m: Re2Match): unknown {
  if (names.length === 0) return m.groups[0] ?? '';
  const hasNamed = names.some((n) => n !== '');
  if (!hasNamed) return names.map((_, i) => m.groups[i + 1] ?? null);
  const out: Record<string, unknown> = {};
  names.forEach((n, i) => {
    if (n !== '') out[n] = m.groups[i + 1] ?? null;
  });
  return out;
}

function checkGroups(names: string[]): void {
  if (names.some((n) => n === '') && names.some((n) => n !== ''))
    throw new FunctionError('invalid regexp pattern: cannot mix both named and unnamed capture groups', 0);
}

export function regex(pattern: string, text: string): unknown {
  const re = compile(pattern, 0);
  const m = re.first(text);
  const names = groupNames(re.source);
  checkGroups(names);
  if (!m) throw new FunctionError('pattern did not match any part of the given string');
  return result(names, m);
}

export function regexall(pattern: string, text: string): unknown[] {
  const re = compile(pattern, 0);
  const ms = allMatches(re, text);
  const names = groupNames(re.source);
  checkGroups(names);
  return ms.map((m) => result(names, m));
}

/** Go's Regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`; unknown references expand to "". */
function expand(template: string, m: Re2Match, names: string[]): string {
  return template.replace(/\$(?:(\$)|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g, (_, dollar, braced, bare) => {
    if (dollar) return '$';
    const name = (braced ?? bare) as string;
    if (/^\d+$/.test(name)) return m.groups[Number(name)] ?? '';
    const i = names.indexOf(name);
    return i < 0 ? '' : (m.groups[i + 1] ?? '');
  });
}

export function replaceRegex(text: string, pattern: string, replacement: string): string {
  const re = compile(pattern, 1);
  const ms = allMatches(re, text);
  const names = groupNames(re.source);
  let out = '';
  let last = 0;
  for (const m of ms) {
    out += text.slice(last, m.index) + expand(replacement, m, names);
    last = m.index + (m.groups[0] ?? '').length;
  }
  return out + text.slice(last);
}
