/**
 * Primitive rules of the registry API (spec sections 2, 7 and 8), shared by the typed client (checked before a
 * request leaves) and the dev agent (checked when a request arrives). Each check returns a violation that names
 * the field and the rule, or undefined; callers decide whether that becomes a RequestValidationError or a 400.
 */

import { DurationError, formatDuration, nsToMs, parseDuration } from '../duration';

export interface RuleViolation {
  /** Dotted path of the offending field, e.g. `NamespaceRules[0].BindNamespace`. */
  field: string;
  /** Short machine-readable rule name, e.g. `dns-label`. */
  rule: string;
  /** What the rule demands, without the field name (`must be a valid DNS hostname label ...`). */
  detail: string;
  /** `<field>: <detail>`, ready to show. */
  message: string;
}

/** A DNS hostname label (RFC 1123): 1-63 letters, digits and dashes, not starting or ending with a dash. */
export const DNS_LABEL_RE = /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

/** Auth method names: letters, digits, dashes and underscores. The 128 limit is Consul's. */
export const AUTH_METHOD_NAME_RE = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * Service names (config entries, the discovery chain): letters, digits, dots, dashes and underscores,
 * starting with a letter or digit, at most 256 (Consul's service identity limit). Consul's catalog
 * takes more, but it only warns that other names cannot be found through DNS; here a `:` or `/` would
 * also change which ACL capability or URL path the name stands for.
 */
export const SERVICE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;

export const MIN_TOKEN_TTL_MS = 60_000;
export const MAX_TOKEN_TTL_MS = 24 * 60 * 60_000;

export const TOKEN_LOCALITIES = ['', 'local', 'global'] as const;
export const MESH_GATEWAY_MODES = ['', 'none', 'local', 'remote'] as const;

/**
 * Parses a Go duration string (`60s`, `1m`, `1h30m`, `1.5h`, `300ms`, `0`) to milliseconds.
 * Returns undefined instead of throwing, so callers can name the field in their own message.
 */
export function parseDurationMs(text: string): number | undefined {
  try {
    return parseDuration(text);
  } catch (err) {
    if (err instanceof DurationError) return undefined;
    throw err;
  }
}

/**
 * Accepts what a JSON body may carry for a Go time.Duration: a duration string, or a number of nanoseconds
 * (how encoding/json writes a bare time.Duration). Returns milliseconds, or undefined when unusable.
 */
export function durationToMs(value: unknown): number | undefined {
  if (typeof value === 'string') return parseDurationMs(value);
  if (typeof value === 'number' && Number.isFinite(value)) return nsToMs(value);
  return undefined;
}

function violation(field: string, rule: string, detail: string): RuleViolation {
  return { field, rule, detail, message: `${field}: ${detail}` };
}

export function checkRequired(field: string, value: unknown): RuleViolation | undefined {
  if (value === undefined || value === null || value === '') {
    return violation(field, 'required', 'is required');
  }
  return undefined;
}

export function checkDnsLabel(field: string, value: unknown): RuleViolation | undefined {
  if (typeof value !== 'string' || !DNS_LABEL_RE.test(value)) {
    return violation(
      field,
      'dns-label',
      `must be a valid DNS hostname label (1-63 letters, digits or dashes, not starting or ending with a dash); got ${show(value)}`,
    );
  }
  return undefined;
}

export function checkServiceName(field: string, value: unknown): RuleViolation | undefined {
  if (typeof value !== 'string' || !SERVICE_NAME_RE.test(value)) {
    return violation(
      field,
      'service-name',
      `must be 1-256 letters, digits, dots, dashes or underscores, starting with a letter or digit; got ${show(value)}`,
    );
  }
  return undefined;
}

export function checkAuthMethodName(field: string, value: unknown): RuleViolation | undefined {
  if (typeof value !== 'string' || !AUTH_METHOD_NAME_RE.test(value)) {
    return violation(
      field,
      'auth-method-name',
      `must be 1-128 letters, digits, dashes or underscores; got ${show(value)}`,
    );
  }
  return undefined;
}

export function checkDuration(field: string, value: unknown): RuleViolation | undefined {
  if (value === undefined || value === null) return undefined;
  if (durationToMs(value) === undefined) {
    return violation(
      field,
      'duration',
      `must be a duration such as "60s", "5m" or "1h30m"; got ${show(value)}`,
    );
  }
  return undefined;
}

/**
 * MaxTokenTTL: zero (unset) is allowed except for `oidc` methods; otherwise between 1 minute and 24 hours.
 */
export function checkMaxTokenTtl(
  field: string,
  value: unknown,
  methodType: unknown,
): RuleViolation | undefined {
  const bad = checkDuration(field, value);
  if (bad) return bad;
  const ms = value === undefined || value === null ? 0 : (durationToMs(value) as number);
  if (ms === 0) {
    if (methodType === 'oidc') {
      return violation(field, 'oidc-nonzero', 'must be nonzero when Type is "oidc"');
    }
    return undefined;
  }
  if (ms < MIN_TOKEN_TTL_MS || ms > MAX_TOKEN_TTL_MS) {
    return violation(
      field,
      'token-ttl-bounds',
      `must be at least ${formatDuration(MIN_TOKEN_TTL_MS)} and at most ${formatDuration(MAX_TOKEN_TTL_MS)}; got ${show(value)}`,
    );
  }
  return undefined;
}

export function checkOneOf(
  field: string,
  value: unknown,
  allowed: readonly string[],
): RuleViolation | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    const list = allowed.map((a) => JSON.stringify(a)).join(', ');
    return violation(field, 'one-of', `must be one of ${list}; got ${show(value)}`);
  }
  return undefined;
}

