/**
 * Resource conditions as terraform's checkable objects. Preconditions are evaluated at plan time (a
 * failure also stops the plan); postconditions only after the apply, so at plan time an instance
 * that has them is `unknown` unless a precondition already failed.
 */
import type { ConditionResult, InstanceKey, ResourceConfig } from '../config';
import { instanceAddress } from '../config';
import type { CheckInstance, CheckResult, CheckStatus, StackPlan } from './types';

const PRECEDENCE: CheckStatus[] = ['error', 'fail', 'unknown', 'pass'];

/** The status of several: error, else fail, else unknown, else pass. */
export function aggregateStatus(statuses: CheckStatus[]): CheckStatus {
  return PRECEDENCE.find((s) => statuses.includes(s)) ?? 'pass';
}

function instanceStatus(r: ResourceConfig, pre: ConditionResult | 'error'): CheckStatus {
  if (pre === 'error') return 'error';
  if (pre.failures.length > 0) return 'fail';
  if (pre.unknown > 0 || r.lifecycle.postconditions.length > 0) return 'unknown';
  return 'pass';
}

/** Records one instance's outcome of its resource's conditions (nothing when it has none). */
export function noteResourceCheck(
  plan: StackPlan,
  r: ResourceConfig,
  key: InstanceKey | undefined,
  pre: ConditionResult | 'error',
): void {
  if (r.lifecycle.preconditions.length + r.lifecycle.postconditions.length === 0) return;
  const checks = (plan.checks ??= []);
  let check = checks.find((c) => c.kind === 'resource' && c.address === r.address);
  if (!check) {
    check = {
      kind: 'resource',
      address: r.address,
      name: r.name,
      mode: r.mode,
      type: r.type,
      status: 'pass',
      instances: [],
    };
    checks.push(check);
  }
  const instance: CheckInstance = {
    address: instanceAddress(r, key),
    ...(key !== undefined ? { key } : {}),
    status: instanceStatus(r, pre),
    problems: pre === 'error' ? [] : pre.failures.map((f) => f.summary),
  };
  check.instances.push(instance);
  check.instances.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  check.status = aggregateStatus(check.instances.map((i) => i.status));
}

/** Checks in address order (instances are planned concurrently). */
export function sortChecks(checks: CheckResult[] | undefined): void {
  checks?.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** Records an output's preconditions as terraform's `output_value` checkable object. */
export function noteOutputCheck(plan: StackPlan, name: string, pre: ConditionResult | 'error'): void {
  const address = `output.${name}`;
  const status: CheckStatus =
    pre === 'error' ? 'error' : pre.failures.length > 0 ? 'fail' : pre.unknown > 0 ? 'unknown' : 'pass';
  const problems = pre === 'error' ? [] : pre.failures.map((f) => f.summary);
  (plan.checks ??= []).push({
    kind: 'output_value',
    address,
    name,
    status,
    instances: [{ address, status, problems }],
  });
}
