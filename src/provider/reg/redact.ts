/**
 * Keeps secrets out of what a handler says. The transport already strips its own ACL token from server
 * messages, but the registry may echo other secrets back (a peering token, a value of an auth method's
 * Config), and a client-side check may quote a value; every message a handler raises passes through here.
 */
import { ApiError, RequestValidationError } from '../../api/errors';
import { redactor, ResourceApplyError } from '../common/errors';
import type { State } from '../resource';
import { DiagnosticsError, formatDiagnostic, type AttrPath, type Diagnostic } from '../values';
import { isPlainObject } from './compare';

/** Mirrors common/errors: masking "a" or "true" would garble messages and hide nothing. */
const MIN_SECRET_LENGTH = 4;

export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  add(secret: string | undefined | null): void {
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) this.secrets.add(secret);
  }

  /** Every string inside a JSON value (an auth method's Config holds secrets at any depth). */
  addJson(value: unknown): void {
    if (typeof value === 'string') this.add(value);
    else if (Array.isArray(value)) value.forEach((v) => this.addJson(v));
    else if (isPlainObject(value)) Object.values(value).forEach((v) => this.addJson(v));
  }

  /**
   * A peering token and the one-time secret inside it: the token is base64 JSON, and a peer that rejects it
   * might quote the decoded secret rather than the token.
   */
  addPeeringToken(token: unknown): void {
    if (typeof token !== 'string') return;
    this.add(token);
    try {
      const decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as unknown;
      if (isPlainObject(decoded)) {
        for (const [k, v] of Object.entries(decoded))
          if (/secret/i.test(k) && typeof v === 'string') this.add(v);
      }
    } catch {
      // not base64 JSON: the token itself is masked, which is all there is to mask
    }
  }

  /** A copy that also masks what `configure` adds, for one operation. */
  with(configure: (r: Redactor) => void): Redactor {
    const copy = new Redactor(this.secrets);
    configure(copy);
    return copy;
  }

  scrub(text: string): string {
    return redactor([...this.secrets])(text);
  }
}

/** What went wrong, as the service or the client said it, without secrets. */
export function describeError(err: unknown, redactor: Redactor): string {
  if (err instanceof ApiError) return redactor.scrub(err.message);
  if (err instanceof RequestValidationError) return redactor.scrub(err.message);
  if (err instanceof DiagnosticsError) return redactor.scrub(err.message);
  if (err instanceof Error) return redactor.scrub(`${err.name}: ${err.message}`);
  return redactor.scrub(String(err));
}

/**
 * Wraps a failure of `operation` (e.g. `creating namespace "team-a"`) into a DiagnosticsError whose text is
 * scrubbed. Abort reasons pass through untouched so callers can tell a cancellation from a failure.
 */
export function failure(operation: string, err: unknown, redactor: Redactor, path?: AttrPath): Error {
  if (err instanceof DOMException && err.name === 'AbortError') return err;
  const diagnostics: Diagnostic[] =
    err instanceof DiagnosticsError
      ? err.diagnostics.map((d) => ({
          ...d,
          summary: redactor.scrub(d.summary),
          ...(d.detail !== undefined ? { detail: redactor.scrub(d.detail) } : {}),
        }))
      : [
          {
            severity: 'error',
            summary: `Error ${operation}`,
            detail: describeError(err, redactor),
            ...(path ? { path } : {}),
          },
        ];
  // No `cause`: the original error may quote a secret, and loggers walk the cause chain.
  return new DiagnosticsError(diagnostics);
}

/**
 * An apply that failed, with what exists now (`state`): a replace whose destroy went through and whose create
 * failed leaves nothing (null); a peering established but not yet ACTIVE leaves the peering. Carries the same
 * scrubbed diagnostics a DiagnosticsError would.
 */
export class RegApplyError extends ResourceApplyError {
  constructor(
    readonly diagnostics: Diagnostic[],
    state: State | null,
  ) {
    super(diagnostics.map(formatDiagnostic).join('\n'), state);
    this.name = 'RegApplyError';
  }
}

/** failure() for apply: a RegApplyError recording `state`, also when the apply was cancelled. */
export function applyFailure(
  operation: string,
  err: unknown,
  redactor: Redactor,
  state: State | null,
): RegApplyError {
  const f = failure(operation, err, redactor);
  const diagnostics: Diagnostic[] =
    f instanceof DiagnosticsError
      ? f.diagnostics
      : [{ severity: 'error', summary: `Error ${operation}`, detail: 'cancelled' }];
  return new RegApplyError(diagnostics, state);
}

/** Runs `fn`, turning any failure into a scrubbed DiagnosticsError. */
export async function guarded<T>(operation: string, redactor: Redactor, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw failure(operation, err, redactor);
  }
}
