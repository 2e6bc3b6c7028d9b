/**
 * Errors handlers raise at apply time, and the redaction every message goes through before it leaves a
 * handler (errors, diagnostics, progress): server text can echo what a user put in a job or a request,
 * secrets included.
 */
import { ConnectionError, RequestTimeoutError } from '../../api/errors';
import type { State } from '../resource';

/**
 * An apply that failed after it changed something. `state` is what exists now and must be recorded
 * (e.g. a job that was registered but whose deployment failed, or that was rolled back), so the next
 * plan starts from the truth; null when nothing exists. Engines that only know plain errors keep the
 * prior state, which is safe but may plan a create for an object that exists.
 */
export class ResourceApplyError extends Error {
  constructor(
    message: string,
    readonly state: State | null,
  ) {
    super(message);
    this.name = 'ResourceApplyError';
  }
}

export type Redact = (text: string) => string;

const MIN_SECRET_LENGTH = 4;

/** A function that replaces every occurrence of the given secrets with "[redacted]". */
export function redactor(secrets: ReadonlyArray<string | undefined | null>): Redact {
  const list = [...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH))];
  // Longest first, so a secret that contains another is replaced whole.
  list.sort((a, b) => b.length - a.length);
  if (list.length === 0) return (t) => t;
  return (text) => {
    let out = text;
    for (const s of list) out = out.split(s).join('[redacted]');
    return out;
  };
}

/** True for failures to reach the service at all (as opposed to an answer saying no). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof ConnectionError || err instanceof RequestTimeoutError;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
