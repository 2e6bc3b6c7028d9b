/**
 * refreshMany of the registry resources: one listing per type (and namespace or partition) refreshes
 * every object a stack has, the agent counting the requests. Namespaces and peerings are listed whole;
 * auth methods are listed as stubs, so only a method whose ModifyIndex moved is read in full, and a
 * state recorded before indexes were is read on its own. A change made outside the configuration is
 * still planned as drift.
 */
import type { State } from '../../../../src/provider/resource';
import { startRegFixture, type RegFixture } from './fixture';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBdevca\n-----END CERTIFICATE-----';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.refresh-many-secret.c2lnbmF0dXJl';

const method = (name: string) => ({
  name,
  type: 'kubernetes',
  description: `method ${name}`,
  config: { Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: JWT },
});

describe('registry resources: refresh of many from one listing', () => {
  let f: RegFixture;
  beforeAll(async () => {
    f = await startRegFixture({ recordRequests: true });
  });
  afterAll(() => f.stop());

  /** The requests the agent served while `run` ran, as "METHOD path". */
  const counted = async <T>(run: () => Promise<T>): Promise<{ value: T; requests: string[] }> => {
    const before = f.agent.requests.length;
    const value = await run();
    return { value, requests: f.agent.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
  };

  const createAll = async (type: string, configs: Array<Record<string, unknown>>): Promise<State[]> => {
    const out: State[] = [];
    for (const c of configs) out.push((await f.converge(type, null, c, 'create'))!);
    return out;
  };

  test('namespaces: one list for three, a description changed outside is drift, a deleted one is read', async () => {
    const ns = f.resource('reg_namespace');
    const states = await createAll(
      'reg_namespace',
      ['rm-a', 'rm-b', 'rm-c'].map((name) => ({ name, description: `ns ${name}` })),
    );
    await f.client.namespaces.update('rm-b', { Description: 'changed outside' });
    await f.client.namespaces.delete('rm-c');
    const { value: refreshed, requests } = await counted(() => ns.refreshMany!(states));
    expect(requests).toEqual(['GET /v1/namespaces']);
    expect(refreshed[0]).toEqual(states[0]);
    expect(refreshed[1]).toEqual({ ...states[1], description: 'changed outside' });
    // Being deleted (or not listed): the per-object read decides.
    expect(refreshed[2]).toBeUndefined();
    expect(await ns.read(states[2]!)).toBeNull();
    const drift = await ns.plan({ prior: refreshed[1]!, config: { name: 'rm-b', description: 'ns rm-b' } });
    expect(drift.action).toBe('update');
  });

  test('auth methods: one stub list; only the method whose index moved is read, and its drift planned', async () => {
    const am = f.resource('reg_acl_auth_method');
    const configs = ['am-a', 'am-b', 'am-c'].map(method);
    const states = await createAll('reg_acl_auth_method', configs);
    for (const s of states) expect(s['modify_index']).toEqual(expect.any(Number));
    await f.client.authMethods.update('am-b', {
      Name: 'am-b',
      Type: 'kubernetes',
      Description: 'changed outside',
      Config: configs[1]!.config,
    });
    const { value: refreshed, requests } = await counted(() => am.refreshMany!(states));
    expect(requests).toEqual(['GET /v1/acl/auth-methods']);
    expect(refreshed).toEqual([states[0], undefined, states[2]]);
    // What the batch left open is read as before: the change is seen and planned as drift.
    const { value: read, requests: reads } = await counted(() => am.read(states[1]!));
    expect(reads).toEqual(['GET /v1/acl/auth-method/am-b']);
    expect(read!['description']).toBe('changed outside');
    expect((await am.plan({ prior: read!, config: configs[1]! })).action).toBe('update');
  });

  test('auth methods: a state without a recorded index is not listed for', async () => {
    const am = f.resource('reg_acl_auth_method');
    const states = await createAll('reg_acl_auth_method', ['am-old-1', 'am-old-2'].map(method));
    const legacy = states.map(({ modify_index: _dropped, ...rest }) => rest);
    const { value: refreshed, requests } = await counted(() => am.refreshMany!(legacy));
    expect(requests).toEqual([]);
    expect(refreshed).toEqual([undefined, undefined]);
    // Its own read records the index, so the next plan can use the listing.
    expect((await am.read(legacy[0]!))!['modify_index']).toBe(states[0]!['modify_index']);
  });

  test('peering tokens: one peering list for two; a deleted peering is left to its read', async () => {
    const pt = f.resource('reg_peering_token');
    const states = await createAll('reg_peering_token', [{ peer_name: 'rm-east' }, { peer_name: 'rm-west' }]);
    const { value: refreshed, requests } = await counted(() => pt.refreshMany!(states));
    expect(requests).toEqual(['GET /v1/peerings']);
    expect(refreshed).toEqual(states);
    await f.client.peering.delete('rm-west');
    const after = await pt.refreshMany!(states);
    expect(after).toEqual([states[0], undefined]);
    expect(await pt.read(states[1]!)).toBeNull();
  });
});
