/** Signs JWTs with a throwaway RSA key for login tests. */
import { generateKeyPairSync, sign } from 'node:crypto';

export interface JwtSigner {
  publicKeyPem: string;
  sign(claims: Record<string, unknown>): string;
}

export function jwtSigner(): JwtSigner {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sign(claims) {
      const head = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc(claims)}`;
      return `${head}.${sign('sha256', Buffer.from(head), privateKey).toString('base64url')}`;
    },
  };
}
