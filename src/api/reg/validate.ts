/**
 * Request-level rules of the registry API, composed from ./rules. They take `unknown` bodies so the dev agent
 * can run them on what arrived over the wire, and the client on what its caller built. An empty list means
 * the request passes the rules the spec states; type checking is the schemas' job.
 */
import {
  MESH_GATEWAY_MODES,
  TOKEN_LOCALITIES,
  checkAclLink,
  checkAuthMethodName,
  checkDnsLabel,
  checkDuration,
  checkMaxTokenTtl,
  checkNameMatchesPath,
  checkOneOf,
  checkRequired,
  type RuleViolation,
} from './rules';

type Body = Record<string, unknown>;

function asBody(value: unknown): Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : {};
}

function compact(list: Array<RuleViolation | undefined>): RuleViolation[] {
  return list.filter((v): v is RuleViolation => v !== undefined);
}

function checkConfigMap(field: string, value: unknown): RuleViolation | undefined {
  const missing = checkRequired(field, value);
  if (missing) return missing;
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { field, rule: 'object', detail: 'must be an object', message: `${field}: must be an object` };
  }
  return undefined;
}

function authMethodCommon(body: Body, methodType: unknown): Array<RuleViolation | undefined> {
  const out: Array<RuleViolation | undefined> = [
    checkConfigMap('Config', body['Config']),
    checkMaxTokenTtl('MaxTokenTTL', body['MaxTokenTTL'], methodType),
    checkOneOf('TokenLocality', body['TokenLocality'], TOKEN_LOCALITIES),
  ];
  const rules = body['NamespaceRules'];
  if (Array.isArray(rules)) {
    rules.forEach((rule, i) => {
      out.push(checkRequired(`NamespaceRules[${i}].BindNamespace`, asBody(rule)['BindNamespace']));
    });
  }
  return out;
}

export function validateAuthMethodCreate(input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkRequired('Name', body['Name']) ?? checkAuthMethodName('Name', body['Name']),
    checkRequired('Type', body['Type']),
    ...authMethodCommon(body, body['Type']),
  ]);
}

/**
 * On update Type may be omitted (the server fills it from the stored method), so the oidc-nonzero rule can only
 * be checked here when Type is in the body; the server checks it against the stored Type otherwise.
 */
export function validateAuthMethodUpdate(pathName: string, input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkAuthMethodName('name', pathName),
    checkNameMatchesPath('Name', body['Name'], pathName),
    ...authMethodCommon(body, body['Type']),
  ]);
}

function namespaceCommon(body: Body): Array<RuleViolation | undefined> {
  const out: Array<RuleViolation | undefined> = [];
  const acls = asBody(body['ACLs']);
  for (const key of ['PolicyDefaults', 'RoleDefaults']) {
    const links = acls[key];
    if (Array.isArray(links)) links.forEach((l, i) => out.push(checkAclLink(`ACLs.${key}[${i}]`, l)));
  }
  return out;
}

export function validateNamespaceCreate(input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkRequired('Name', body['Name']) ?? checkDnsLabel('Name', body['Name']),
    ...namespaceCommon(body),
  ]);
}

export function validateNamespaceUpdate(pathName: string, input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkDnsLabel('name', pathName),
    checkNameMatchesPath('Name', body['Name'], pathName),
    ...namespaceCommon(body),
  ]);
}

export function validatePeeringGenerateToken(input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkRequired('PeerName', body['PeerName']) ?? checkDnsLabel('PeerName', body['PeerName']),
  ]);
}

export function validatePeeringEstablish(input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkRequired('PeerName', body['PeerName']) ?? checkDnsLabel('PeerName', body['PeerName']),
    checkRequired('PeeringToken', body['PeeringToken']),
  ]);
}

export function validateDiscoveryChainOverrides(input: unknown): RuleViolation[] {
  const body = asBody(input);
  return compact([
    checkDuration('OverrideConnectTimeout', body['OverrideConnectTimeout']),
    checkOneOf('OverrideMeshGateway.Mode', asBody(body['OverrideMeshGateway'])['Mode'], MESH_GATEWAY_MODES),
  ]);
}

/** True when the overrides change anything; Consul only POSTs then, and an all-empty body is a plain GET. */
export function hasDiscoveryChainOverrides(input: unknown): boolean {
  const body = asBody(input);
  const mode = asBody(body['OverrideMeshGateway'])['Mode'];
  const timeout = body['OverrideConnectTimeout'];
  return (
    (typeof mode === 'string' && mode !== '') ||
    (typeof body['OverrideProtocol'] === 'string' && body['OverrideProtocol'] !== '') ||
    (typeof timeout === 'string' && timeout !== '' && timeout !== '0') ||
    (typeof timeout === 'number' && timeout !== 0)
  );
}

function rule(field: string, name: string, detail: string): RuleViolation {
  return { field, rule: name, detail, message: `${field}: ${detail}` };
}

/**
 * The rules Consul applies to the config entries that feed the discovery chain, as far as they are cheap to
 * state: a name, the fixed proxy-defaults name, splitter weights adding up to 100, one path match per route.
 */
export function validateConfigEntry(input: unknown): RuleViolation[] {
  const body = asBody(input);
  const out: Array<RuleViolation | undefined> = [
    checkRequired('Kind', body['Kind']),
    checkRequired('Name', body['Name']),
  ];
  const kind = body['Kind'];
  if (kind === 'proxy-defaults' && body['Name'] !== undefined && body['Name'] !== 'global') {
    out.push(rule('Name', 'proxy-defaults-name', 'must be "global" for a proxy-defaults entry'));
  }
  if (kind === 'service-splitter') {
    const splits = body['Splits'];
    if (!Array.isArray(splits) || splits.length === 0) {
      out.push(rule('Splits', 'required', 'must have at least one split'));
    } else {
      // Consul compares in hundredths of a percent so 33.33 + 33.33 + 33.34 adds up exactly.
      const total = splits.reduce<number>(
        (sum, s) => sum + Math.round(Number(asBody(s)['Weight'] ?? 0) * 100),
        0,
      );
      if (total !== 10000)
        out.push(rule('Splits', 'weights-sum', `weights must add up to 100; got ${total / 100}`));
    }
  }
  if (kind === 'service-router' && Array.isArray(body['Routes'])) {
    body['Routes'].forEach((route, i) => {
      const http = asBody(asBody(asBody(route)['Match'])['HTTP']);
      const field = `Routes[${i}].Match.HTTP`;
      const set = ['PathExact', 'PathPrefix', 'PathRegex'].filter(
        (k) => typeof http[k] === 'string' && http[k] !== '',
      );
      if (set.length > 1)
        out.push(rule(field, 'one-path-match', `at most one of ${set.join(', ')} may be set`));
      for (const k of ['PathExact', 'PathPrefix']) {
        const v = http[k];
        if (typeof v === 'string' && v !== '' && !v.startsWith('/')) {
          out.push(rule(`${field}.${k}`, 'leading-slash', `must begin with "/"; got ${JSON.stringify(v)}`));
        }
      }
    });
  }
  return compact(out);
}
