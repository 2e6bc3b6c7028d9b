/**
 * The order stacks run in: a stack after the stacks it depends on (manifest.json's `dependencies`,
 * which cdktf records for every cross-stack reference), and for a destroy the reverse, so that
 * dependants go first and nothing is destroyed while another stack still uses it.
 */
import type { SynthesizedStack } from './config';

export function orderByDependencies(stacks: readonly SynthesizedStack[]): SynthesizedStack[] {
  const out: SynthesizedStack[] = [];
  const seen = new Set<string>();
  const visit = (s: SynthesizedStack): void => {
    if (seen.has(s.name)) return;
    seen.add(s.name);
    for (const d of s.dependencies) {
      const dep = stacks.find((x) => x.name === d);
      if (dep) visit(dep);
    }
    out.push(s);
  };
  stacks.forEach(visit);
  return out;
}

/** Dependants before what they depend on. */
export function orderForDestroy(stacks: readonly SynthesizedStack[]): SynthesizedStack[] {
  return orderByDependencies(stacks).reverse();
}
