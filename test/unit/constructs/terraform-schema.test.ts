import { z } from 'zod';
import { attr } from '../../../src/provider/schema';
import { regProvider } from '../../../src/provider/reg/provider';
import {
  PROVIDER_ADDRESSES,
  providerSchemaJson,
  providersSchemaJson,
  type ProviderShapes,
} from '../../../src/provider/terraform-schema';

const fixture: ProviderShapes = {
  name: 'sched',
  shape: {
    address: attr(z.string().nullish(), { optional: true }),
    token: attr(z.string().nullish(), { optional: true, sensitive: true }),
  },
  resourceShapes: {
    sched_zeta: {
      description: 'last by name',
      version: 0,
      shape: { id: attr(z.string(), { computed: true }) },
    },
    sched_alpha: {
      description: 'An alpha.',
      version: 2,
      shape: {
        id: attr(z.string(), { computed: true }),
        name: attr(z.string(), { required: true, forceNew: true }),
        count: attr(z.number().int().nullish(), { optional: true, computed: true }),
        tags: attr(z.array(z.string()).nullish(), { optional: true }),
        secret: attr(z.string().nullish(), { optional: true, sensitive: true }),
        rule: attr(z.array(z.object({ selector: attr(z.string(), { required: true }) })).nullish(), {
          optional: true,
          block: 'list',
        }),
      },
    },
  },
  dataSourceShapes: {
    sched_alpha: { description: 'Reads an alpha.', shape: { name: attr(z.string(), { required: true }) } },
  },
};

describe('provider schema JSON', () => {
  it('has the layout of `terraform providers schema -json`, keyed by registry address', () => {
    const json = providersSchemaJson([fixture]);
    expect(json.format_version).toBe('1.0');
    expect(Object.keys(json.provider_schemas)).toEqual(['registry.terraform.io/cdktf-sched/sched']);
    const p = json.provider_schemas[PROVIDER_ADDRESSES.sched]!;
    expect(p.provider.version).toBe(0);
    expect(p.provider.block.attributes?.['token']).toMatchObject({
      type: 'string',
      optional: true,
      sensitive: true,
    });
    expect(Object.keys(p.data_source_schemas)).toEqual(['sched_alpha']);
  });

  it('turns each resource shape into a versioned block with required, computed, sensitive and nested blocks', () => {
    const p = providerSchemaJson(fixture);
    // Sorted by type, whatever order the provider registered them in.
    expect(Object.keys(p.resource_schemas)).toEqual(['sched_alpha', 'sched_zeta']);
    const alpha = p.resource_schemas['sched_alpha']!;
    expect(alpha.version).toBe(2);
    expect(alpha.block.description).toBe('An alpha.');
    const a = alpha.block.attributes!;
    expect(a['id']).toMatchObject({ type: 'string', computed: true });
    expect(a['id']!.optional).toBeUndefined();
    expect(a['name']).toMatchObject({ type: 'string', required: true });
    expect(a['count']).toMatchObject({ type: 'number', optional: true, computed: true });
    expect(a['tags']).toMatchObject({ type: ['list', 'string'], optional: true });
    expect(a['secret']!.sensitive).toBe(true);
    expect(a['name']!.sensitive).toBeUndefined();
    expect(alpha.block.block_types?.['rule']).toMatchObject({
      nesting_mode: 'list',
      block: { attributes: { selector: { type: 'string', required: true } } },
    });
  });

  it('marks the registry secrets sensitive: provider token and key, auth method config, peering tokens', () => {
    const reg = providersSchemaJson([regProvider]).provider_schemas[PROVIDER_ADDRESSES.reg]!;
    expect(reg.provider.block.attributes?.['token']?.sensitive).toBe(true);
    expect(reg.provider.block.attributes?.['key_pem']?.sensitive).toBe(true);
    expect(reg.resource_schemas['reg_acl_auth_method']!.block.attributes?.['config']?.sensitive).toBe(true);
    expect(reg.resource_schemas['reg_peering_token']!.block.attributes?.['peering_token']).toMatchObject({
      computed: true,
      sensitive: true,
    });
    expect(reg.resource_schemas['reg_peering']!.block.attributes?.['peering_token']).toMatchObject({
      required: true,
      sensitive: true,
    });
    expect(reg.resource_schemas['reg_namespace']!.block.attributes?.['name']?.sensitive).toBeUndefined();
  });
});
