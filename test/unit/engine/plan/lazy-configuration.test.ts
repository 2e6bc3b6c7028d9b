/**
 * A new plan's `configuration` is built on first read: a plan printed as text never builds it, and a
 * saved plan (JSON.stringify) holds the same value under the same key, in the same place, as when it
 * was assigned at plan time.
 */
import { parseStackConfig } from '../../../../src/engine/config';
import {
  setConfigurationLazily,
  setRelevantAttributesLazily,
} from '../../../../src/engine/plan/lazy-configuration';
import { emptyPlan } from '../../../../src/engine/plan/context';
import type { PlanOptions } from '../../../../src/engine/plan/plan';
import type { StackPlan } from '../../../../src/engine/plan/types';
import { StateFile } from '../../../../src/engine/state';
import { configurationJson, type SchemaSource } from '../../../../src/engine/render/json/configuration';

const config = parseStackConfig({
  '//': { metadata: { stackName: 's', backend: 'local', version: '0.21.0' } },
  provider: { sched: [{ address: 'http://x' }] },
  resource: { sched_namespace: { team: { name: 'team-${var.suffix}' } } },
  variable: { suffix: { default: 'a' } },
});

/** Counts the schema lookups, which only building the configuration makes. */
function countingSchemas(): SchemaSource & { calls: number } {
  const s = {
    calls: 0,
    block: () => (s.calls++, { attributes: { name: { type: 'string' as const, required: true } } }),
    providerBlock: () => (s.calls++, { attributes: {} }),
    schemaVersion: () => (s.calls++, 0),
  };
  return s;
}

/** A plan as planStack starts one (emptyPlan); the providers are not read by it. */
function plan(): StackPlan {
  const opts = { stack: 's', config, configText: '{}', state: StateFile.empty({ lineage: 'l' }) };
  return { ...emptyPlan(opts as PlanOptions), createdAt: '2026-01-01T00:00:00.000Z' };
}

test('is not built until read, then built once', () => {
  const schemas = countingSchemas();
  const lazy = plan();
  setConfigurationLazily(lazy, config, schemas);
  lazy.checks = [];
  expect(schemas.calls).toBe(0);
  const first = lazy.configuration;
  const calls = schemas.calls;
  expect(calls).toBeGreaterThan(0);
  expect(lazy.configuration).toBe(first);
  expect(schemas.calls).toBe(calls);
});

test('serializes exactly as the value assigned at plan time did', () => {
  const eager = plan();
  eager.configuration = configurationJson(config, countingSchemas());
  eager.checks = [];
  const lazy = plan();
  setConfigurationLazily(lazy, config, countingSchemas());
  lazy.checks = [];
  expect(JSON.stringify(lazy, null, 1)).toBe(JSON.stringify(eager, null, 1));
  expect(Object.keys(lazy)).toEqual(Object.keys(eager));
});

test('an assignment replaces it without building it', () => {
  const schemas = countingSchemas();
  const lazy = plan();
  setConfigurationLazily(lazy, config, schemas);
  lazy.configuration = { replaced: true };
  expect(lazy.configuration).toEqual({ replaced: true });
  expect(schemas.calls).toBe(0);
});

/** Two namespaces, one read by the other: planning `reader` makes `team.name` relevant. */
const withReference = parseStackConfig({
  '//': { metadata: { stackName: 's', backend: 'local', version: '0.21.0' } },
  provider: { sched: [{ address: 'http://x' }] },
  resource: {
    sched_namespace: {
      team: { name: 'team' },
      reader: { name: 'reader', description: 'next to ${sched_namespace.team.name}' },
    },
  },
});

/** The plan of one instance of `address`, planned as `action`. */
function planning(address: string, action: 'create' | 'noop'): StackPlan {
  const p = plan();
  p.instances.push({
    address,
    resourceAddress: address,
    change: { action, prior: null, planned: null, diagnostics: [] },
  } as unknown as StackPlan['instances'][number]);
  return p;
}

test('the relevant attributes are found on first read and serialize as when assigned at plan time', () => {
  const lazy = planning('sched_namespace.reader', 'create');
  setRelevantAttributesLazily(lazy, withReference);
  lazy.checks = [];
  const eager = planning('sched_namespace.reader', 'create');
  eager.relevantAttributes = [{ resource: 'sched_namespace.team', attribute: ['name'] }];
  eager.checks = [];
  expect(JSON.stringify(lazy, null, 1)).toBe(JSON.stringify(eager, null, 1));
  expect(lazy.relevantAttributes).toEqual(eager.relevantAttributes);
  expect(Object.keys(lazy)).toEqual(Object.keys(eager));
});

test('with no relevant attribute the key is left out, as a plan at plan time left it', () => {
  const lazy = planning('sched_namespace.reader', 'noop');
  setRelevantAttributesLazily(lazy, withReference);
  lazy.checks = [];
  const eager = planning('sched_namespace.reader', 'noop');
  eager.checks = [];
  expect(JSON.stringify(lazy, null, 1)).toBe(JSON.stringify(eager, null, 1));
  expect(lazy.relevantAttributes).toBeUndefined();
  expect(Object.keys(lazy)).toEqual(Object.keys(eager));
});
