import { createHash, randomUUID } from 'node:crypto';
import type forge from 'node-forge';
import { lazyModule } from '../../common/lazy-module';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const bcryptjs = lazyModule(() => require('bcryptjs') as typeof import('bcryptjs'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeForge = lazyModule(() => require('node-forge') as typeof import('node-forge'));
import { argInt, argStr } from './args';
import { between, fixed, FunctionError, impure, type FunctionTable } from './registry';

/** A digest of bytes (or a string's UTF-8 bytes) as hex or base64. */
export function digest(alg: string, data: string | Buffer, enc: 'hex' | 'base64'): string {
  return createHash(alg).update(data).digest(enc);
}

const hex = (alg: string) => fixed(1, (a) => digest(alg, argStr(a, 0), 'hex'));
const b64 = (alg: string) => fixed(1, (a) => digest(alg, argStr(a, 0), 'base64'));

/** RFC 4122 namespaces uuidv5 accepts by name. */
const NAMESPACES: Record<string, string> = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};

function uuidBytes(text: string): Buffer {
  const hexText = text.replace(/^urn:uuid:/i, '').replace(/^\{(.*)\}$/, '$1');
  if (!/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(hexText))
    throw new FunctionError(
      `uuidv5() doesn't support namespace ${text} (invalid UUID length: ${text.length})`,
    );
  return Buffer.from(hexText.replace(/-/g, ''), 'hex');
}

/** Name-based UUID (SHA-1), RFC 4122 section 4.3. */
function uuidv5(namespace: string, name: string): string {
  const ns = uuidBytes(NAMESPACES[namespace] ?? namespace);
  const h = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Terraform's bcrypt: default cost 10, `$2a$` hashes, costs 4 to 31. */
function bcrypt(args: unknown[]): string {
  const cost = args.length > 1 ? argInt(args, 1) : 10;
  if (cost < 4 || cost > 31)
    throw new FunctionError(`crypto/bcrypt: cost ${cost} is outside allowed range (4,31)`, 1);
  const input = argStr(args, 0);
  if (Buffer.byteLength(input, 'utf8') > 72)
    throw new FunctionError('bcrypt: password length exceeds 72 bytes', 0);
  // Go's x/crypto/bcrypt writes the `$2a$` prefix; the hash is the same as bcryptjs's `$2b$`.
  return bcryptjs()
    .hashSync(input, bcryptjs().genSaltSync(cost))
    .replace(/^\$2b\$/, '$2a$');
}

/**
 * RSA PKCS #1 v1.5 decryption, through node-forge: Node.js itself refuses this padding for private
 * decryption since CVE-2023-46809, and Terraform's rsadecrypt uses exactly it.
 */
function rsadecrypt(cipherB64: string, pem: string): string {
  const data = Buffer.from(cipherB64, 'base64');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(cipherB64) || cipherB64.length % 4 !== 0)
    throw new FunctionError(`failed to decode input "${cipherB64}": cipher text must be base64-encoded`, 0);
  let key: forge.pki.rsa.PrivateKey;
  try {
    key = nodeForge().pki.privateKeyFromPem(pem);
  } catch (e) {
    throw new FunctionError(`invalid private key: ${(e as Error).message}`, 1);
  }
  let out: string;
  try {
    out = key.decrypt(data.toString('binary'), 'RSAES-PKCS1-V1_5');
  } catch {
    throw new FunctionError('failed to decrypt: crypto/rsa: decryption error');
  }
  return Buffer.from(out, 'binary').toString('utf8');
}

/** Hashes of the UTF-8 bytes of a string, UUIDs, bcrypt and RSA decryption. */
export const cryptoFunctions: FunctionTable = {
  md5: hex('md5'),
  sha1: hex('sha1'),
  sha256: hex('sha256'),
  sha512: hex('sha512'),
  base64sha256: b64('sha256'),
  base64sha512: b64('sha512'),
  uuid: impure(fixed(0, () => randomUUID())),
  uuidv5: fixed(2, (a) => uuidv5(argStr(a, 0), argStr(a, 1))),
  bcrypt: impure(between(1, 2, bcrypt)),
  rsadecrypt: fixed(2, (a) => rsadecrypt(argStr(a, 0), argStr(a, 1))),
};
