import path from 'node:path';
import {
  assembleResourceValue,
  checkPostconditions,
  checkPreconditions,
  ConfigError,
  createStackScope,
  evaluateOutput,
  evaluateProviderConfig,
  evaluateReplaceTriggers,
  evaluateResourceConfig,
  expandResource,
  instanceAddresses,
  instancesOf,
  isIgnoredChange,
  loadStackConfig,
  parseStackConfig,
  resolveVariables,
  type StackConfig,
} from '../../../../src/engine/config';
import { UNKNOWN, isUnknown } from '../../../../src/engine/expressions';

const FIXTURE = path.join(__dirname, 'fixtures', 'web-stack.cdk.tf.json');

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('input variables', () => {
  let config: StackConfig;
  beforeAll(async () => {
    config = await loadStackConfig(FIXTURE);
  });

  it('applies defaults and converts raw strings by type', () => {
    const { values, diagnostics } = resolveVariables(config, {
      raw: {
        token: 'secret',
        replicas: '3',
        namespaces: '["x", "y"]',
        services: '[{ name = "a", port = "81" }]',
      },
    });
    expect(values).toMatchObject({
      token: 'secret',
      replicas: 3,
      namespaces: ['x', 'y'],
      services: [{ name: 'a', port: 81 }],
      owner: 'platform',
    });
    expect(diagnostics).toEqual([]);
  });

  it('prefers typed values over raw strings and warns about undeclared inputs', () => {
    const { values, diagnostics } = resolveVariables(config, {
      values: { token: 'typed', extra: 1 },
      raw: { token: 'raw' },
    });
    expect(values['token']).toBe('typed');
    expect(diagnostics.map((d) => [d.severity, d.summary])).toEqual([
      ['warning', 'Value for undeclared variable'],
    ]);
    expect(() =>
      resolveVariables(config, { values: { token: 'typed', extra: 1 } }, { undeclared: 'error' }),
    ).toThrow(/undeclared variable/);
  });

  it('reports missing, mistyped, non-nullable and invalid values together', () => {
    expect(message(() => resolveVariables(config, {}))).toMatch(/var\.token: No value for required variable/);
    expect(message(() => resolveVariables(config, { raw: { token: 'abcd', replicas: 'many' } }))).toBe(
      'var.replicas: Invalid value for variable: cannot convert "many" to number; given string must be a decimal representation of a number (the variable\'s type is number)',
    );
    expect(message(() => resolveVariables(config, { values: { token: null } }))).toMatch(
      /not nullable, but null was given/,
    );
    expect(message(() => resolveVariables(config, { raw: { token: 'ab' } }))).toBe(
      'var.token: Invalid value for variable: The token must be longer than 3 characters',
    );
  });
});

