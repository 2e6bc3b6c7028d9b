/** Every registry client call against two real dev agents (peering needs two). */
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { RegClient } from '../../../src/api/reg';
import { NotFoundError, ValidationError } from '../../../src/api/errors';
import { eventually } from '../../helpers/agent';

describe('registry client against the dev agent', () => {
  let a: DevAgent;
  let b: DevAgent;
  let ra: RegClient;
  let rb: RegClient;
  beforeAll(async () => {
    a = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.005, datacenter: 'dc1' });
    b = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.005, datacenter: 'dc2' });
    ra = new RegClient({ address: a.registryUrl, env: {} });
    rb = new RegClient({ address: b.registryUrl, env: {} });
  });
  afterAll(async () => {
    await ra.close();
    await rb.close();
    await a.stop();
    await b.stop();
  });

  it('auth methods: create, read, update, list, delete', async () => {
    const created = await ra.authMethods.create({
      Name: 'k8s',
      Type: 'kubernetes',
      MaxTokenTTL: '1h',
      Config: {
        Host: 'https://k8s.example:6443',
        CACert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
        ServiceAccountJWT: 'jwt-secret',
      },
    });
    expect(created.CreateIndex).toBeGreaterThan(0);
    const { value } = await ra.authMethods.read('k8s');
    expect(value.Config?.['Host']).toBe('https://k8s.example:6443');
    const updated = await ra.authMethods.update('k8s', {
      DisplayName: 'Kubernetes',
      Config: value.Config ?? {},
    });
    expect(updated).toMatchObject({ Type: 'kubernetes', DisplayName: 'Kubernetes' });
    const { value: list } = await ra.authMethods.list();
    expect(list.map((m) => m.Name)).toContain('k8s');
    expect((list[0] as Record<string, unknown>)['Config']).toBeUndefined();
    expect(await ra.authMethods.delete('k8s')).toBe(true);
    await expect(ra.authMethods.read('k8s')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('namespaces: create, read, update, list, delete (marked, then gone)', async () => {
    await ra.acl.policies.create({ Name: 'readers', Rules: 'service_prefix "" { policy = "read" }' });
    const ns = await ra.namespaces.create({
      Name: 'team-a',
      Description: 'A',
      ACLs: { PolicyDefaults: [{ Name: 'readers' }] },
    });
    expect(ns.ACLs?.PolicyDefaults?.[0]?.ID).toBeTruthy();
    await ra.namespaces.update('team-a', { Description: 'A2', ACLs: ns.ACLs });
    expect((await ra.namespaces.read('team-a')).value.Description).toBe('A2');
    expect((await ra.namespaces.list()).value.map((n) => n.Name)).toEqual(
      expect.arrayContaining(['default', 'team-a']),
    );
    await ra.namespaces.delete('team-a');
    await eventually(() => expect(ra.namespaces.read('team-a')).rejects.toBeInstanceOf(NotFoundError));
    await expect(ra.namespaces.create({ Name: 'Not_A_Label' })).rejects.toBeInstanceOf(Error);
  });

  it('peering: generate a token on one agent, establish from the other, both ACTIVE, delete', async () => {
    const { PeeringToken } = await ra.peering.generateToken({ PeerName: 'east' });
    expect(typeof PeeringToken).toBe('string');
    await rb.peering.establish({ PeerName: 'west', PeeringToken: PeeringToken! });
    await eventually(async () => {
      expect((await ra.peering.read('east')).value.State).toBe('ACTIVE');
      expect((await rb.peering.read('west')).value.State).toBe('ACTIVE');
    });
    expect((await rb.peering.read('west')).value.PeerServerAddresses?.length).toBeGreaterThan(0);
    expect((await ra.peering.list()).value.map((p) => p.Name)).toEqual(['east']);
    await expect(
      rb.peering.establish({ PeerName: 'again', PeeringToken: PeeringToken! }),
    ).rejects.toBeInstanceOf(ValidationError);
    await rb.peering.delete('west');
    await eventually(async () => expect((await ra.peering.read('east')).value.State).toBe('TERMINATED'));
  });

  it('config entries and the discovery chain (GET and POST with overrides)', async () => {
    expect(await ra.configEntries.apply({ Kind: 'service-defaults', Name: 'api', Protocol: 'http' })).toBe(
      true,
    );
    expect(
      await ra.configEntries.apply({
        Kind: 'service-resolver',
        Name: 'api',
        DefaultSubset: 'v1',
        Subsets: {
          v1: { Filter: 'Service.Meta.version == v1' },
          v2: { Filter: 'Service.Meta.version == v2' },
        },
      }),
    ).toBe(true);
    expect(
      await ra.configEntries.apply({
        Kind: 'service-splitter',
        Name: 'api',
        Splits: [
          { Weight: 90, ServiceSubset: 'v1' },
          { Weight: 10, ServiceSubset: 'v2' },
        ],
      }),
    ).toBe(true);
    const { value: entries } = await ra.configEntries.list('service-resolver');
    expect(entries.map((e) => e.Name)).toEqual(['api']);
    expect((await ra.configEntries.read('service-splitter', 'api')).value.Kind).toBe('service-splitter');
    const { value: chain } = await ra.discoveryChain.read('api');
    expect(chain.Protocol).toBe('http');
    expect(chain.StartNode).toMatch(/^splitter:/);
    const { value: tcp } = await ra.discoveryChain.read('api', {
      overrides: { OverrideProtocol: 'tcp', OverrideConnectTimeout: '7s' },
    });
    expect(tcp.Protocol).toBe('tcp');
    expect(tcp.CustomizationHash).toBeTruthy();
    expect(tcp.StartNode).toMatch(/^resolver:/);
    expect(await ra.configEntries.delete('service-splitter', 'api')).toBe(true);
    await expect(ra.configEntries.read('service-splitter', 'api')).rejects.toBeInstanceOf(NotFoundError);
  });
});
