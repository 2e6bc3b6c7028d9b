/**
 * `textencodebase64` / `textdecodebase64` for the encodings Node can both encode and decode without
 * extra tables: UTF-8, UTF-16 (LE/BE), ISO-8859-1 and US-ASCII, under their IANA names and aliases.
 * Other encodings Terraform knows are refused by name rather than approximated.
 */
import { FunctionError } from './registry';

type Codec = 'utf8' | 'utf16le' | 'utf16be' | 'latin1' | 'ascii';

const NAMES: Record<string, Codec> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'utf-16le': 'utf16le',
  'utf-16be': 'utf16be',
  'iso-8859-1': 'latin1',
  'iso_8859-1': 'latin1',
  latin1: 'latin1',
  l1: 'latin1',
  'us-ascii': 'ascii',
  ascii: 'ascii',
};

function codec(name: string, fn: string): Codec {
  const c = NAMES[name.toLowerCase()];
  if (!c)
    throw new FunctionError(
      `${fn} does not support encoding "${name}" in this engine (supported: UTF-8, UTF-16LE, UTF-16BE, ISO-8859-1, US-ASCII)`,
      1,
    );
  return c;
}

function encode(text: string, c: Codec, name: string): Buffer {
  if (c === 'utf8') return Buffer.from(text, 'utf8');
  if (c === 'utf16le' || c === 'utf16be') {
    const b = Buffer.from(text, 'utf16le');
    return c === 'utf16be' ? b.swap16() : b;
  }
  const limit = c === 'ascii' ? 0x7f : 0xff;
  for (const ch of text)
    if (ch.codePointAt(0)! > limit)
      throw new FunctionError(
        `the given string contains characters that cannot be represented in ${name}`,
        0,
      );
  return Buffer.from(text, 'latin1');
}

function decode(bytes: Buffer, c: Codec, name: string): string {
  if (c === 'utf16le' || c === 'utf16be') {
    const b = Buffer.from(bytes);
    return (c === 'utf16be' ? b.swap16() : b).toString('utf16le');
  }
  if (c === 'utf8') {
    const s = bytes.toString('utf8');
    if (!Buffer.from(s, 'utf8').equals(bytes))
      throw new FunctionError(`the given value is has an invalid ${name} encoding`, 0);
    return s;
  }
  if (c === 'ascii' && bytes.some((b) => b > 0x7f))
    throw new FunctionError(`the given value is has an invalid ${name} encoding`, 0);
  return bytes.toString('latin1');
}

export function textEncodeBase64(text: string, encoding: string): string {
  return encode(text, codec(encoding, 'textencodebase64'), encoding).toString('base64');
}

export function textDecodeBase64(b64: string, encoding: string): string {
  const c = codec(encoding, 'textdecodebase64');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0)
    throw new FunctionError('the given value is not valid base64', 0);
  return decode(Buffer.from(b64, 'base64'), c, encoding);
}
