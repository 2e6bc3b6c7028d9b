/**
 * Auth method types the registry knows and the Config keys each requires (following Consul's validators).
 * Values are only checked for presence and shape: nothing here talks to an identity provider.
 */
import type { RuleViolation } from '../../../api/reg/rules';
import { rule } from '../request';

export const AUTH_METHOD_TYPES = ['kubernetes', 'jwt', 'oidc', 'aws-iam'] as const;

const present = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

function required(type: string, cfg: Record<string, unknown>, keys: string[]): RuleViolation | undefined {
  for (const k of keys) {
    if (!present(cfg[k]))
      return rule(`Config.${k}`, 'required', `is required for auth methods of type "${type}"`);
  }
  return undefined;
}

function list(cfg: Record<string, unknown>, keys: string[]): RuleViolation | undefined {
  for (const k of keys) {
    const v = cfg[k];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
      return rule(`Config.${k}`, 'type', 'must be a list of strings');
  }
  return undefined;
}

export function checkAuthMethodConfig(type: string, cfg: Record<string, unknown>): RuleViolation | undefined {
  switch (type) {
    case 'kubernetes': {
      const missing = required(type, cfg, ['Host', 'CACert']);
      if (missing) return missing;
      if (typeof cfg['Host'] !== 'string' || !/^https?:\/\//.test(cfg['Host']))
        return rule(
          'Config.Host',
          'url',
          `must be an http(s) URL of the Kubernetes API; got ${JSON.stringify(cfg['Host'])}`,
        );
      if (typeof cfg['CACert'] !== 'string' || !cfg['CACert'].includes('-----BEGIN CERTIFICATE-----'))
        return rule('Config.CACert', 'pem', 'must be a PEM encoded CA certificate');
      return undefined;
    }
    case 'jwt': {
      const sources = ['JWKSURL', 'JWTValidationPubKeys', 'OIDCDiscoveryURL'].filter((k) => present(cfg[k]));
      if (sources.length !== 1)
        return rule(
          'Config',
          'jwt-key-source',
          'exactly one of JWKSURL, JWTValidationPubKeys or OIDCDiscoveryURL must be set',
        );
      return list(cfg, ['JWTValidationPubKeys', 'BoundAudiences', 'JWTSupportedAlgs']);
    }
    case 'oidc':
      return (
        required(type, cfg, [
          'OIDCDiscoveryURL',
          'OIDCClientID',
          'OIDCClientSecret',
          'AllowedRedirectURIs',
        ]) ?? list(cfg, ['AllowedRedirectURIs', 'BoundAudiences', 'OIDCScopes'])
      );
    case 'aws-iam':
      return required(type, cfg, ['BoundIAMPrincipalARNs']) ?? list(cfg, ['BoundIAMPrincipalARNs']);
    default:
      return rule(
        'Type',
        'one-of',
        `must be one of ${AUTH_METHOD_TYPES.map((t) => JSON.stringify(t)).join(', ')}; got ${JSON.stringify(type)}`,
      );
  }
}