/** A body Name on update is optional, but when present it must equal the name in the path. */
export function checkNameMatchesPath(
  field: string,
  bodyName: unknown,
  pathName: string,
): RuleViolation | undefined {
  if (bodyName === undefined || bodyName === null || bodyName === '') return undefined;
  if (bodyName !== pathName) {
    return violation(
      field,
      'matches-path',
      `must match the name in the path ${show(pathName)}; got ${show(bodyName)}`,
    );
  }
  return undefined;
}

/** Type is immutable: a body Type on update must equal the stored one (server side; the client cannot know it). */
export function checkTypeUnchanged(
  field: string,
  bodyType: unknown,
  existingType: string,
): RuleViolation | undefined {
  if (bodyType === undefined || bodyType === null || bodyType === '') return undefined;
  if (bodyType !== existingType) {
    return violation(field, 'immutable', `cannot change from ${show(existingType)} to ${show(bodyType)}`);
  }
  return undefined;
}

/** An ACLLink must identify its policy or role by ID or by Name. */
export function checkAclLink(field: string, link: unknown): RuleViolation | undefined {
  const l = (typeof link === 'object' && link !== null ? link : {}) as { ID?: unknown; Name?: unknown };
  if ((typeof l.ID !== 'string' || l.ID === '') && (typeof l.Name !== 'string' || l.Name === '')) {
    return violation(field, 'acl-link', 'must have an ID or a Name');
  }
  return undefined;
}

export interface TokenSources {
  /** `Token` in the request body (peering endpoints only). */
  body?: string | null;
  /** `token` query parameter. */
  query?: string | null;
  /** `X-Reg-Token` header. */
  header?: string | null;
  /** `REG_HTTP_TOKEN` environment variable. */
  env?: string | null;
}

/** Spec section 5: body `Token`, then `token` query, then the header, then the environment. Empty means absent. */
export function resolveRequestToken(sources: TokenSources): string | undefined {
  for (const t of [sources.body, sources.query, sources.header, sources.env]) {
    if (typeof t === 'string' && t !== '') return t;
  }
  return undefined;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
