/**
 * `format` / `formatlist`: Go's fmt verbs as Terraform's format function supports them
 * (%v %#v %s %q %t %d %b %o %x %X %e %E %f %g %G %%, flags "-+ #0", width, precision, %[n] indexes).
 */
import { isUnknown, toBool, toNumeric, toStr } from '../expressions/values';
import { exponentText, fixedText, generalText } from '../numbers/big-float-text';
import { toBig, type BigFloat } from '../numbers/num';
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

function signed(negative: boolean, body: string, flags: string): string {
  if (negative) return `-${body}`;
  if (flags.includes('+')) return `+${body}`;
  if (flags.includes(' ')) return ` ${body}`;
  return body;
}

/** The argument as an exact BigFloat; Go prints an infinity as "Inf" under every float verb. */
function number(arg: unknown, verb: string): BigFloat {
  try {
    return toBig(toNumeric(arg));
  } catch {
    throw new FunctionError(`unsupported value for "%${verb}": number required`);
  }
}

function integerVerb(verb: string, flags: string, arg: unknown, whole: string): string {
  const n = number(arg, verb);
  if (!n.isInt()) throw new FunctionError(`unsupported value for "${whole}": an integer is required`);
  const radix = verb === 'd' ? 10 : verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
  const t = n.trunc();
  let body = (t < 0n ? -t : t).toString(radix);
  if (verb === 'X') body = body.toUpperCase();
  if (flags.includes('#') && verb === 'o') body = `0${body}`;
  if (flags.includes('#') && (verb === 'x' || verb === 'X')) body = `0${verb}${body}`;
  return signed(n.neg && t !== 0n, body, flags);
}

function floatVerb(verb: string, flags: string, prec: number | undefined, arg: unknown): string {
  const n = number(arg, verb);
  const abs = n.abs();
  let body: string;
  if (n.inf) body = 'Inf';
  else if (verb === 'f' || verb === 'F') body = fixedText(abs, prec ?? 6);
  else if (verb === 'e' || verb === 'E') body = exponentText(abs, prec ?? 6);
  else body = generalText(abs, prec);
  if (verb === 'E' || verb === 'G') body = body.toUpperCase();
  if (n.inf && !n.neg && !flags.includes(' ')) return `+${body}`;
  return signed(n.neg, body, flags);
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
    case 'X':
      if ((verb === 'x' || verb === 'X') && typeof arg === 'string') {
        const hex = Buffer.from(arg, 'utf8').toString('hex');
        return verb === 'X' ? hex.toUpperCase() : hex;
      }
      return integerVerb(verb, flags, arg, whole);
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      return floatVerb(verb, flags, prec, arg);
    default:
      throw new FunctionError(`unsupported format verb "${whole}"`);
  }
}
