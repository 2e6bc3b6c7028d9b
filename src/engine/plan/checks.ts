/**
 * Resource conditions as terraform's checkable objects. Preconditions are evaluated at plan time (a
 * failure also stops the plan); postconditions only after the apply, so at plan time an instance
 * that has them is `unknown` unless a precondition already failed.
 */
import type { ConditionResult, InstanceKey, ResourceConfig } from '../config';
import { conditionStatus, instanceAddress } from '../config';
import type { CheckInstance, CheckResult, CheckStatus, StackPlan } from './types';

const PRECEDENCE: CheckStatus[] = ['error', 'fail', 'unknown', 'pass'];

/** The status of several: error, else fail, else unknown, else pass. */
export function aggregateStatus(statuses: CheckStatus[]): CheckStatus {
  return PRECEDENCE.find((s) => statuses.includes(s)) ?? 'pass';
}

/** Conditions that could not be evaluated make `error`. */
function statusOf(pre: ConditionResult | 'error'): CheckStatus {
  return pre === 'error' ? 'error' : conditionStatus(pre);
}

const problemsOf = (pre: ConditionResult | 'error'): string[] =>
  pre === 'error' ? [] : pre.failures.map((f) => f.summary);

/** Postconditions run only after the apply, so an instance that has them and passed so far is unknown. */
function instanceStatus(r: ResourceConfig, pre: ConditionResult | 'error'): CheckStatus {
  const status = statusOf(pre);
  return status === 'pass' && r.lifecycle.postconditions.length > 0 ? 'unknown' : status;
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
    problems: problemsOf(pre),
  };
  check.instances.push(instance);
  check.instances.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  check.status = aggregateStatus(check.instances.map((i) => i.status));
}

/** Checks in address order (instances are planned concurrently). */
export function sortChecks(checks: CheckResult[] | undefined): void {
  checks?.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** A checkable object that has exactly one instance: a variable, an output. */
export function singleInstanceCheck(
  kind: 'var' | 'output_value',
  address: string,
  name: string,
  status: CheckStatus,
  problems: string[],
): CheckResult {
  return { kind, address, name, status, instances: [{ address, status, problems }] };
}

/** Records an output's preconditions as terraform's `output_value` checkable object. */
export function noteOutputCheck(plan: StackPlan, name: string, pre: ConditionResult | 'error'): void {
  (plan.checks ??= []).push(
    singleInstanceCheck('output_value', `output.${name}`, name, statusOf(pre), problemsOf(pre)),
  );
}
