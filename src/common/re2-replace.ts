/**
 * Go's Regexp.ReplaceAllString on an RE2 pattern: the jobspec's `regex_replace` and the `/re/` form
 * of `replace` are Go's, so their templates read `$1`, `${1}`, `$name`, `${name}` and `$$`, a group
 * that did not match expands to nothing, and an empty match right after a match is skipped.
 */
import type { Re2, Re2Match } from './re2';

export function re2ReplaceAll(re: Re2, text: string, template: string): string {
  let out = '';
  let last = 0;
  let previousEnd = -1;
  for (const m of re.all(text)) {
    const whole = m.groups[0] ?? '';
    if (whole === '' && m.index === previousEnd) continue;
    out += text.slice(last, m.index) + expandTemplate(template, m);
    last = m.index + whole.length;
    previousEnd = last;
  }
  return out + text.slice(last);
}

const NAME = /^[A-Za-z0-9_]+/;
const BRACED = /^\{([A-Za-z0-9_]+)\}/;

/** Go's Regexp.Expand: a `$` that starts no valid reference is kept as it is. */
export function expandTemplate(template: string, m: Re2Match): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) return out + template.slice(i);
    out += template.slice(i, dollar);
    const rest = template.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      i = dollar + 2;
      continue;
    }
    const ref = BRACED.exec(rest) ?? NAME.exec(rest);
    if (!ref) {
      out += '$';
      i = dollar + 1;
      continue;
    }
    out += groupValue(ref[1] ?? ref[0], m);
    i = dollar + 1 + ref[0].length;
  }
  return out;
}

function groupValue(name: string, m: Re2Match): string {
  if (/^\d+$/.test(name)) return m.groups[Number(name)] ?? '';
  return m.named[name] ?? '';
}
