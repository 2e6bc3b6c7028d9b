import { createHash } from 'node:crypto';
import { hashHex } from '../../hcl/functions';
import { argStr } from './args';
import { fixed, type FunctionTable } from './registry';

const hex = (alg: string) => fixed(1, (a) => hashHex(alg, argStr(a, 0)));
const b64 = (alg: string) => fixed(1, (a) => createHash(alg).update(argStr(a, 0), 'utf8').digest('base64'));

/** Hashes of the UTF-8 bytes of a string; impure functions (uuid, timestamp, bcrypt) are deliberately absent. */
export const cryptoFunctions: FunctionTable = {
  md5: hex('md5'),
  sha1: hex('sha1'),
  sha256: hex('sha256'),
  sha512: hex('sha512'),
  base64sha256: b64('sha256'),
  base64sha512: b64('sha512'),
};
