import {
  codePoints as chars,
  lower,
  strrev,
  trimCutset,
  trimPrefix,
  trimSuffix,
  upper,
} from '../../hcl/functions';
import { argInt, argList, argStr } from './args';
import { formatString } from './format';
import { regex, regexall, replaceRegex } from './regex';
import { between, fixed, FunctionError, type FunctionTable } from './registry';
import { isUnknown, toStr, UNKNOWN } from '../expressions/values';

function substr(s: string, offset: number, length: number): string {
  const cs = chars(s);
  let start = offset < 0 ? cs.length + offset : offset;
  if (start < 0) start = 0;
  if (start > cs.length) return '';
  const end = length < 0 ? cs.length : Math.min(cs.length, start + length);
  return cs.slice(start, end).join('');
}

/** A `/pattern/` substring makes replace() use an RE2 regular expression with `$1` / `${name}` references. */
function replace(s: string, search: string, repl: string): string {
  if (search.length >= 2 && search.startsWith('/') && search.endsWith('/'))
    return replaceRegex(s, search.slice(1, -1), repl);
  // Go's strings.Replace puts the replacement at every rune boundary when the search is empty.
  if (search === '') return repl + chars(s).join(repl) + repl;
  return s.split(search).join(repl);
}

/** Go's strings.Title word boundaries: ASCII other than letters, digits and `_`, and spaces. */
function isSeparator(c: string): boolean {
  if (c.charCodeAt(0) < 0x80) return !/[A-Za-z0-9_]/.test(c);
  return /\s/u.test(c);
}

function title(s: string): string {
  let prev = ' ';
  return chars(s)
    .map((c) => {
      const out = isSeparator(prev) ? upper(c) : c;
      prev = c;
      return out;
    })
    .join('');
}

export const stringFunctions: FunctionTable = {
  upper: fixed(1, (a) => upper(argStr(a, 0))),
  lower: fixed(1, (a) => lower(argStr(a, 0))),
  title: fixed(1, (a) => title(argStr(a, 0))),
  trimspace: fixed(1, (a) => argStr(a, 0).replace(/^\s+|\s+$/gu, '')),
  trim: fixed(2, (a) => trimCutset(argStr(a, 0), argStr(a, 1))),
  trimprefix: fixed(2, (a) => trimPrefix(argStr(a, 0), argStr(a, 1))),
  trimsuffix: fixed(2, (a) => trimSuffix(argStr(a, 0), argStr(a, 1))),
  chomp: fixed(1, (a) => argStr(a, 0).replace(/(\r\n|\n|\r)+$/, '')),
  indent: fixed(2, (a) => {
    const n = argInt(a, 0);
    return argStr(a, 1).replace(/\n/g, `\n${' '.repeat(Math.max(0, n))}`);
  }),
  strrev: fixed(1, (a) => strrev(argStr(a, 0))),
  startswith: fixed(2, (a) => argStr(a, 0).startsWith(argStr(a, 1))),
  endswith: fixed(2, (a) => argStr(a, 0).endsWith(argStr(a, 1))),
  strcontains: fixed(2, (a) => argStr(a, 0).includes(argStr(a, 1))),
  substr: fixed(3, (a) => substr(argStr(a, 0), argInt(a, 1), argInt(a, 2))),
  replace: fixed(3, (a) => replace(argStr(a, 0), argStr(a, 1), argStr(a, 2))),
  regex: fixed(2, (a) => regex(argStr(a, 0), argStr(a, 1))),
  regexall: fixed(2, (a) => regexall(argStr(a, 0), argStr(a, 1))),
  split: fixed(2, (a) => argStr(a, 1).split(argStr(a, 0))),
  join: between(
    2,
    Infinity,
    (a) => {
      const sep = argStr(a, 0);
      const parts: string[] = [];
      for (let i = 1; i < a.length; i++) {
        for (const [j, x] of argList(a, i).entries()) {
          if (isUnknown(x)) return UNKNOWN;
          if (x === null)
            throw new FunctionError(
              `element ${j} of argument ${i + 1} is null; cannot concatenate null values`,
              i,
            );
          parts.push(toStr(x));
        }
      }
      return parts.join(sep);
    },
    'shallow',
  ),
  // Terraform's format gives an unknown result when an argument is null.
  format: between(1, Infinity, (a) =>
    a.slice(1).some((x) => x === null) ? UNKNOWN : formatString(argStr(a, 0), a.slice(1)),
  ),
  formatlist: between(1, Infinity, (a) => {
    const fmt = argStr(a, 0);
    const rest = a.slice(1);
    let n: number | undefined;
    for (const x of rest) {
      if (!Array.isArray(x)) continue;
      if (n !== undefined && x.length !== n)
        throw new FunctionError('all list arguments must have the same length');
      n = x.length;
    }
    if (n === undefined) return [formatString(fmt, rest)];
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        formatString(
          fmt,
          rest.map((x) => (Array.isArray(x) ? x[i] : x)),
        ),
      );
    return out;
  }),
};
