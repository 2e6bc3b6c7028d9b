import type { Span } from './ast';

/**
 * A syntax or evaluation error inside one expression string. It knows where in the string it happened;
 * the config layer adds the resource address, construct path and attribute (see `ConfigError`).
 */
export class ExpressionError extends Error {
  /** The string the expression was parsed from, when known, to quote it in messages. */
  source?: string;

  constructor(
    readonly summary: string,
    readonly detail?: string,
    readonly span?: Span,
  ) {
    super(detail ? `${summary}: ${detail}` : summary);
    this.name = 'ExpressionError';
  }

  /** Attaches the source text once (the innermost caller that knows it wins). */
  withSource(source: string): this {
    if (this.source === undefined) this.source = source;
    return this;
  }

  /** `"${yamlencode(x)}"`, shortened around the failing part when the string is long. */
  snippet(): string | undefined {
    if (this.source === undefined) return undefined;
    const s = this.source;
    if (s.length <= 120 || !this.span) return s;
    const from = Math.max(0, this.span.start - 40);
    const to = Math.min(s.length, Math.max(this.span.end, this.span.start) + 40);
    return `${from > 0 ? '…' : ''}${s.slice(from, to)}${to < s.length ? '…' : ''}`;
  }
}
