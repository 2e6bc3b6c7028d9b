import { NotFoundError } from '../../../src/api/errors';
import { startRegistry, type RegAgent } from './harness';

describe('config entries (/v1/config, following Consul)', () => {
  let agent: RegAgent;
  beforeAll(async () => {
    agent = await startRegistry();
  });
  afterAll(() => agent.close());

  const apply = (body: unknown, query = '') => agent.http('PUT', `/v1/config${query}`, body);
  const expect400 = async (body: unknown, field: string, ruleName: string) => {
    const res = await apply(body);
    expect(res.status).toBe(400);
    expect(res.text).toContain(field);
    expect(res.text).toContain(`rule: ${ruleName}`);
  };

  test('apply answers true; read and list return the stored entry with indexes and Go durations', async () => {
    const reg = agent.client();
    expect(
      await reg.configEntries.apply({
        Kind: 'service-resolver',
        Name: 'db',
        ConnectTimeout: '15s',
        RequestTimeout: 2_000_000_000,
      }),
    ).toBe(true);
    const { value, meta } = await reg.configEntries.read('service-resolver', 'db');
    expect(value).toMatchObject({
      Kind: 'service-resolver',
      Name: 'db',
      ConnectTimeout: '15s',
      RequestTimeout: '2s',
      Namespace: 'default',
    });
    expect(value.CreateIndex).toBe(meta.index);
    const list = await reg.configEntries.list('service-resolver');
    expect(list.value.map((e) => e.Name)).toContain('db');
    await expect(reg.configEntries.read('service-resolver', 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('cas: 0 creates only when absent; a stale index answers false and changes nothing', async () => {
    const first = await apply({ Kind: 'service-defaults', Name: 'cas-svc', Protocol: 'http' }, '?cas=0');
    expect(first.json()).toBe(true);
    expect(
      (await apply({ Kind: 'service-defaults', Name: 'cas-svc', Protocol: 'grpc' }, '?cas=0')).json(),
    ).toBe(false);
    const { value } = await agent.client().configEntries.read('service-defaults', 'cas-svc');
    expect(value.Protocol).toBe('http');
    expect(
      (
        await apply(
          { Kind: 'service-defaults', Name: 'cas-svc', Protocol: 'grpc' },
          `?cas=${value.ModifyIndex! + 100}`,
        )
      ).json(),
    ).toBe(false);
    expect(
      (
        await apply(
          { Kind: 'service-defaults', Name: 'cas-svc', Protocol: 'grpc' },
          `?cas=${value.ModifyIndex!}`,
        )
      ).json(),
    ).toBe(true);
    expect((await agent.client().configEntries.read('service-defaults', 'cas-svc')).value.Protocol).toBe(
      'grpc',
    );
  });

  test('delete answers {} (or a boolean with cas) and removes the entry', async () => {
    await apply({ Kind: 'service-defaults', Name: 'gone', Protocol: 'tcp' });
    const res = await agent.http('DELETE', '/v1/config/service-defaults/gone');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({});
    expect((await agent.http('GET', '/v1/config/service-defaults/gone')).status).toBe(404);
    expect((await agent.http('DELETE', '/v1/config/service-defaults/gone?cas=5')).json()).toBe(false);
  });

  test('kind and name rules', async () => {
    await expect400({ Kind: 'mesh', Name: 'mesh' }, 'Kind:', 'kind');
    await expect400({ Name: 'x' }, 'Kind:', 'required');
    await expect400({ Kind: 'service-defaults' }, 'Name:', 'required');
    await expect400({ Kind: 'proxy-defaults', Name: 'web' }, 'Name:', 'proxy-defaults-name');
    await expect400(
      { Kind: 'service-defaults', Name: 'x', MeshGateway: { Mode: 'sideways' } },
      'MeshGateway.Mode:',
      'one-of',
    );
    expect((await agent.http('GET', '/v1/config/bogus-kind')).status).toBe(400);
  });

  test('service-resolver rules', async () => {
    await expect400(
      { Kind: 'service-resolver', Name: 'r', DefaultSubset: 'v9', Subsets: { v1: {} } },
      'DefaultSubset:',
      'subset-exists',
    );
    await expect400(
      { Kind: 'service-resolver', Name: 'r', Subsets: { V1: {} } },
      'Subsets.V1:',
      'subset-name',
    );
    await expect400(
      { Kind: 'service-resolver', Name: 'r', Subsets: { v1: { Filter: 'Service.Meta.version ==' } } },
      'Subsets.v1.Filter:',
      'filter',
    );
    await expect400(
      {
        Kind: 'service-resolver',
        Name: 'r',
        Redirect: { Service: 'x' },
        Failover: { '*': { Datacenters: ['dc2'] } },
      },
      'Redirect:',
      'exclusive',
    );
    await expect400({ Kind: 'service-resolver', Name: 'r', Redirect: {} }, 'Redirect:', 'non-empty');
    await expect400(
      { Kind: 'service-resolver', Name: 'r', Redirect: { ServiceSubset: 'v1' } },
      'Redirect.ServiceSubset:',
      'needs-service',
    );
    await expect400(
      { Kind: 'service-resolver', Name: 'r', Failover: { v2: { Datacenters: ['dc2'] } } },
      'Failover.v2:',
      'subset-exists',
    );
    await expect400(
      { Kind: 'service-resolver', Name: 'r', Failover: { '*': {} } },
      'Failover.*:',
      'non-empty',
    );
    await expect400(
      {
        Kind: 'service-resolver',
        Name: 'r',
        Failover: { '*': { Datacenters: ['dc2'], Targets: [{ Datacenter: 'dc3' }] } },
      },
      'Failover.*:',
      'exclusive',
    );
    await expect400(
      { Kind: 'service-resolver', Name: 'r', ConnectTimeout: '-1s' },
      'ConnectTimeout:',
      'non-negative',
    );
    await expect400(
      { Kind: 'service-resolver', Name: 'r', ConnectTimeout: 'fast' },
      'ConnectTimeout:',
      'duration',
    );
    expect(agent.store.get('reg/config_entries', 'default/service-resolver/r')).toBeUndefined();
  });

  test('service-splitter rules: weights add up to 100, destinations unique, an L7 protocol is needed', async () => {
    await apply({ Kind: 'service-defaults', Name: 'split-me', Protocol: 'http' });
    await expect400(
      {
        Kind: 'service-splitter',
        Name: 'split-me',
        Splits: [{ Weight: 50 }, { Weight: 40, Service: 'other' }],
      },
      'Splits:',
      'weights-sum',
    );
    await expect400({ Kind: 'service-splitter', Name: 'split-me', Splits: [] }, 'Splits:', 'required');
    await expect400(
      { Kind: 'service-splitter', Name: 'split-me', Splits: [{ Weight: 50 }, { Weight: 50 }] },
      'Splits[1]:',
      'unique',
    );
    await expect400(
      { Kind: 'service-splitter', Name: 'split-me', Splits: [{ Weight: 150 }] },
      'Splits[0].Weight:',
      'weight',
    );
    // 33.33 + 33.33 + 33.34 adds up exactly in hundredths.
    const splits = {
      Kind: 'service-splitter',
      Name: 'split-me',
      Splits: [{ Weight: 33.33 }, { Weight: 33.33, Service: 'a' }, { Weight: 33.34, Service: 'b' }],
    };
    const mixed = await apply(splits);
    expect(mixed.status).toBe(400);
    expect(mixed.text).toContain(
      'uses inconsistent protocols; service "a.default" has "tcp" which is not "http"',
    );
    await apply({ Kind: 'service-defaults', Name: 'a', Protocol: 'http' });
    await apply({ Kind: 'service-defaults', Name: 'b', Protocol: 'http' });
    expect((await apply(splits)).text).toBe('true');
    const tcp = await apply({ Kind: 'service-splitter', Name: 'plain-tcp', Splits: [{ Weight: 100 }] });
    expect(tcp.status).toBe(400);
    expect(tcp.text).toContain(
      'uses a protocol "tcp" that does not permit advanced routing or splitting behavior',
    );
    expect(tcp.text).toContain('rule: discovery-chain');
  });

  test('a split to a subset that does not exist is refused by the graph check', async () => {
    await apply({ Kind: 'service-defaults', Name: 'subsvc', Protocol: 'http' });
    await apply({
      Kind: 'service-resolver',
      Name: 'subsvc',
      Subsets: { v1: { Filter: 'Service.Meta.version == v1' } },
    });
    const res = await apply({
      Kind: 'service-splitter',
      Name: 'subsvc',
      Splits: [
        { Weight: 50, ServiceSubset: 'v1' },
        { Weight: 50, ServiceSubset: 'v3' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('service "subsvc" does not have a subset named "v3"');
  });

  test('service-router rules', async () => {
    await apply({ Kind: 'service-defaults', Name: 'routed', Protocol: 'http' });
    const route = (r: unknown) => ({ Kind: 'service-router', Name: 'routed', Routes: [r] });
    await expect400(
      route({ Match: { HTTP: { PathPrefix: '/a', PathExact: '/b' } } }),
      'Routes[0].Match.HTTP:',
      'one-path-match',
    );
    await expect400(
      route({ Match: { HTTP: { PathPrefix: 'a' } } }),
      'Routes[0].Match.HTTP.PathPrefix:',
      'leading-slash',
    );
    await expect400(
      route({ Match: { HTTP: { PathRegex: '([a-' } } }),
      'Routes[0].Match.HTTP.PathRegex:',
      'regex',
    );
    await expect400(
      route({ Match: { HTTP: { Header: [{ Name: 'x', Exact: 'a', Prefix: 'b' }] } } }),
      'Routes[0].Match.HTTP.Header[0]:',
      'one-header-match',
    );
    await expect400(
      route({ Match: { HTTP: { Header: [{ Exact: 'a' }] } } }),
      'Routes[0].Match.HTTP.Header[0].Name:',
      'type',
    );
    await expect400(
      route({ Match: { HTTP: { Methods: ['GET', 'FETCH'] } } }),
      'Routes[0].Match.HTTP.Methods[1]:',
      'http-method',
    );
    await expect400(
      route({
        Match: { HTTP: { Header: [{ Name: 'x', Present: true }] } },
        Destination: { PrefixRewrite: '/' },
      }),
      'Routes[0].Destination.PrefixRewrite:',
      'prefix-rewrite',
    );
    await expect400(
      route({ Destination: { NumRetries: -1 } }),
      'Routes[0].Destination.NumRetries:',
      'non-negative',
    );
    await expect400(
      route({ Destination: { RetryOnStatusCodes: [503, 42] } }),
      'Routes[0].Destination.RetryOnStatusCodes[1]:',
      'status-code',
    );
    await expect400(
      route({ Destination: { RequestTimeout: 'soon' } }),
      'Routes[0].Destination.RequestTimeout:',
      'duration',
    );
  });

  test('routers need an L7 protocol from service-defaults or proxy-defaults; a change that would break a chain is refused', async () => {
    const router = {
      Kind: 'service-router',
      Name: 'api',
      Routes: [{ Match: { HTTP: { PathPrefix: '/v2' } } }],
    };
    const refused = await apply(router);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('"tcp" that does not permit advanced routing');

    expect((await apply({ Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } })).text).toBe(
      'true',
    );
    expect((await apply(router)).text).toBe('true');
    // service-defaults saying tcp would strand the router; deleting proxy-defaults too.
    const downgrade = await apply({ Kind: 'service-defaults', Name: 'api', Protocol: 'tcp' });
    expect(downgrade.status).toBe(400);
    const drop = await agent.http('DELETE', '/v1/config/proxy-defaults/global');
    expect(drop.status).toBe(400);
    expect((await agent.http('GET', '/v1/config/proxy-defaults/global')).status).toBe(200);
    expect((await agent.http('DELETE', '/v1/config/service-router/api')).status).toBe(200);
    expect((await agent.http('DELETE', '/v1/config/proxy-defaults/global')).status).toBe(200);
  });

  test('redirect loops and splitter loops are refused', async () => {
    expect(
      (await apply({ Kind: 'service-resolver', Name: 'loop-a', Redirect: { Service: 'loop-b' } })).text,
    ).toBe('true');
    const loop = await apply({ Kind: 'service-resolver', Name: 'loop-b', Redirect: { Service: 'loop-a' } });
    expect(loop.status).toBe(400);
    expect(loop.text).toContain('detected circular resolver redirect');
    expect(agent.store.get('reg/config_entries', 'default/service-resolver/loop-b')).toBeUndefined();

    await apply({ Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } });
    expect(
      (
        await apply({
          Kind: 'service-splitter',
          Name: 'ring-a',
          Splits: [{ Weight: 100, Service: 'ring-b' }],
        })
      ).text,
    ).toBe('true');
    const ring = await apply({
      Kind: 'service-splitter',
      Name: 'ring-b',
      Splits: [{ Weight: 100, Service: 'ring-a' }],
    });
    expect(ring.status).toBe(400);
    expect(ring.text).toContain('detected circular reference');
    await agent.http('DELETE', '/v1/config/service-splitter/ring-a');
    expect((await agent.http('DELETE', '/v1/config/proxy-defaults/global')).status).toBe(200);
  });

  test('the filter parameter narrows a list; a bad filter is a 400', async () => {
    await apply({ Kind: 'service-defaults', Name: 'f-grpc', Protocol: 'grpc' });
    const res = await agent.http(
      'GET',
      `/v1/config/service-defaults?filter=${encodeURIComponent('Protocol == "grpc"')}`,
    );
    const names = res.json<{ Name: string; Protocol: string }[]>().map((e) => e.Protocol);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['grpc']));
    const bad = await agent.http(
      'GET',
      `/v1/config/service-defaults?filter=${encodeURIComponent('Protocol ==')}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^filter: /);
  });
});
