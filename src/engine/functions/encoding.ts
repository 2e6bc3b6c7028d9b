import { gzipSync } from 'node:zlib';
import { base64Encode } from '../../hcl/functions';
import { isObjectValue, sortedEntries } from '../expressions/values';
import { isInfinite, isNum, numText } from '../numbers/num';
import { jsonDecode } from './json-decode';
import { argStr } from './args';
import { csvDecode } from './csv';
import { fixed, FunctionError, type FunctionTable } from './registry';
import { textDecodeBase64, textEncodeBase64 } from './text-encoding';

/**
 * JSON as Terraform's jsonencode writes it: object keys sorted, no spaces, and `<`, `>`, `&`,
 * U+2028, U+2029 escaped the way Go's encoder does (so a rendered jobspec is byte-identical).
 */
export function jsonEncode(v: unknown): string {
  return encode(v).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Numbers are written with every digit they hold (terraform's JSON never uses an exponent). */
function encode(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (isNum(v)) {
    if (isInfinite(v)) throw new FunctionError('cannot encode an infinite number as JSON');
    return numText(v);
  }
  if (Array.isArray(v)) return `[${v.map(encode).join(',')}]`;
  if (isObjectValue(v))
    return `{${sortedEntries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${encode(x)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function base64Decode(s: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) {
    throw new FunctionError(
      'failed to decode base64 data: the string is not valid base64 (standard alphabet, padded)',
    );
  }
  const buf = Buffer.from(s, 'base64');
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) {
    throw new FunctionError('the result of decoding the provided string is not valid UTF-8');
  }
  return text;
}

/** Go's url.QueryEscape: spaces become "+", everything outside [A-Za-z0-9-_.~] is %-escaped. */
function urlEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export const encodingFunctions: FunctionTable = {
  jsonencode: fixed(1, ([v]) => jsonEncode(v)),
  jsondecode: fixed(1, (a) => jsonDecode(argStr(a, 0))),
  base64encode: fixed(1, (a) => base64Encode(argStr(a, 0))),
  base64decode: fixed(1, (a) => base64Decode(argStr(a, 0))),
  urlencode: fixed(1, (a) => urlEncode(argStr(a, 0))),
  // Go's gzip and Node's zlib compress differently, so the bytes (not the content) differ from Terraform's.
  base64gzip: fixed(1, (a) => gzipSync(Buffer.from(argStr(a, 0), 'utf8')).toString('base64')),
  csvdecode: fixed(1, (a) => csvDecode(argStr(a, 0))),
  textencodebase64: fixed(2, (a) => textEncodeBase64(argStr(a, 0), argStr(a, 1))),
  textdecodebase64: fixed(2, (a) => textDecodeBase64(argStr(a, 0), argStr(a, 1))),
};
