/**
 * Synth-time validation of construct props with the provider's own rules: the resource handler's
 * `validate()` (its zod shape plus cross-field checks) runs on the attributes the construct will
 * synthesize, with cdktf tokens standing in as UNKNOWN values, exactly as the engine will call it at
 * plan time. Messages name the prop as the user wrote it (camelCase) and the rule; cdktf prefixes them
 * with the construct path. Handlers never quote values, so sensitive ones stay out of the messages.
 */
import { Tokenization } from 'cdktf';
import type { IConstruct } from 'constructs';
import type { z } from 'zod';
import type { Config } from '../src/provider/resource';
import { UNKNOWN, type Diagnostic } from '../src/provider/values';
import { handlersOf, type ValidatingProvider } from './handlers';
import { isToken } from './spec-rules';

/** Attribute values as a handler sees them: tokens become UNKNOWN, unset attributes disappear. */
export function asHandlerValue(v: unknown): unknown {
  if (isToken(v)) return UNKNOWN;
  if (v !== null && typeof v === 'object') {
    if (Tokenization.isResolvable(v)) return UNKNOWN;
    if (Array.isArray(v)) return v.map(asHandlerValue);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = asHandlerValue(x);
    return out;
  }
  return v;
}

/** cdktf's property name for a Terraform attribute (`hcl2_vars` -> `hcl2Vars`). */
export function camelName(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType): Def => (s as unknown as { def: Def }).def;

function unwrap(s: z.ZodType | undefined): z.ZodType | undefined {
  let cur = s;
  while (cur) {
    const def = defOf(cur);
    if (
      ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type) &&
      def.innerType
    ) {
      cur = def.innerType;
    } else if (def.type === 'pipe') {
      cur = (def as unknown as { in: z.ZodType }).in;
    } else return cur;
  }
  return cur;
}

/** `namespaceRule[0].bindNamespace`: attribute and block names in camelCase, map keys as written. */
export function propPath(shape: Record<string, z.ZodType>, path: readonly (string | number)[]): string {
  let out = '';
  let schema: z.ZodType | undefined;
  let fields: Record<string, z.ZodType> | undefined = shape;
  for (const seg of path) {
    if (typeof seg === 'number') {
      out += `[${seg}]`;
      schema = schema ? unwrap(defOf(schema).element) : undefined;
    } else if (fields && seg in fields) {
      out += out ? `.${camelName(seg)}` : camelName(seg);
      schema = unwrap(fields[seg]);
    } else {
      out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(seg) && !out ? seg : `[${JSON.stringify(seg)}]`;
      schema = undefined;
    }
    const def = schema ? defOf(schema) : undefined;
    fields = def?.type === 'object' ? def.shape : undefined;
    if (def?.type === 'array') {
      const el = unwrap(def.element);
      const elDef = el ? defOf(el) : undefined;
      if (elDef?.type === 'object') fields = elDef.shape;
    }
  }
  return out;
}

/** "prop: rule" for each error diagnostic. */
export function diagnosticMessages(
  shape: Record<string, z.ZodType>,
  diagnostics: readonly Diagnostic[],
): string[] {
  return diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const rule = d.detail ?? d.summary;
      return d.path && d.path.length > 0 ? `${propPath(shape, d.path)}: ${rule}` : rule;
    });
}

export interface ValidatedResource {
  readonly provider: ValidatingProvider;
  readonly typeName: string;
  /** The snake_case attributes the resource synthesizes (tokens included). */
  attributes(): Record<string, unknown>;
}

/** Adds a synth-time validation running the handler's rules on the resource's attributes. */
export function addHandlerValidation(scope: IConstruct, r: ValidatedResource): void {
  scope.node.addValidation({
    validate: () => {
      const handler = handlersOf(r.provider).resources[r.typeName];
      if (!handler) return [`no handler for ${r.typeName} in the ${r.provider} provider`];
      const config = asHandlerValue(r.attributes()) as Config;
      return diagnosticMessages(handler.shape, handler.validate(config));
    },
  });
}
