/**
 * `format` / `formatlist`: Go's fmt verbs as Terraform's format function supports them
 * (%v %#v %s %q %t %d %b %o %x %X %e %E %f %g %G %%, flags "-+ #0", width, precision, %[n] indexes).
 */
import { formatNumber, isUnknown, toBool, toNum, toStr } from '../expressions/values';
import { jsonEncode } from './encoding';
import { FunctionError } from './registry';

const VERB = /%(?:\[(\d+)\])?([-+ #0]*)(\d+)?(?:\.(\d*))?([a-zA-Z%])/g;

export function formatString(fmt: string, args: unknown[]): string {
  let out = '';
  let last = 0;
  let next = 0;
  VERB.lastIndex = 0;
  for (let m = VERB.exec(fmt); m; m = VERB.exec(fmt)) {
    out += fmt.slice(last, m.index);
    last = VERB.lastIndex;
    const [whole, indexS, flags = '', widthS, precS, verb = ''] = m;
    if (verb === '%') {
      if (whole !== '%%') throw new FunctionError(`invalid format verb "${whole}"`);
      out += '%';
      continue;
    }
    if (indexS !== undefined) next = Number(indexS) - 1;
    if (next < 0 || next >= args.length) {
      throw new FunctionError(`not enough arguments for "${whole}" at offset ${m.index}`);
    }
    const arg = args[next++];
    const prec = precS === undefined ? undefined : precS === '' ? 0 : Number(precS);
    out += pad(
      formatVerb(verb, flags, prec, arg, whole),
      flags,
      widthS === undefined ? 0 : Number(widthS),
      verb,
    );
  }
  out += fmt.slice(last);
  if (next < args.length && !/%\[\d+\]/.test(fmt)) {
    throw new FunctionError(`too many arguments; only ${next} used by format string`);
  }
  return out;
}

function pad(s: string, flags: string, width: number, verb: string): string {
  if (s.length >= width) return s;
  if (flags.includes('-')) return s + ' '.repeat(width - s.length);
  if (flags.includes('0') && 'dbfeEgGxXo'.includes(verb)) {
    const sign = /^[-+ ]/.test(s) ? s[0]! : '';
    return sign + '0'.repeat(width - s.length) + s.slice(sign.length);
  }
  return ' '.repeat(width - s.length) + s;
}

function signed(n: number, body: string, flags: string): string {
  if (n < 0 || Object.is(n, -0)) return `-${body}`;
  if (flags.includes('+')) return `+${body}`;
  if (flags.includes(' ')) return ` ${body}`;
  return body;
}

function number(arg: unknown, verb: string): number {
  try {
    return toNum(arg);
  } catch {
    throw new FunctionError(`unsupported value for "%${verb}": number required`);
  }
}

/** Go's %e: mantissa digits and a two-digit exponent ("1.500000e+00"). */
function goExp(n: number, prec: number): string {
  const s = n.toExponential(prec);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function formatVerb(
  verb: string,
  flags: string,
  prec: number | undefined,
  arg: unknown,
  whole: string,
): string {
  if (isUnknown(arg)) throw new FunctionError('unknown value in format arguments');
  switch (verb) {
    case 'v':
      if (flags.includes('#')) return jsonEncode(arg);
      if (arg === null) return 'null';
      if (typeof arg === 'object') return jsonEncode(arg);
      return toStr(arg);
    case 's': {
      let s: string;
      try {
        s = toStr(arg);
      } catch {
        throw new FunctionError(`unsupported value for "${whole}": string required`);
      }
      return prec === undefined ? s : [...s].slice(0, prec).join('');
    }
    case 'q':
      return JSON.stringify(toStr(arg));
    case 't':
      try {
        return String(toBool(arg));
      } catch {
        throw new FunctionError(`unsupported value for "${whole}": bool required`);
      }
    case 'd':
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      if (verb === 'x' || verb === 'X') {
        if (typeof arg === 'string') {
          const hex = Buffer.from(arg, 'utf8').toString('hex');
          return verb === 'X' ? hex.toUpperCase() : hex;
        }
      }
      const n = number(arg, verb);
      if (!Number.isInteger(n))
        throw new FunctionError(`unsupported value for "${whole}": an integer is required`);
      const radix = verb === 'd' ? 10 : verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
      let body = Math.abs(n).toString(radix);
      if (verb === 'X') body = body.toUpperCase();
      if (flags.includes('#') && verb === 'o') body = `0${body}`;
      if (flags.includes('#') && (verb === 'x' || verb === 'X')) body = `0${verb}${body}`;
      return signed(n, body, flags);
    }
    case 'f':
    case 'F': {
      const n = number(arg, verb);
      return signed(n, Math.abs(n).toFixed(prec ?? 6), flags);
    }
    case 'e':
    case 'E': {
      const n = number(arg, verb);
      const s = goExp(Math.abs(n), prec ?? 6);
      return signed(n, verb === 'E' ? s.toUpperCase() : s, flags);
    }
    case 'g':
    case 'G': {
      const n = number(arg, verb);
      const abs = Math.abs(n);
      let s: string;
      if (prec === undefined) {
        const exp = abs === 0 ? 0 : Math.floor(Math.log10(abs));
        s =
          exp < -4 || exp >= 21
            ? goExp(
                abs,
                Math.max(
                  0,
                  String(abs)
                    .replace(/[^0-9]/g, '')
                    .replace(/^0+/, '').length - 1,
                ),
              ).replace(/\.?0+e/, 'e')
            : formatNumber(abs);
      } else {
        s = abs.toPrecision(Math.max(prec, 1));
        if (s.includes('e')) s = s.replace(/e([+-])(\d)$/, 'e$10$2');
        else if (s.includes('.')) s = s.replace(/\.?0+$/, '');
      }
      return signed(n, verb === 'G' ? s.toUpperCase() : s, flags);
    }
    default:
      throw new FunctionError(`unsupported format verb "${whole}"`);
  }
}
