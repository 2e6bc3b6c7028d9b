/**
 * The plan JSON's `checks` (terraform's internal/command/jsonchecks): one entry per checkable object
 * with its aggregate status and one instance each (a variable has exactly one). Failed instances list
 * their problems. Terraform omits the key when nothing is checkable; the caller does the same.
 */
import type { CheckInstance, CheckResult } from '../model';
import type { Json } from './types';

function objectAddress(c: CheckResult): Record<string, Json> {
  if (c.kind === 'resource')
    return {
      kind: c.kind,
      mode: c.mode ?? 'managed',
      type: c.type ?? '',
      name: c.name,
      to_display: c.address,
    };
  return { kind: c.kind, name: c.name, to_display: c.address };
}

function instanceJson(i: CheckInstance): Json {
  const out: Record<string, Json> = {
    address: { to_display: i.address, ...(i.key !== undefined ? { instance_key: i.key } : {}) },
    status: i.status,
  };
  if (i.problems.length > 0) out['problems'] = i.problems.map((message) => ({ message }));
  return out;
}

export function checkJson(c: CheckResult): Json {
  return { address: objectAddress(c), status: c.status, instances: c.instances.map(instanceJson) };
}

/** The section, or undefined when there is nothing to check. */
export function checksJson(checks: CheckResult[] | undefined): Json[] | undefined {
  if (!checks || checks.length === 0) return undefined;
  return [...checks]
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    .map(checkJson);
}
