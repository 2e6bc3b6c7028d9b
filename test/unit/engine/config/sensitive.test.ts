/**
 * Sensitive values at the configuration's edges: the paths a resource's marked values leave for
 * the plan, outputs that must say sensitive = true, for_each that must not be sensitive, count that
 * may be, and error messages that do not quote them.
 */
import {
  ConfigError,
  createStackScope,
  evaluateMarkedResourceConfig,
  evaluateOutput,
  expandResource,
  parseStackConfig,
} from '../../../../src/engine/config';
import { echoPaths, pathsOnto } from '../../../../src/engine/plan/sensitivity';

const config = parseStackConfig({
  variable: {
    key: { type: 'string', sensitive: true },
    names: { type: 'set(string)', sensitive: true },
    n: { type: 'number', sensitive: true },
  },
  resource: {
    sched_namespace: {
      apps: { name: 'apps', meta: { owner: 'me', key: '${var.key}' }, description: 'd-${var.key}' },
      each: { for_each: '${var.names}', name: '${each.key}' },
      counted: { count: '${var.n}', name: 'c${count.index}' },
    },
  },
  output: {
    leaky: { value: '${upper(var.key)}' },
    declared: { value: '${upper(var.key)}', sensitive: true },
    unwrapped: { value: '${nonsensitive(length(var.key))}' },
    plain: { value: 'x' },
  },
});
const scope = createStackScope({ config, variables: { key: 'k-secret-1', names: ['a'], n: 2 } });

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

test('a resource configuration comes without marks, with the paths of its sensitive values', () => {
  const r = config.resources.get('sched_namespace.apps')!;
  const { config: cfg, sensitivePaths } = evaluateMarkedResourceConfig(r, scope);
  expect(cfg).toEqual({
    name: 'apps',
    meta: { owner: 'me', key: 'k-secret-1' },
    description: 'd-k-secret-1',
  });
  expect(sensitivePaths).toEqual([['meta', 'key'], ['description']]);
});

test('an output with a sensitive value must be declared sensitive', () => {
  expect(message(() => evaluateOutput(config.outputs.get('leaky')!, scope))).toMatch(
    /output\.leaky.*Output refers to sensitive values/,
  );
  expect(evaluateOutput(config.outputs.get('declared')!, scope)).toBe('K-SECRET-1');
  expect(evaluateOutput(config.outputs.get('unwrapped')!, scope)).toBe(10);
  expect(evaluateOutput(config.outputs.get('plain')!, scope)).toBe('x');
});

test('for_each refuses a sensitive value; count takes one', () => {
  const each = config.resources.get('sched_namespace.each')!;
  expect(message(() => expandResource(each, scope))).toMatch(/Invalid for_each argument: Sensitive values/);
  expect(expandResource(config.resources.get('sched_namespace.counted')!, scope)).toEqual({
    mode: 'count',
    count: 2,
  });
});

test('marks carry onto a handler value of another shape, and echoes of a secret are found', () => {
  const planned = { meta: { key: 'k' }, spec: '{"a":1}', list: ['x', 'has k-secret-1 inside'] };
  expect(
    pathsOnto(planned, [
      ['meta', 'key'],
      ['spec', 'a'],
      ['gone', 'x'],
    ]),
  ).toEqual([['spec'], ['meta', 'key']]);
  expect(echoPaths(planned, ['k-secret-1'])).toEqual([['list', 1]]);
});
