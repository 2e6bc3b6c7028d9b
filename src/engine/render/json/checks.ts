/**
 * The plan JSON's `checks` (terraform's internal/command/jsonchecks): one entry per checkable object
 * with its aggregate status and one instance each (a variable has exactly one). Failed instances list
 * their problems. Terraform omits the key when nothing is checkable; the caller does the same.
 */
import type { CheckResult } from '../model';
import type { Json } from './types';

function objectAddress(c: CheckResult): Record<string, Json> {
  return { kind: c.kind, name: c.name, to_display: c.address };
}

export function checkJson(c: CheckResult): Json {
  const instance: Record<string, Json> = { address: { to_display: c.address }, status: c.status };
  if (c.problems.length > 0) instance['problems'] = c.problems.map((message) => ({ message }));
  return { address: objectAddress(c), status: c.status, instances: [instance] };
}

/** The section, or undefined when there is nothing to check. */
export function checksJson(checks: CheckResult[] | undefined): Json[] | undefined {
  if (!checks || checks.length === 0) return undefined;
  return [...checks]
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    .map(checkJson);
}
