import { startRegistry, type RegAgent } from './harness';

interface Chain {
  ServiceName: string;
  Namespace: string;
  Datacenter: string;
  CustomizationHash?: string;
  Default?: boolean;
  Protocol: string;
  StartNode: string;
  Nodes: Record<
    string,
    {
      Type: string;
      Name: string;
      Resolver?: Record<string, unknown>;
      Splits?: { Weight: number; NextNode: string }[];
      Routes?: { Definition: Record<string, unknown>; NextNode: string }[];
    }
  >;
  Targets: Record<string, Record<string, unknown>>;
}

describe('compiled discovery chain (spec 2 and 4.4)', () => {
  let agent: RegAgent;
  let td = '';
  beforeAll(async () => {
    agent = await startRegistry();
    td = `${agent.store.get<{ ID: string }>('reg/meta', 'cluster')!.ID}.consul`;
  });
  afterAll(() => agent.close());

  const apply = async (entry: unknown, ns = 'default') => {
    const res = await agent.http('PUT', `/v1/config?ns=${ns}`, entry);
    if (res.text !== 'true') throw new Error(`apply failed: ${res.status} ${res.text}`);
  };
  const chain = async (service: string, query = '', overrides?: unknown): Promise<Chain> => {
    const res = await agent.http(
      overrides ? 'POST' : 'GET',
      `/v1/discovery-chain/${service}${query}`,
      overrides,
    );
    if (res.status !== 200) throw new Error(`chain failed: ${res.status} ${res.text}`);
    return res.json<{ Chain: Chain }>().Chain;
  };

  test('no entries: one synthesized default resolver, TCP, 5s connect timeout, SNI and Name', async () => {
    const c = await chain('plain');
    expect(c).toMatchObject({
      ServiceName: 'plain',
      Namespace: 'default',
      Datacenter: 'dc1',
      Protocol: 'tcp',
      Default: true,
      StartNode: 'resolver:plain.default.default.dc1',
    });
    expect(c.CustomizationHash).toBeUndefined();
    expect(c.Nodes).toEqual({
      'resolver:plain.default.default.dc1': {
        Type: 'resolver',
        Name: 'plain.default.default.dc1',
        Resolver: { Default: true, ConnectTimeout: '5s', Target: 'plain.default.default.dc1' },
      },
    });
    expect(c.Targets).toEqual({
      'plain.default.default.dc1': {
        ID: 'plain.default.default.dc1',
        Service: 'plain',
        Namespace: 'default',
        Partition: 'default',
        Datacenter: 'dc1',
        MeshGateway: {},
        Subset: {},
        ConnectTimeout: '5s',
        External: false,
        SNI: `plain.default.dc1.internal.${td}`,
        Name: `plain.default.dc1.internal.${td}`,
      },
    });
    // The typed client parses the same answer.
    const { value, meta } = await agent.client().discoveryChain.read('plain');
    expect(value.StartNode).toBe('resolver:plain.default.default.dc1');
    expect(meta.index).toBeGreaterThan(0);
  });

  test('compile-dc and ns change the basis of compilation', async () => {
    await agent.http('PUT', '/v1/namespace', { Name: 'team' });
    const c = await chain('plain', '?compile-dc=dc7&ns=team');
    expect(c).toMatchObject({
      Namespace: 'team',
      Datacenter: 'dc7',
      StartNode: 'resolver:plain.team.default.dc7',
    });
    expect(c.Targets['plain.team.default.dc7']).toMatchObject({ SNI: `plain.team.dc7.internal.${td}` });
  });

  test('a resolver with subsets, a default subset and failover across datacenters', async () => {
    await apply({
      Kind: 'service-resolver',
      Name: 'web',
      ConnectTimeout: '15s',
      DefaultSubset: 'v1',
      Subsets: {
        v1: { Filter: 'Service.Meta.version == v1' },
        v2: { Filter: 'Service.Meta.version == v2', OnlyPassing: true },
      },
      Failover: { '*': { Datacenters: ['dc3', 'dc1', 'dc4'] } },
    });
    const c = await chain('web');
    expect(c.StartNode).toBe('resolver:v1.web.default.default.dc1');
    expect(c.Default).toBe(false);
    expect(c.Nodes['resolver:v1.web.default.default.dc1']!.Resolver).toEqual({
      Default: false,
      ConnectTimeout: '15s',
      Target: 'v1.web.default.default.dc1',
      // dc1 is the target itself: never a failover target.
      Failover: { Targets: ['v1.web.default.default.dc3', 'v1.web.default.default.dc4'] },
    });
    expect(Object.keys(c.Nodes)).toEqual(['resolver:v1.web.default.default.dc1']);
    expect(Object.keys(c.Targets).sort()).toEqual([
      'v1.web.default.default.dc1',
      'v1.web.default.default.dc3',
      'v1.web.default.default.dc4',
    ]);
    expect(c.Targets['v1.web.default.default.dc3']).toMatchObject({
      Service: 'web',
      ServiceSubset: 'v1',
      Datacenter: 'dc3',
      Subset: { Filter: 'Service.Meta.version == v1' },
      SNI: `v1.web.default.dc3.internal.${td}`,
      ConnectTimeout: '15s',
    });
  });

  test('failover to other services via Targets, and a redirect', async () => {
    await apply({
      Kind: 'service-resolver',
      Name: 'pay',
      Failover: { '*': { Targets: [{ Service: 'pay-backup' }, { Service: 'pay', Datacenter: 'dc2' }] } },
    });
    const c = await chain('pay');
    expect(c.Nodes['resolver:pay.default.default.dc1']!.Resolver!['Failover']).toEqual({
      Targets: ['pay-backup.default.default.dc1', 'pay.default.default.dc2'],
    });
    expect(c.Targets['pay-backup.default.default.dc1']).toMatchObject({
      Service: 'pay-backup',
      ConnectTimeout: '5s',
    });

    await apply({ Kind: 'service-resolver', Name: 'old', Redirect: { Service: 'pay', Datacenter: 'dc2' } });
    const r = await chain('old');
    expect(r.StartNode).toBe('resolver:pay.default.default.dc2');
    // The redirect lands on pay's own resolver, whose failover now starts from dc2.
    expect(r.Nodes['resolver:pay.default.default.dc2']!.Resolver!['Failover']).toEqual({
      Targets: ['pay-backup.default.default.dc2'],
    });
    expect(Object.keys(r.Targets).sort()).toEqual([
      'pay-backup.default.default.dc2',
      'pay.default.default.dc2',
    ]);
  });

  test('a splitter in front of subsets (Consul sample: version split for an alternate datacenter)', async () => {
    await apply({
      Kind: 'service-resolver',
      Name: 'shop',
      DefaultSubset: 'v1',
      Subsets: { v1: { Filter: 'Service.Meta.version == v1' }, v2: { Filter: 'Service.Meta.version == v2' } },
    });
    await apply({ Kind: 'service-defaults', Name: 'shop', Protocol: 'http' });
    await apply({
      Kind: 'service-splitter',
      Name: 'shop',
      Splits: [
        { Weight: 90, ServiceSubset: 'v1' },
        { Weight: 10, ServiceSubset: 'v2' },
      ],
    });
    const c = await chain('shop', '?compile-dc=dc2');
    expect(c).toMatchObject({ Protocol: 'http', Datacenter: 'dc2', StartNode: 'splitter:shop.default' });
    expect(c.Nodes['splitter:shop.default']).toEqual({
      Type: 'splitter',
      Name: 'shop.default',
      Splits: [
        { Weight: 90, NextNode: 'resolver:v1.shop.default.default.dc2' },
        { Weight: 10, NextNode: 'resolver:v2.shop.default.default.dc2' },
      ],
    });
    expect(Object.keys(c.Targets).sort()).toEqual([
      'v1.shop.default.default.dc2',
      'v2.shop.default.default.dc2',
    ]);
  });

  test('nested splitters are flattened with multiplied weights', async () => {
    await apply({ Kind: 'proxy-defaults', Name: 'global', Config: { protocol: 'http' } });
    await apply({
      Kind: 'service-splitter',
      Name: 'front-a',
      Splits: [
        { Weight: 20, Service: 'a1' },
        { Weight: 80, Service: 'a2' },
      ],
    });
    await apply({
      Kind: 'service-splitter',
      Name: 'front',
      Splits: [
        { Weight: 50, Service: 'front-a' },
        { Weight: 50, Service: 'b' },
      ],
    });
    const c = await chain('front');
    expect(c.Nodes['splitter:front.default']!.Splits).toEqual([
      { Weight: 10, NextNode: 'resolver:a1.default.default.dc1' },
      { Weight: 40, NextNode: 'resolver:a2.default.default.dc1' },
      { Weight: 50, NextNode: 'resolver:b.default.default.dc1' },
    ]);
    expect(c.Nodes['splitter:front-a.default']).toBeUndefined();
    await agent.http('DELETE', '/v1/config/service-splitter/front');
    await agent.http('DELETE', '/v1/config/service-splitter/front-a');
  });

  test('a router with path and header matches and a catch-all route (Consul sample: HTTP path routing)', async () => {
    await apply({
      Kind: 'service-resolver',
      Name: 'site',
      Subsets: { canary: { Filter: 'Service.Meta.flavor == canary' } },
    });
    await apply({
      Kind: 'service-router',
      Name: 'site',
      Routes: [
        {
          Match: { HTTP: { PathPrefix: '/admin' } },
          Destination: { Service: 'admin', PrefixRewrite: '/', RequestTimeout: '15s' },
        },
        {
          Match: { HTTP: { Header: [{ Name: 'x-debug', Exact: '1' }] } },
          Destination: {
            Service: 'site',
            ServiceSubset: 'canary',
            NumRetries: 5,
            RetryOnConnectFailure: true,
            RetryOnStatusCodes: [401, 409],
          },
        },
        { Match: { HTTP: { PathExact: '/health' } }, Destination: { Service: 'health' } },
        { Match: { HTTP: { PathRegex: '^/v[0-9]+/' } }, Destination: { Service: 'api' } },
      ],
    });
    const c = await chain('site');
    expect(c).toMatchObject({ Protocol: 'http', StartNode: 'router:site.default', Default: false });
    const routes = c.Nodes['router:site.default']!.Routes!;
    expect(routes.map((r) => r.NextNode)).toEqual([
      'resolver:admin.default.default.dc1',
      'resolver:canary.site.default.default.dc1',
      'resolver:health.default.default.dc1',
      'resolver:api.default.default.dc1',
      'resolver:site.default.default.dc1',
    ]);
    expect(routes[0]!.Definition).toEqual({
      Match: { HTTP: { PathPrefix: '/admin' } },
      Destination: { Service: 'admin', PrefixRewrite: '/', RequestTimeout: '15s' },
    });
    expect(routes[1]!.Definition).toMatchObject({
      Match: { HTTP: { Header: [{ Name: 'x-debug', Exact: '1' }] } },
      Destination: {
        ServiceSubset: 'canary',
        NumRetries: 5,
        RetryOnConnectFailure: true,
        RetryOnStatusCodes: [401, 409],
      },
    });
    expect(routes[4]!.Definition).toEqual({
      Match: { HTTP: { PathPrefix: '/' } },
      Destination: { Service: 'site', Namespace: 'default' },
    });
    expect(c.Nodes['resolver:admin.default.default.dc1']!.Resolver).toMatchObject({ Default: true });
    expect(c.Targets['canary.site.default.default.dc1']).toMatchObject({
      Subset: { Filter: 'Service.Meta.flavor == canary' },
    });
  });

  test('overrides: timeout, protocol and mesh gateway on a redirected TCP chain (Consul sample) carry a CustomizationHash', async () => {
    // proxy-defaults say http (the router of "site" needs it); service-defaults pin this one to TCP.
    await apply({ Kind: 'service-defaults', Name: 'legacy', Protocol: 'tcp' });
    await apply({ Kind: 'service-resolver', Name: 'legacy', Redirect: { Datacenter: 'dc2' } });
    const plain = await chain('legacy');
    expect(plain.Protocol).toBe('tcp');
    const c = await chain('legacy', '', {
      OverrideConnectTimeout: '7s',
      OverrideProtocol: 'grpc',
      OverrideMeshGateway: { Mode: 'remote' },
    });
    expect(c.CustomizationHash).toMatch(/^[0-9a-f]{8}$/);
    expect(c).toMatchObject({ Protocol: 'grpc', StartNode: 'resolver:legacy.default.default.dc2' });
    expect(c.Nodes['resolver:legacy.default.default.dc2']!.Resolver).toMatchObject({ ConnectTimeout: '7s' });
    expect(c.Targets['legacy.default.default.dc2']).toMatchObject({
      MeshGateway: { Mode: 'remote' },
      ConnectTimeout: '7s',
    });
    const other = await chain('legacy', '', { OverrideConnectTimeout: '8s' });
    expect(other.CustomizationHash).toMatch(/^[0-9a-f]{8}$/);
    expect(other.CustomizationHash).not.toBe(c.CustomizationHash);
    // An override equal to what the chain already has customizes nothing.
    const same = await chain('legacy', '', { OverrideConnectTimeout: '5s', OverrideProtocol: 'tcp' });
    expect(same.CustomizationHash).toBeUndefined();
  });

  test('a TCP override of an L7 chain drops its router and splitter', async () => {
    const c = await chain('site', '', { OverrideProtocol: 'tcp' });
    expect(c.Protocol).toBe('tcp');
    expect(c.CustomizationHash).toMatch(/^[0-9a-f]{8}$/);
    expect(c.StartNode).toBe('resolver:site.default.default.dc1');
    expect(Object.values(c.Nodes).map((n) => n.Type)).toEqual(['resolver']);
    const s = await chain('shop', '', { OverrideProtocol: 'tcp' });
    expect(s.StartNode).toBe('resolver:v1.shop.default.default.dc1');
  });

  test('an L7 override of a TCP chain adds no router or splitter', async () => {
    await apply({ Kind: 'service-defaults', Name: 'raw', Protocol: 'tcp' });
    const refused = await agent.http('PUT', '/v1/config', {
      Kind: 'service-router',
      Name: 'raw',
      Routes: [],
    });
    expect(refused.status).toBe(400);
    const c = await chain('raw', '', { OverrideProtocol: 'http' });
    expect(c).toMatchObject({ Protocol: 'http', StartNode: 'resolver:raw.default.default.dc1' });
    expect(c.CustomizationHash).toMatch(/^[0-9a-f]{8}$/);
    expect(Object.keys(c.Nodes)).toEqual(['resolver:raw.default.default.dc1']);
  });

  test('bad overrides are 400 naming the field', async () => {
    const t = await agent.http('POST', '/v1/discovery-chain/web', { OverrideConnectTimeout: 'soon' });
    expect(t.status).toBe(400);
    expect(t.text).toMatch(/^OverrideConnectTimeout: /);
    const m = await agent.http('POST', '/v1/discovery-chain/web', {
      OverrideMeshGateway: { Mode: 'sideways' },
    });
    expect(m.status).toBe(400);
    expect(m.text).toMatch(/^OverrideMeshGateway\.Mode: .*rule: one-of/);
  });

  test('a blocking read of a chain wakes when a config entry changes it', async () => {
    const reg = agent.client();
    const first = await reg.discoveryChain.read('late');
    expect(first.value.StartNode).toBe('resolver:late.default.default.dc1');
    const waiting = reg.discoveryChain.read('late', { index: first.meta.index, wait: '5s' });
    setTimeout(
      () => void apply({ Kind: 'service-resolver', Name: 'late', Redirect: { Service: 'plain' } }),
      30,
    );
    const next = await waiting;
    expect(next.meta.index).toBeGreaterThan(first.meta.index);
    expect(next.value.StartNode).toBe('resolver:plain.default.default.dc1');
  });
});
