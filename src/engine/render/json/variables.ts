/**
 * The plan JSON's `variables`: each input variable's value as the plan used it. Terraform prints
 * sensitive values here too; we write null for them (the configuration says which are sensitive).
 */
import type { Json } from './types';

export function variablesJson(
  values: Record<string, unknown>,
  sensitive: readonly string[],
): Record<string, Json> {
  const hidden = new Set(sensitive);
  const out: Record<string, Json> = {};
  for (const name of Object.keys(values).sort())
    out[name] = { value: hidden.has(name) ? null : ((values[name] ?? null) as Json) };
  return out;
}
