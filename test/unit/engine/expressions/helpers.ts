import { evaluate, parseTemplate, type EvalScope } from '../../../../src/engine/expressions';

/** A scope over plain maps; resources are looked up by address (`sched_job.web`, `data.x.y`). */
export function scopeOf(parts: {
  vars?: Record<string, unknown>;
  locals?: Record<string, unknown>;
  resources?: Record<string, unknown>;
  count?: { index: number };
  each?: { key: string; value: unknown };
  self?: unknown;
}): EvalScope {
  return {
    resolveReference: (ref) =>
      parts.resources?.[`${ref.mode === 'data' ? 'data.' : ''}${ref.type}.${ref.name}`],
    variable: (n) => parts.vars?.[n],
    local: (n) => parts.locals?.[n],
    ...(parts.count ? { count: parts.count } : {}),
    ...(parts.each ? { each: parts.each } : {}),
    ...(parts.self !== undefined ? { self: parts.self } : {}),
  };
}

/** Evaluates one JSON string value the way the engine does. */
export function ev(text: string, scope: EvalScope = scopeOf({})): unknown {
  return evaluate(parseTemplate(text), scope);
}
