/**
 * count / for_each: turning one resource block into its instances. Both must be known at plan time;
 * Terraform refuses to guess how many objects a plan would create, and so do we.
 */
import type { EvalScope } from '../expressions/evaluate';
import { evaluate } from '../expressions/evaluate';
import { containsUnknown, isObjectValue, isUnknown, toSetArray, typeName } from '../expressions/values';
import { instanceAddress, type InstanceKey } from './address';
import { ConfigError, diagnostic, located, type DiagnosticContext } from './errors';
import { isSensitive, unmarkDeep } from '../expressions/marks';
import { sourceOf } from './json-expr';
import type { InstanceContext } from './scope';
import type { ResourceConfig } from './types';

export type Expansion =
  | { mode: 'single' }
  | { mode: 'count'; count: number }
  /** Keys in lexical order, each with its `each.value`. */
  | { mode: 'for_each'; entries: Map<string, unknown> };

function ctxOf(r: ResourceConfig, attr: string): DiagnosticContext {
  return {
    address: r.address,
    path: [attr],
    ...(r.construct.path !== undefined ? { constructPath: r.construct.path } : {}),
  };
}

/** Instance keys show in every address, so they must not come from a sensitive value (Terraform's rule). */
const SENSITIVE_FOR_EACH =
  'Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments: the sensitive value would show as a resource instance key.';

const APPLY_HINT =
  'To work around this, deploy the resources it depends on first (deploy with --target), then deploy again.';

/** Evaluates count / for_each with the stack scope. Throws ConfigError naming the resource. */
export function expandResource(r: ResourceConfig, scope: EvalScope): Expansion {
  if (r.count) {
    const ctx = ctxOf(r, 'count');
    const expr = r.count;
    // A sensitive count is allowed (as in Terraform): the number of instances does not tell the value.
    const [v] = unmarkDeep(located(ctx, () => evaluate(expr, scope), sourceOf(expr)));
    const fail = (detail: string): never => {
      throw new ConfigError([diagnostic(ctx, 'Invalid count argument', detail)]);
    };
    if (isUnknown(v)) {
      fail(
        `The "count" value depends on resource attributes that cannot be determined until apply, so the engine cannot predict how many instances will be created. ${APPLY_HINT}`,
      );
    }
    if (v === null) fail('The given "count" argument value is null. An integer is required.');
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number')
      fail(`The given "count" argument value is unsuitable: number required, but got ${typeName(v)}.`);
    if (!Number.isInteger(n))
      fail(
        `The given "count" argument value is unsuitable: a whole number is required, but got ${n as number}.`,
      );
    if ((n as number) < 0)
      fail('The given "count" argument value is unsuitable: must be greater than or equal to zero.');
    return { mode: 'count', count: n as number };
  }
  if (r.forEach) {
    const ctx = ctxOf(r, 'for_each');
    const expr = r.forEach;
    const v = located(ctx, () => evaluate(expr, scope), sourceOf(expr));
    const fail = (detail: string): never => {
      throw new ConfigError([diagnostic(ctx, 'Invalid for_each argument', detail)]);
    };
    if (isSensitive(v) || (Array.isArray(v) && v.some(isSensitive))) fail(SENSITIVE_FOR_EACH);
    if (isUnknown(v)) {
      fail(
        `The "for_each" value depends on resource attributes that cannot be determined until apply, so the engine cannot determine the full set of keys that will identify the instances of this resource. ${APPLY_HINT}`,
      );
    }
    if (v === null)
      fail('The given "for_each" argument value is null. A map, or set of strings, is allowed.');
    const entries = new Map<string, unknown>();
    if (isObjectValue(v)) {
      for (const k of Object.keys(v).sort()) entries.set(k, v[k]);
      return { mode: 'for_each', entries };
    }
    if (Array.isArray(v)) {
      // Sets and lists are both arrays here; accepting a list of strings is harmless (cdktf wraps lists in toset()).
      if (v.some((x) => isUnknown(x) || containsUnknown(x))) {
        fail(
          `The "for_each" set includes values derived from resource attributes that cannot be determined until apply, so the engine cannot determine the full set of keys. ${APPLY_HINT}`,
        );
      }
      if (v.some((x) => x === null))
        fail(
          'The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.',
        );
      const bad = v.find((x) => typeof x !== 'string');
      if (bad !== undefined) {
        fail(
          `The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a set of ${typeName(bad)} values.`,
        );
      }
      for (const k of toSetArray(v) as string[]) entries.set(k, k);
      return { mode: 'for_each', entries };
    }
    fail(
      `The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${typeName(v)}.`,
    );
  }
  return { mode: 'single' };
}

/** The instances of an expansion, in key order, with the count/each values for their scope. */
export function instancesOf(e: Expansion): InstanceContext[] {
  switch (e.mode) {
    case 'single':
      return [{ key: undefined }];
    case 'count':
      return Array.from({ length: e.count }, (_, index) => ({ key: index, count: { index } }));
    case 'for_each':
      return [...e.entries].map(([key, value]) => ({ key, each: { key, value } }));
  }
}

export function instanceKeys(e: Expansion): InstanceKey[] {
  return instancesOf(e).map((i) => i.key);
}

/** `sched_job.web[0]` for each instance. */
export function instanceAddresses(r: ResourceConfig, e: Expansion): string[] {
  return instanceKeys(e).map((k) => instanceAddress(r, k));
}
