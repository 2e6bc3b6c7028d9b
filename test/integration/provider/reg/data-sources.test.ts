import { pathsOf, startRegFixture, type RegFixture } from './fixture';

describe('reg data sources: reg_namespace and reg_discovery_chain', () => {
  let f: RegFixture;
  beforeAll(async () => {
    // 0.1: a deleted namespace stays readable for 200 ms, long enough to read it while marked.
    f = await startRegFixture({ timeScale: 0.1 });
    const pol = await f.client.acl.policies.create({
      Name: 'readers',
      Rules: 'service_prefix "" { policy = "read" }',
    });
    await f.client.namespaces.create({
      Name: 'team-a',
      Description: 'Team A',
      Meta: { owner: 'a' },
      ACLs: { PolicyDefaults: [{ ID: pol.ID }] },
    });
    await f.client.configEntries.apply({ Kind: 'service-defaults', Name: 'site', Protocol: 'http' });
    await f.client.configEntries.apply({ Kind: 'service-defaults', Name: 'admin', Protocol: 'http' });
    await f.client.configEntries.apply({
      Kind: 'service-router',
      Name: 'site',
      Routes: [{ Match: { HTTP: { PathPrefix: '/admin' } }, Destination: { Service: 'admin' } }],
    });
  });
  afterAll(() => f.stop());

  test('reg_namespace reads a namespace, shows its default policies by name, and marks one being deleted', async () => {
    const ds = f.data('reg_namespace');
    expect(await ds.read({ name: 'team-a' })).toEqual({
      name: 'team-a',
      id: 'team-a',
      description: 'Team A',
      meta: { owner: 'a' },
      policy_defaults: ['readers'],
      role_defaults: [],
      deleted_at: null,
    });
    await expect(ds.read({ name: 'nope' })).rejects.toThrow(/No namespace named "nope"/);
    expect(pathsOf(ds.validate({}))).toEqual(['name']);
    expect(pathsOf(ds.validate({ name: 'x', description: 'y' }))).toEqual(['description']);

    await f.client.namespaces.create({ Name: 'leaving' });
    await f.client.namespaces.delete('leaving');
    expect(await ds.read({ name: 'leaving' })).toMatchObject({
      name: 'leaving',
      deleted_at: expect.any(String),
    });
  });

  test('reg_discovery_chain: a plain service compiles to one default resolver', async () => {
    const c = await f.data('reg_discovery_chain').read({ service: 'plain' });
    expect(c).toMatchObject({
      service: 'plain',
      id: 'plain.default.dc1',
      protocol: 'tcp',
      start_node: 'resolver:plain.default.default.dc1',
      customization_hash: null,
      target_ids: ['plain.default.default.dc1'],
    });
    expect(c['chain']).toMatchObject({ ServiceName: 'plain', Default: true });
  });

  test('reg_discovery_chain: an L7 chain keeps its router; a TCP override drops it (spec 4.4)', async () => {
    const ds = f.data('reg_discovery_chain');
    const plain = await ds.read({ service: 'site' });
    expect(plain).toMatchObject({
      protocol: 'http',
      start_node: 'router:site.default',
      customization_hash: null,
    });
    expect(plain['target_ids']).toEqual(['admin.default.default.dc1', 'site.default.default.dc1']);

    const tcp = await ds.read({ service: 'site', override_protocol: 'tcp' });
    expect(tcp['protocol']).toBe('tcp');
    expect(tcp['customization_hash']).toMatch(/^[0-9a-f]{8}$/);
    expect(tcp['start_node']).toBe('resolver:site.default.default.dc1');
    const nodes = (tcp['chain'] as { Nodes: Record<string, { Type: string }> }).Nodes;
    expect(Object.values(nodes).map((n) => n.Type)).toEqual(['resolver']);
  });

  test('reg_discovery_chain: connect timeout and mesh gateway overrides, and compile datacenter', async () => {
    const ds = f.data('reg_discovery_chain');
    const c = await ds.read({
      service: 'plain',
      datacenter: 'dc2',
      override_connect_timeout: '7s',
      override_mesh_gateway: { mode: 'remote' },
    });
    expect(c).toMatchObject({ id: 'plain.default.dc2', start_node: 'resolver:plain.default.default.dc2' });
    expect(c['customization_hash']).toMatch(/^[0-9a-f]{8}$/);
    const chain = c['chain'] as {
      Targets: Record<string, { MeshGateway?: { Mode?: string }; ConnectTimeout?: string }>;
    };
    expect(chain.Targets['plain.default.default.dc2']).toMatchObject({
      MeshGateway: { Mode: 'remote' },
      ConnectTimeout: '7s',
    });
    // Overrides that change nothing are a plain read: no customization.
    const same = await ds.read({
      service: 'plain',
      override_connect_timeout: '5s',
      override_protocol: 'tcp',
    });
    expect(same['customization_hash']).toBeNull();
  });

  test('reg_discovery_chain validation names the attribute', () => {
    const v = (c: Record<string, unknown>) => pathsOf(f.data('reg_discovery_chain').validate(c));
    expect(v({})).toEqual(['service']);
    expect(v({ service: 'web', override_connect_timeout: 'soon' })).toEqual(['override_connect_timeout']);
    expect(v({ service: 'web', override_connect_timeout: '-1s' })).toEqual(['override_connect_timeout']);
    expect(v({ service: 'web', override_protocol: 'smtp' })).toEqual(['override_protocol']);
    expect(v({ service: 'web', override_mesh_gateway: { mode: 'sideways' } })).toEqual([
      'override_mesh_gateway.mode',
    ]);
    expect(v({ service: 'web', override_mesh_gateway: {} })).toEqual(['override_mesh_gateway.mode']);
    expect(v({ service: 'web', protocol: 'tcp' })).toEqual(['protocol']);
    expect(
      v({ service: 'web', override_protocol: 'grpc', override_mesh_gateway: { mode: 'local' } }),
    ).toEqual([]);
  });
});
