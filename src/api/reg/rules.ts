/**
 * Primitive rules of the registry API (spec sections 2, 7 and 8), shared by the typed client (checked before a
 * request leaves) and the dev agent (checked when a request arrives). Each check returns a violation that names
 * the field and the rule, or undefined; callers decide whether that becomes a RequestValidationError or a 400.
 */

export interface RuleViolation {
  /** Dotted path of the offending field, e.g. `NamespaceRules[0].BindNamespace`. */
  field: string;
  /** Short machine-readable rule name, e.g. `dns-label`. */
  rule: string;
  message: string;
}

/** A DNS hostname label (RFC 1123): 1-63 letters, digits and dashes, not starting or ending with a dash. */
export const DNS_LABEL_RE = /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

/** Auth method names: letters, digits, dashes and underscores. The 128 limit is Consul's. */
export const AUTH_METHOD_NAME_RE = /^[a-zA-Z0-9_-]{1,128}$/;

export const MIN_TOKEN_TTL_MS = 60_000;
export const MAX_TOKEN_TTL_MS = 24 * 60 * 60_000;

export const TOKEN_LOCALITIES = ['', 'local', 'global'] as const;
export const MESH_GATEWAY_MODES = ['', 'none', 'local', 'remote'] as const;

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign
  'μs': 1e-3, // U+03BC Greek mu; Go accepts both
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const DURATION_PART_RE = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/**
 * Parses a Go duration string (`60s`, `1m`, `1h30m`, `1.5h`, `300ms`, `0`) to milliseconds.
 * Returns undefined when the text is not a Go duration, so callers can name the field in their own message.
 */
export function parseDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  // Go accepts a bare zero without a unit and nothing else unit-less.
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  while (rest.length > 0) {
    const m = DURATION_PART_RE.exec(rest);
    if (!m) return undefined;
    const [whole, num, unit] = m;
    total += Number(num) * (UNIT_MS[unit as string] as number);
    rest = rest.slice(whole.length);
  }
  return sign * total;
}

/**
 * Accepts what a JSON body may carry for a Go time.Duration: a duration string, or a number of nanoseconds
 * (how encoding/json writes a bare time.Duration). Returns milliseconds, or undefined when unusable.
 */
export function durationToMs(value: unknown): number | undefined {
  if (typeof value === 'string') return parseDuration(value);
  if (typeof value === 'number' && Number.isFinite(value)) return value / 1e6;
  return undefined;
}

/** Renders milliseconds the way Go's Duration.String() does (`5m0s`, `1h30m0s`, `1.5s`, `300ms`, `0s`). */
export function formatDuration(ms: number): string {
  let ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const neg = ns < 0;
  ns = Math.abs(ns);
  let out: string;
  if (ns < 1e9) {
    if (ns < 1e3) out = `${ns}ns`;
    else if (ns < 1e6) out = `${trimFraction(ns, 1e3)}µs`;
    else out = `${trimFraction(ns, 1e6)}ms`;
  } else {
    const h = Math.floor(ns / 3.6e12);
    const m = Math.floor((ns % 3.6e12) / 6e10);
    const s = trimFraction(ns % 6e10, 1e9);
    out = h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
  }
  return neg ? `-${out}` : out;
}

function trimFraction(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const frac = value % unit;
  if (frac === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
}

function violation(field: string, rule: string, message: string): RuleViolation {
  return { field, rule, message: `${field}: ${message}` };
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
    return violation(field, 'duration', `must be a duration such as "60s", "5m" or "1h30m"; got ${show(value)}`);
  }
  return undefined;
}

/**
 * MaxTokenTTL: zero (unset) is allowed except for `oidc` methods; otherwise between 1 minute and 24 hours.
 */
export function checkMaxTokenTtl(field: string, value: unknown, methodType: unknown): RuleViolation | undefined {
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

export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): RuleViolation | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    const list = allowed.map((a) => JSON.stringify(a)).join(', ');
    return violation(field, 'one-of', `must be one of ${list}; got ${show(value)}`);
  }
  return undefined;
}

/** A body Name on update is optional, but when present it must equal the name in the path. */
export function checkNameMatchesPath(field: string, bodyName: unknown, pathName: string): RuleViolation | undefined {
  if (bodyName === undefined || bodyName === null || bodyName === '') return undefined;
  if (bodyName !== pathName) {
    return violation(field, 'matches-path', `must match the name in the path ${show(pathName)}; got ${show(bodyName)}`);
  }
  return undefined;
}

/** Type is immutable: a body Type on update must equal the stored one (server side; the client cannot know it). */
export function checkTypeUnchanged(field: string, bodyType: unknown, existingType: string): RuleViolation | undefined {
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
