/**
 * Validation of a bearer JWT for `jwt` auth methods configured with JWTValidationPubKeys (the only key
 * source that needs no network), following Consul's jwt method: signature, exp/nbf with leeway,
 * BoundIssuer, BoundAudiences, then ClaimMappings/ListClaimMappings into selectable identity fields.
 */
import { createPublicKey, verify } from 'node:crypto';

export class LoginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoginError';
  }
}

export interface Identity {
  /** What binding rule and namespace rule Selectors see: `value.<name>` and `list.<name>`. */
  selectable: { value: Record<string, string>; list: Record<string, string[]> };
  /** What `${value.<name>}` templates may use. */
  vars: Record<string, string>;
}

const ALGS: Record<string, { hash: string; ec?: boolean }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
};

function part(text: string, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new LoginError(`the bearer token's ${what} is not base64url JSON`);
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function claim(claims: Record<string, unknown>, path: string): unknown {
  // Consul accepts JSON pointers ("/a/b") as well as top-level claim names.
  if (!path.startsWith('/')) return claims[path];
  let cur: unknown = claims;
  for (const seg of path.slice(1).split('/')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

export function validateJwt(token: string, config: Record<string, unknown>, nowMs: number): Identity {
  const pieces = token.split('.');
  if (pieces.length !== 3) throw new LoginError('the bearer token is not a JWT');
  const [h, p, s] = pieces as [string, string, string];
  const header = part(h, 'header');
  const claims = part(p, 'payload');
  const alg = String(header['alg'] ?? '');
  const supported = strings(config['JWTSupportedAlgs']);
  const allowed = supported.length > 0 ? supported : ['RS256'];
  const spec = ALGS[alg];
  if (!spec || !allowed.includes(alg))
    throw new LoginError(`the bearer token's algorithm "${alg}" is not one of ${allowed.join(', ')}`);
  const keys = strings(config['JWTValidationPubKeys']);
  if (keys.length === 0)
    throw new LoginError('this dev agent validates JWTs only against JWTValidationPubKeys');
  const signed = Buffer.from(`${h}.${p}`);
  const sig = Buffer.from(s, 'base64url');
  const ok = keys.some((pem) => {
    try {
      const key = createPublicKey(pem);
      return verify(spec.hash, signed, spec.ec ? { key, dsaEncoding: 'ieee-p1363' } : key, sig);
    } catch {
      return false;
    }
  });
  if (!ok)
    throw new LoginError('the bearer token signature does not verify against any JWTValidationPubKeys');

  const leewayMs = (typeof config['ClockSkewLeeway'] === 'number' ? config['ClockSkewLeeway'] : 60) * 1000;
  const exp = claims['exp'];
  if (typeof exp === 'number' && exp * 1000 + leewayMs < nowMs)
    throw new LoginError('the bearer token has expired');
  const nbf = claims['nbf'];
  if (typeof nbf === 'number' && nbf * 1000 - leewayMs > nowMs)
    throw new LoginError('the bearer token is not valid yet');
  const issuer = config['BoundIssuer'];
  if (typeof issuer === 'string' && issuer !== '' && claims['iss'] !== issuer)
    throw new LoginError('the bearer token was not issued by BoundIssuer');
  const audiences = strings(config['BoundAudiences']);
  if (audiences.length > 0) {
    const aud = typeof claims['aud'] === 'string' ? [claims['aud']] : strings(claims['aud']);
    if (!aud.some((a) => audiences.includes(a)))
      throw new LoginError('the bearer token is not for any of BoundAudiences');
  }

  const identity: Identity = { selectable: { value: {}, list: {} }, vars: {} };
  const mappings = (config['ClaimMappings'] ?? {}) as Record<string, unknown>;
  for (const [from, to] of Object.entries(mappings)) {
    const v = claim(claims, from);
    if (typeof to !== 'string' || v === undefined || v === null || typeof v === 'object') continue;
    identity.selectable.value[to] = String(v);
    identity.vars[`value.${to}`] = String(v);
  }
  const listMappings = (config['ListClaimMappings'] ?? {}) as Record<string, unknown>;
  for (const [from, to] of Object.entries(listMappings)) {
    const v = claim(claims, from);
    if (typeof to === 'string' && Array.isArray(v)) identity.selectable.list[to] = v.map(String);
  }
  return identity;
}
