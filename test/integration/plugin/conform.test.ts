/**
 * The rules Terraform checks provider answers against, as conform.ts applies them to handler answers,
 * and diagnostics paths typed by the schema.
 */
import type { TerraformBlock } from '../../../src/provider/schema';
import { UNKNOWN, isUnknown } from '../../../src/provider/values';
import {
  conformApplied,
  conformPlanned,
  conformRefreshed,
  handlerConfig,
  isEmptyValue,
} from '../../../src/plugin/conform';
import { blockType } from '../../../src/plugin/cty';
import { attributePath, toProto } from '../../../src/plugin/diagnostics';

const block: TerraformBlock = {
  attributes: {
    name: { type: 'string', required: true },
    description: { type: 'string', optional: true },
    namespace: { type: 'string', optional: true, computed: true },
    id: { type: 'string', computed: true },
    meta: { type: ['map', 'string'], optional: true },
  },
  block_types: {
    rule: {
      nesting_mode: 'list',
      block: {
        attributes: { sel: { type: 'string', optional: true }, bind: { type: 'string', required: true } },
      },
    },
    timeouts: {
      nesting_mode: 'single',
      block: { attributes: { create: { type: 'string', optional: true } } },
    },
  },
};

describe('conformPlanned', () => {
  it('takes arguments from the configuration and computed values from the handler', () => {
    const planned = conformPlanned(
      block,
      { name: 'x', description: '', namespace: UNKNOWN, id: UNKNOWN, meta: {}, rule: null, timeouts: null },
      { name: 'x', description: null, namespace: null, id: null, meta: null, rule: [], timeouts: null },
    );
    expect(planned).toEqual({
      name: 'x',
      description: null,
      namespace: UNKNOWN,
      id: UNKNOWN,
      meta: null,
      rule: [],
      timeouts: null,
    });
  });

  it('holds an optional+computed attribute to its configured value, unknown included', () => {
    const planned = conformPlanned(
      block,
      { name: 'x', namespace: 'default', id: 'x' },
      { name: 'x', namespace: UNKNOWN, rule: [{ sel: UNKNOWN, bind: 'b' }], timeouts: { create: '1m' } },
    );
    expect(isUnknown(planned['namespace'])).toBe(true);
    expect(planned['id']).toBe('x');
    expect(planned['rule']).toEqual([{ sel: UNKNOWN, bind: 'b' }]);
    expect(planned['timeouts']).toEqual({ create: '1m' });
  });
});

describe('unknown blocks', () => {
  it('keep a block that is not known yet (a dynamic block) unknown, whole', () => {
    const planned = conformPlanned(
      block,
      { name: 'x', id: UNKNOWN },
      { name: 'x', rule: UNKNOWN, timeouts: UNKNOWN },
    );
    expect(isUnknown(planned['rule'])).toBe(true);
    expect(isUnknown(planned['timeouts'])).toBe(true);
    const config = handlerConfig(block, { name: 'x', rule: UNKNOWN });
    expect(isUnknown(config['rule'])).toBe(true);
  });
});

describe('conformApplied', () => {
  it('keeps planned arguments, takes computed results, and leaves no unknown', () => {
    const state = conformApplied(
      block,
      { name: 'x', description: '', namespace: 'default', id: 'x', meta: null, rule: null, extra: 1 },
      { name: 'x', description: null, namespace: UNKNOWN, id: UNKNOWN, meta: null, rule: [], timeouts: null },
    );
    expect(state).toEqual({
      name: 'x',
      description: null,
      namespace: 'default',
      id: 'x',
      meta: null,
      rule: [],
      timeouts: null,
    });
    const unsettled = conformApplied(block, { name: 'x', id: UNKNOWN }, { name: 'x', id: UNKNOWN });
    expect(unsettled['id']).toBeNull();
  });
});

describe('conformRefreshed', () => {
  it('keeps the prior form of a value equivalent to it, and takes real changes', () => {
    const prior = { name: 'x', description: null, namespace: null, meta: null, id: 'x', rule: [] };
    expect(
      conformRefreshed(block, { name: 'x', description: '', meta: {}, id: 'x', rule: null }, prior),
    ).toEqual(prior);
    expect(
      conformRefreshed(block, { name: 'x', description: 'set outside', meta: null, id: 'x' }, prior),
    ).toMatchObject({
      description: 'set outside',
    });
  });

  it('treats null, "", [] and {} as empty, and an unknown as not', () => {
    for (const v of [null, undefined, '', [], {}]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [UNKNOWN, 0, false, 'a', [1], { a: 1 }]) expect(isEmptyValue(v)).toBe(false);
  });
});

describe('handlerConfig', () => {
  it('drops unset attributes and empty blocks, as the engine passes configuration', () => {
    expect(
      handlerConfig(block, {
        name: 'x',
        description: null,
        rule: [{ sel: null, bind: 'b' }],
        timeouts: null,
        meta: UNKNOWN,
      }),
    ).toEqual({ name: 'x', rule: [{ bind: 'b' }], meta: UNKNOWN });
    expect(handlerConfig(block, { name: 'x', rule: [] })).toEqual({ name: 'x' });
  });
});

describe('diagnostic paths', () => {
  const t = blockType(block);

  it('follows the type: attributes, list indexes, map keys', () => {
    expect(attributePath(['rule', 1, 'bind'], t)).toEqual([
      { attribute_name: 'rule' },
      { element_key_int: 1 },
      { attribute_name: 'bind' },
    ]);
    expect(attributePath(['meta', 'owner'], t)).toEqual([
      { attribute_name: 'meta' },
      { element_key_string: 'owner' },
    ]);
  });

  it('stops where the path leaves the type', () => {
    expect(attributePath(['description', 'Job', 'TaskGroups', 0], t)).toEqual([
      { attribute_name: 'description' },
    ]);
    expect(attributePath(['nope'], t)).toEqual([]);
    expect(toProto({ severity: 'warning', summary: 's', path: ['nope'] }, t)).toEqual({
      severity: 'WARNING',
      summary: 's',
      detail: '',
    });
  });
});
