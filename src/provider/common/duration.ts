/**
 * Duration-valued attributes ("30s", "1h30m"), as Terraform users write them. Values are compared by
 * what they mean, so "60s" and "1m" are the same setting and never show as a change.
 */
import { z } from 'zod';
import { DurationError, formatDuration, parseDuration } from '../../api/duration';

/** Milliseconds of a Go duration string, or undefined when it is not one. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return parseDuration(value);
  } catch (e) {
    if (e instanceof DurationError) return undefined;
    throw e;
  }
}

export interface DurationRule {
  /** Inclusive lower bound, ms. */
  minMs?: number;
  /** Inclusive upper bound, ms. */
  maxMs?: number;
  /** Reject "0s". */
  nonZero?: boolean;
}

/** A zod string that must be a Go duration within the given bounds. */
export function durationString(rule: DurationRule = {}): z.ZodString {
  return z.string().superRefine((v, ctx) => {
    const ms = durationMs(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be a duration such as "30s", "5m" or "1h30m"` });
      return;
    }
    if (ms < 0) ctx.addIssue({ code: 'custom', message: 'must not be negative' });
    else if (rule.nonZero && ms === 0) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
    if (rule.minMs !== undefined && ms < rule.minMs)
      ctx.addIssue({ code: 'custom', message: `must be at least ${formatDuration(rule.minMs)}` });
    if (rule.maxMs !== undefined && ms > rule.maxMs)
      ctx.addIssue({ code: 'custom', message: `must be at most ${formatDuration(rule.maxMs)}` });
  }) as unknown as z.ZodString;
}

/** True when both are durations of the same length, or both are absent. */
export function sameDuration(a: unknown, b: unknown): boolean {
  const absent = (v: unknown): boolean => v === undefined || v === null || v === '';
  if (absent(a) || absent(b)) return absent(a) && absent(b);
  const x = durationMs(a);
  const y = durationMs(b);
  return x !== undefined && x === y;
}