describe('count and for_each expansion', () => {
  let config: StackConfig;
  let scope: ReturnType<typeof createStackScope>;
  beforeAll(async () => {
    config = await loadStackConfig(FIXTURE);
    scope = createStackScope({
      config,
      variables: resolveVariables(config, { raw: { token: 'secret' } }).values,
    });
  });

  it('expands count into indexed instances with count.index in scope', () => {
    const web = config.resources.get('sched_job.web')!;
    const exp = expandResource(web, scope);
    expect(exp).toEqual({ mode: 'count', count: 2 });
    expect(instanceAddresses(web, exp)).toEqual(['sched_job.web[0]', 'sched_job.web[1]']);
    const ns = { name: 'web-ns', id: 'ns-1' };
    const known = createStackScope({
      config,
      variables: resolveVariables(config, { raw: { token: 'secret' } }).values,
      resolveReference: (ref) => (ref.name === 'ns' ? ns : UNKNOWN),
    });
    const cfg = evaluateResourceConfig(web, known, instancesOf(exp)[1]);
    expect(JSON.parse(cfg['jobspec'] as string)).toEqual({ ID: 'web-1', Namespace: 'web-ns', Priority: 12 });
    expect(cfg).toMatchObject({
      detach: false,
      purge_on_destroy: false,
      namespace: 'web-ns',
      meta: { look: 1, raw: '${not_interpolated}', owner: 'platform' },
    });
  });

  it('expands for_each over a set of strings and over a map built by a for expression', () => {
    const each = config.resources.get('sched_namespace.each')!;
    const exp = expandResource(each, scope);
    expect(instanceAddresses(each, exp)).toEqual([
      'sched_namespace.each["blue"]',
      'sched_namespace.each["green"]',
    ]);
    expect(evaluateResourceConfig(each, scope, instancesOf(exp)[0])).toEqual({
      name: 'blue',
      meta: { idx: 'blue' },
    });

    const dyn = config.resources.get('sched_job.dyn')!;
    const dexp = expandResource(dyn, scope);
    expect(instanceAddresses(dyn, dexp)).toEqual(['sched_job.dyn["api"]', 'sched_job.dyn["ui"]']);
    expect(evaluateResourceConfig(dyn, scope, instancesOf(dexp)[1])).toEqual({
      jobspec: '{"ID":"ui-svc","Port":3000}',
      namespace: 'ui',
      rule: [
        { name: 'x', value: 1 },
        { name: 'y', value: 2 },
      ],
    });
  });

  it('marks attributes that depend on resources not created yet as UNKNOWN', () => {
    const web = config.resources.get('sched_job.web')!;
    const cfg = evaluateResourceConfig(web, scope, { key: 0, count: { index: 0 } });
    expect(isUnknown(cfg['jobspec'])).toBe(true);
    expect(isUnknown(cfg['namespace'])).toBe(true);
    expect(cfg['detach']).toBe(false);
  });

  it('refuses count and for_each values that are not known at plan time', () => {
    const c = parseStackConfig({
      '//': { metadata: { stackName: 's' } },
      resource: {
        sched_namespace: { ns: { name: 'a' } },
        sched_job: {
          web: { '//': { metadata: { path: 's/web' } }, count: '${length(sched_namespace.ns.id)}' },
          svc: { '//': { metadata: { path: 's/svc' } }, for_each: '${toset([sched_namespace.ns.id])}' },
        },
      },
    });
    const s = createStackScope({ config: c, variables: {} });
    expect(message(() => expandResource(c.resources.get('sched_job.web')!, s))).toMatch(
      /^sched_job\.web \(s\/web\), attribute count: Invalid count argument: The "count" value depends on resource attributes that cannot be determined until apply/,
    );
    expect(message(() => expandResource(c.resources.get('sched_job.svc')!, s))).toMatch(
      /^sched_job\.svc \(s\/svc\), attribute for_each: Invalid for_each argument: .*cannot be determined until apply/,
    );
  });

  it('rejects unsuitable count and for_each values', () => {
    const mk = (meta: Record<string, unknown>): StackConfig =>
      parseStackConfig({ resource: { sched_job: { web: meta } } });
    const exp = (meta: Record<string, unknown>): string => {
      const c = mk(meta);
      return message(() =>
        expandResource(c.resources.get('sched_job.web')!, createStackScope({ config: c, variables: {} })),
      );
    };
    expect(exp({ count: -1 })).toMatch(/greater than or equal to zero/);
    expect(exp({ count: 1.5 })).toMatch(/whole number/);
    expect(exp({ count: '${null}' })).toMatch(/count" argument value is null/);
    expect(exp({ for_each: '${[1, 2]}' })).toMatch(
      /map, or set of strings, and you have provided a set of number values/,
    );
    expect(exp({ for_each: '${"x"}' })).toMatch(/provided a value of type string/);
    expect(
      expandResource(
        mk({ count: 0 }).resources.get('sched_job.web')!,
        createStackScope({ config: mk({}), variables: {} }),
      ),
    ).toEqual({ mode: 'count', count: 0 });
  });
});

describe('evaluation errors at plan time', () => {
  it('name the instance, construct path and attribute path', () => {
    const c = parseStackConfig({
      variable: { list: { default: ['a'] } },
      resource: {
        sched_job: {
          web: {
            '//': { metadata: { path: 'stack/web' } },
            count: 2,
            meta: { pick: '${var.list[count.index]}' },
          },
        },
      },
    });
    const s = createStackScope({ config: c, variables: { list: ['a'] } });
    const web = c.resources.get('sched_job.web')!;
    expect(evaluateResourceConfig(web, s, { key: 0, count: { index: 0 } })).toEqual({ meta: { pick: 'a' } });
    expect(message(() => evaluateResourceConfig(web, s, { key: 1, count: { index: 1 } }))).toBe(
      'sched_job.web[1] (stack/web), attribute meta.pick: Invalid index: The given key does not identify an element in this collection value: 1 is out of range (length 1) (in "${var.list[count.index]}")',
    );
  });

  it('reports a cycle between local values', () => {
    const c = parseStackConfig({
      locals: { a: '${local.b}', b: '${local.a}' },
      output: { o: { value: '${local.a}' } },
    });
    expect(
      message(() => evaluateOutput(c.outputs.get('o')!, createStackScope({ config: c, variables: {} }))),
    ).toMatch(/Cycle: local\.a -> local\.b -> local\.a/);
  });
});

describe('providers, outputs, conditions, replace triggers', () => {
  const c = parseStackConfig({
    variable: { addr: { default: 'http://x:4646' } },
    provider: { sched: [{ address: '${var.addr}' }] },
    resource: {
      sched_namespace: { ns: { name: 'a' } },
      sched_job: {
        web: {
          '//': { metadata: { path: 'stack/web' } },
          name: 'web',
          lifecycle: {
            ignore_changes: ['meta', 'task_group[0].count'],
            replace_triggered_by: ['${sched_namespace.ns.name}'],
            precondition: [{ condition: '${var.addr != ""}', error_message: 'address needed' }],
            postcondition: [
              { condition: '${self.status == "running"}', error_message: 'job is ${self.status}' },
            ],
          },
        },
      },
    },
    output: { addr: { value: '${var.addr}' }, ns: { value: '${sched_namespace.ns.id}' } },
  });
  const scope = createStackScope({
    config: c,
    variables: { addr: 'http://x:4646' },
    resolveReference: (ref) => (ref.name === 'ns' ? { name: 'a', id: UNKNOWN } : UNKNOWN),
  });
  const web = c.resources.get('sched_job.web')!;

  it('evaluates provider configuration and outputs', () => {
    expect(evaluateProviderConfig(c.providers.get('sched')!, scope)).toEqual({ address: 'http://x:4646' });
    expect(evaluateOutput(c.outputs.get('addr')!, scope)).toBe('http://x:4646');
    expect(isUnknown(evaluateOutput(c.outputs.get('ns')!, scope))).toBe(true);
  });

  it('checks preconditions and postconditions with self', () => {
    expect(checkPreconditions(web, scope).failures).toEqual([]);
    expect(checkPostconditions(web, scope, { status: 'running' }).failures).toEqual([]);
    const bad = checkPostconditions(web, scope, { status: 'dead' });
    expect(bad.failures.map((d) => `${d.address} ${d.summary}`)).toEqual(['sched_job.web job is dead']);
    expect(checkPostconditions(web, scope, { status: UNKNOWN }).unknown).toBe(1);
  });

  it('evaluates replace_triggered_by and matches ignore_changes paths', () => {
    expect(evaluateReplaceTriggers(web, scope)).toEqual(['a']);
    expect(isIgnoredChange(web, ['meta', 'owner'])).toBe(true);
    expect(isIgnoredChange(web, ['task_group', 0, 'count'])).toBe(true);
    expect(isIgnoredChange(web, ['task_group', 1, 'count'])).toBe(false);
    expect(isIgnoredChange(web, ['name'])).toBe(false);
  });

  it('assembles whole-resource values for references', () => {
    expect(assembleResourceValue('single', [[undefined, { id: 1 }]])).toEqual({ id: 1 });
    expect(
      assembleResourceValue('count', [
        [1, { id: 'b' }],
        [0, { id: 'a' }],
      ]),
    ).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(assembleResourceValue('for_each', [['k', { id: 'x' }]])).toEqual({ k: { id: 'x' } });
    expect(isUnknown(assembleResourceValue('single', []))).toBe(true);
  });
});
