/** Secret values of a plan (sensitive attributes), so progress lines and errors can scrub them. */
import type { StackPlan } from '../engine/plan/types';

export function collectSecretsOfPlan(plan: StackPlan): string[] {
  const out = new Set<string>();
  const add = (v: unknown): void => {
    if (typeof v === 'string' && v.length >= 4) out.add(v);
    else if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') Object.values(v).forEach(add);
  };
  for (const ip of plan.instances) {
    for (const k of ip.sensitive) {
      add(ip.change.prior?.[k]);
      add(ip.change.planned?.[k]);
    }
  }
  return [...out];
}
