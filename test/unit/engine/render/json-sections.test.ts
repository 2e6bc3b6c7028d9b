/**
 * The plan JSON's configuration and checks sections and relevant_attributes, on parsed configurations
 * (the comparison with terraform itself is test/e2e/terraform/plan-json-parity.test.ts).
 */
import { ConfigError, parseStackConfig, type StackConfig } from '../../../../src/engine/config';
import { relevantAttributes } from '../../../../src/engine/plan/relevant';
import type { InstancePlan, StackPlan } from '../../../../src/engine/plan/types';
import { checksJson } from '../../../../src/engine/render/json/checks';
import { configurationJson, type SchemaSource } from '../../../../src/engine/render/json/configuration';

function parse(doc: Record<string, unknown>): StackConfig {
  return parseStackConfig({
    '//': { metadata: { stackName: 's', backend: 'local', version: '0.21.0' } },
    provider: { sched: [{ token: 'provider-secret', address: 'http://x' }] },
    terraform: { required_providers: { sched: { source: 'cdktf-sched/sched', version: '>= 1.0' } } },
    ...doc,
  });
}

const schemas: SchemaSource = {
  block: (_p, type) =>
    type === 'sched_job'
      ? {
          attributes: { token: { type: 'string', optional: true, sensitive: true } },
          block_types: {
            group: { nesting_mode: 'list', block: { attributes: {} } },
            update: { nesting_mode: 'single', block: { attributes: {} } },
          },
        }
      : undefined,
  providerBlock: () => ({ attributes: { token: { type: 'string', optional: true, sensitive: true } } }),
  schemaVersion: () => 2,
};

test('check blocks are refused by name, not ignored', () => {
  expect(() => parse({ check: { health: {} } })).toThrow(ConfigError);
  expect(() => parse({ check: { health: {} } })).toThrow(/check blocks .* not supported/);
});

test('configuration: nested blocks by schema, count and for_each, index references, sensitive literals', () => {
  const config = parse({
    locals: { n: 2 },
    resource: {
      sched_job: {
        web: {
          count: '${local.n}',
          token: 'literal-secret',
          group: [{ name: 'a', count: 3, size: '${sched_job.db["x"].id}' }],
          update: { max: 1 },
        },
        db: { for_each: { x: 1 }, token: '${each.key}' },
      },
    },
  });
  const doc = configurationJson(config, schemas) as {
    provider_config: Record<string, unknown>;
    root_module: { resources: Record<string, unknown>[] };
  };
  expect(doc.provider_config['sched']).toEqual({
    name: 'sched',
    full_name: 'registry.terraform.io/cdktf-sched/sched',
    version_constraint: '>= 1.0',
    expressions: { address: { constant_value: 'http://x' }, token: {} },
  });
  const [db, web] = doc.root_module.resources;
  expect(db).toMatchObject({
    address: 'sched_job.db',
    schema_version: 2,
    for_each_expression: { constant_value: { x: 1 } },
    expressions: { token: { constant_value: '${each.key}', references: ['each.key'] } },
  });
  expect(web).toMatchObject({
    count_expression: { constant_value: '${local.n}', references: ['local.n'] },
    expressions: {
      token: {},
      group: [
        {
          name: { constant_value: 'a' },
          count: { constant_value: 3 },
          size: {
            references: ['sched_job.db["x"].id', 'sched_job.db["x"]', 'sched_job.db'],
          },
        },
      ],
      update: { max: { constant_value: 1 } },
    },
  });
  expect(JSON.stringify(doc)).not.toContain('literal-secret');
  expect(JSON.stringify(doc)).not.toContain('provider-secret');
});

function changing(address: string): InstancePlan {
  return {
    address,
    resourceAddress: address,
    change: { action: 'update' },
    orphan: false,
  } as unknown as InstancePlan;
}

test('relevant_attributes follow locals and the resources a change reads, transitively', () => {
  const config = parse({
    locals: { d: '${sched_namespace.a.description}' },
    resource: {
      sched_namespace: {
        a: { name: 'a', description: '${sched_namespace.root.meta["k"]}' },
        root: { name: 'root' },
        b: { name: 'b', description: '${local.d}' },
      },
    },
  });
  const plan = { instances: [changing('sched_namespace.b')] } as unknown as StackPlan;
  expect(relevantAttributes(config, plan)).toEqual([
    { resource: 'sched_namespace.a', attribute: ['description'] },
    { resource: 'sched_namespace.root', attribute: ['meta', 'k'] },
  ]);
  expect(relevantAttributes(config, { instances: [] } as unknown as StackPlan)).toEqual([]);
});

test('checks: terraform omits the key when nothing is checkable; a failure lists its problems', () => {
  expect(checksJson(undefined)).toBeUndefined();
  expect(checksJson([])).toBeUndefined();
  expect(
    checksJson([
      {
        kind: 'var',
        address: 'var.x',
        name: 'x',
        status: 'fail',
        instances: [{ address: 'var.x', status: 'fail', problems: ['too short'] }],
      },
    ]),
  ).toEqual([
    {
      address: { kind: 'var', name: 'x', to_display: 'var.x' },
      status: 'fail',
      instances: [{ address: { to_display: 'var.x' }, status: 'fail', problems: [{ message: 'too short' }] }],
    },
  ]);
});
