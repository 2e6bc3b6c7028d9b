/**
 * Configuration diagnostics: the provider's Diagnostic plus where in the user's program the problem
 * is (the block address and the construct path cdktf recorded), so a message reads
 * `sched_job.web (stack/web), attribute jobspec: Call to unknown function "yamlencode"`.
 */
import { formatPath, type AttrPath, type Diagnostic } from '../../provider/values';
import { ExpressionError } from '../expressions/errors';

export interface ConfigDiagnostic extends Diagnostic {
  /** Block address: `sched_job.web`, `sched_job.web[0]`, `data.x.y`, `var.n`, `local.x`, `output.o`, `provider.sched`. */
  address?: string;
  /** cdktf construct path, e.g. "stack/web". */
  constructPath?: string;
  /** The expression text involved (shortened), when there is one. */
  expression?: string;
}

/** Where a diagnostic is: block address, construct path and attribute path. */
export interface DiagnosticContext {
  address?: string;
  constructPath?: string;
  path?: AttrPath;
}

export function formatConfigDiagnostic(d: ConfigDiagnostic): string {
  const where: string[] = [];
  if (d.address) where.push(d.constructPath ? `${d.address} (${d.constructPath})` : d.address);
  else if (d.constructPath) where.push(d.constructPath);
  if (d.path && d.path.length > 0) where.push(`attribute ${formatPath(d.path)}`);
  const head = where.length ? `${where.join(', ')}: ` : '';
  const detail = d.detail ? `: ${d.detail.replace(/\.$/, '')}` : '';
  const expr = d.expression !== undefined ? ` (in ${JSON.stringify(d.expression)})` : '';
  return `${d.severity === 'warning' ? 'Warning: ' : ''}${head}${d.summary}${detail}${expr}`;
}

export class ConfigError extends Error {
  constructor(readonly diagnostics: ConfigDiagnostic[]) {
    super(
      diagnostics
        .filter((d) => d.severity === 'error')
        .map(formatConfigDiagnostic)
        .join('\n'),
    );
    this.name = 'ConfigError';
  }
}

export function diagnostic(ctx: DiagnosticContext, summary: string, detail?: string): ConfigDiagnostic {
  return {
    severity: 'error',
    summary,
    ...(detail !== undefined ? { detail } : {}),
    ...(ctx.address !== undefined ? { address: ctx.address } : {}),
    ...(ctx.constructPath !== undefined ? { constructPath: ctx.constructPath } : {}),
    ...(ctx.path !== undefined && ctx.path.length > 0 ? { path: ctx.path } : {}),
  };
}

/** Turns an ExpressionError (or anything thrown while evaluating) into a located diagnostic. */
export function diagnosticFromError(ctx: DiagnosticContext, e: unknown, source?: string): ConfigDiagnostic {
  if (e instanceof ConfigError && e.diagnostics[0]) return e.diagnostics[0];
  if (e instanceof ExpressionError) {
    if (source !== undefined) e.withSource(source);
    const d = diagnostic(ctx, e.summary, e.detail);
    const snippet = e.snippet();
    if (snippet !== undefined) d.expression = snippet;
    return d;
  }
  return diagnostic(ctx, e instanceof Error ? e.message : String(e));
}

/** Runs `fn`, rethrowing any expression failure as a ConfigError located at `ctx`. */
export function located<T>(ctx: DiagnosticContext, fn: () => T, source?: string): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    if (e instanceof ExpressionError) throw new ConfigError([diagnosticFromError(ctx, e, source)]);
    throw e;
  }
}
