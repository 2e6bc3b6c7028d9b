import { NotFoundError } from '../../../src/api/errors';
import { eventually, startRegistry, type RegAgent } from './harness';

interface PeeringJson {
  ID: string;
  Name: string;
  State: string;
  PeerID: string;
  PeerServerName: string;
  PeerServerAddresses: string[];
  Partition: string;
  Meta: Record<string, string>;
  DeletedAt?: string;
  CreateIndex: number;
  ModifyIndex: number;
}

describe('cluster peering between two registries (spec 4.3, section 3)', () => {
  let east: RegAgent;
  let west: RegAgent;
  beforeAll(async () => {
    east = await startRegistry({ datacenter: 'east' });
    west = await startRegistry({ datacenter: 'west' });
  });
  afterAll(async () => {
    await east.close();
    await west.close();
  });

  const read = async (agent: RegAgent, name: string): Promise<PeeringJson | undefined> => {
    const res = await agent.http('GET', `/v1/peering/${name}`);
    return res.status === 404 ? undefined : res.json<PeeringJson>();
  };

  test('generate a token, establish from the other side, both report ACTIVE; delete moves to TERMINATED, then gone', async () => {
    const { PeeringToken } = await east
      .client()
      .peering.generateToken({ PeerName: 'west', Meta: { env: 'dev' } });
    const decoded = JSON.parse(Buffer.from(PeeringToken, 'base64').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(decoded).toMatchObject({
      ServerAddresses: [new URL(east.url).host],
      Remote: { Datacenter: 'east', Partition: 'default' },
    });
    expect(decoded['ServerName']).toMatch(/^server\.east\.peering\..+\.consul$/);

    const pending = (await east.client().peering.read('west')).value;
    expect(pending).toMatchObject({
      Name: 'west',
      State: 'INITIAL',
      Partition: 'default',
      Meta: { env: 'dev' },
    });

    await west.client().peering.establish({ PeerName: 'east', PeeringToken });

    const dialer = (await read(west, 'east'))!;
    const acceptor = (await read(east, 'west'))!;
    expect(dialer).toMatchObject({
      State: 'ACTIVE',
      PeerID: acceptor.ID,
      PeerServerAddresses: [new URL(east.url).host],
    });
    expect(dialer.PeerServerName).toMatch(/^server\.east\.peering\./);
    expect(acceptor).toMatchObject({ State: 'ACTIVE', PeerID: dialer.ID });
    expect(acceptor.PeerServerName).toMatch(/^server\.west\.peering\./);
    expect(acceptor.ModifyIndex).toBeGreaterThan(acceptor.CreateIndex);

    const list = await west.client().peering.list();
    expect(list.value.map((p) => [p.Name, p.State])).toEqual([['east', 'ACTIVE']]);
    expect(list.meta.filteredByAcls).toBeUndefined();

    // A token is single use.
    const reused = await west.http('POST', '/v1/peering/establish', { PeerName: 'east-again', PeeringToken });
    expect(reused.status).toBe(400);
    expect(reused.text).toMatch(
      /^PeeringToken: was rejected by the peer: EstablishmentSecret: .*rule: one-time-secret/,
    );
    expect(await read(west, 'east-again')).toBeUndefined();

    const del = await east.http('DELETE', '/v1/peering/west');
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    // The other side learns of it.
    await eventually(async () => ((await read(west, 'east'))?.State === 'TERMINATED' ? true : undefined));
    expect((await read(west, 'east'))!.DeletedAt).toBeUndefined();
    await eventually(async () => ((await read(east, 'west')) === undefined ? true : undefined));
    await expect(east.client().peering.read('west')).rejects.toBeInstanceOf(NotFoundError);

    // The surviving side can be deleted too, and goes away.
    expect((await west.http('DELETE', '/v1/peering/east')).status).toBe(200);
    await eventually(async () => ((await read(west, 'east')) === undefined ? true : undefined));
  });

  test('generating a token again for the same peer name re-issues it; the older token no longer works', async () => {
    const first = await east.client().peering.generateToken({ PeerName: 'again' });
    const second = await east.client().peering.generateToken({ PeerName: 'again' });
    expect(second.PeeringToken).not.toBe(first.PeeringToken);
    const ids = new Set(
      [first, second].map(
        (t) => (JSON.parse(Buffer.from(t.PeeringToken, 'base64').toString()) as { PeerID: string }).PeerID,
      ),
    );
    expect(ids.size).toBe(1);
    const old = await west.http('POST', '/v1/peering/establish', {
      PeerName: 'old',
      PeeringToken: first.PeeringToken,
    });
    expect(old.status).toBe(400);
    expect(old.text).toContain('one-time-secret');
    expect(
      (
        await west.http('POST', '/v1/peering/establish', {
          PeerName: 'again',
          PeeringToken: second.PeeringToken,
        })
      ).json(),
    ).toEqual({});
    expect((await read(east, 'again'))!.State).toBe('ACTIVE');

    // Deleting on the dialing side tells the accepting side too.
    expect((await west.http('DELETE', '/v1/peering/again')).status).toBe(200);
    await eventually(async () => ((await read(east, 'again'))?.State === 'TERMINATED' ? true : undefined));
    expect((await read(east, 'again'))!.DeletedAt).toBeUndefined();
  });

  test('forged and malformed tokens are rejected with 400 and leave nothing behind', async () => {
    const garbage = await west.http('POST', '/v1/peering/establish', {
      PeerName: 'x1',
      PeeringToken: 'not a token!',
    });
    expect(garbage.status).toBe(400);
    expect(garbage.text).toMatch(/^PeeringToken: is not a valid peering token/);
    const shape = Buffer.from(JSON.stringify({ ServerAddresses: [] })).toString('base64');
    const badShape = await west.http('POST', '/v1/peering/establish', {
      PeerName: 'x1',
      PeeringToken: shape,
    });
    expect(badShape.status).toBe(400);
    expect(badShape.text).toContain('rule: peering-token');

    const { PeeringToken } = await east.client().peering.generateToken({ PeerName: 'forge-target' });
    const real = JSON.parse(Buffer.from(PeeringToken, 'base64').toString()) as Record<string, unknown>;
    const forged = Buffer.from(
      JSON.stringify({ ...real, EstablishmentSecret: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64');
    const rejected = await west.http('POST', '/v1/peering/establish', {
      PeerName: 'x1',
      PeeringToken: forged,
    });
    expect(rejected.status).toBe(400);
    expect(rejected.text).toContain('one-time-secret');
    expect(await read(west, 'x1')).toBeUndefined();
    expect((await read(east, 'forge-target'))!.State).toBe('INITIAL');

    const self = await east.http('POST', '/v1/peering/establish', { PeerName: 'me', PeeringToken });
    expect(self.status).toBe(400);
    expect(self.text).toContain('rule: other-cluster');
  });

  test('PeerName must be a DNS label; names already used are refused', async () => {
    for (const name of ['Bad_Name', '-x', 'a.b']) {
      const res = await east.http('POST', '/v1/peering/token', { PeerName: name });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^PeerName: .*rule: dns-label/);
    }
    const missing = await east.http('POST', '/v1/peering/token', {});
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/^PeerName: is required/);
    const est = await west.http('POST', '/v1/peering/establish', { PeerName: 'bad_name', PeeringToken: 'x' });
    expect(est.status).toBe(400);
    expect(est.text).toMatch(/^PeerName: /);

    const { PeeringToken } = await east.client().peering.generateToken({ PeerName: 'accepting' });
    const clash = await east.http('POST', '/v1/peering/establish', { PeerName: 'accepting', PeeringToken });
    expect(clash.status).toBe(400);
    const otherDc = await east.http('POST', '/v1/peering/token', { PeerName: 'p', Datacenter: 'mars' });
    expect(otherDc.status).toBe(400);
    expect(otherDc.text).toMatch(/^Datacenter: /);
  });

  test('an unreachable peer is a 502 naming PeeringToken', async () => {
    const token = Buffer.from(
      JSON.stringify({
        CA: null,
        ServerAddresses: ['127.0.0.1:1'],
        ServerName: 'server.x.peering.abc.consul',
        PeerID: 'p',
        EstablishmentSecret: 's',
        Remote: { Partition: 'default', Datacenter: 'x' },
      }),
    ).toString('base64');
    const res = await west.http('POST', '/v1/peering/establish', {
      PeerName: 'nowhere',
      PeeringToken: token,
    });
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/^PeeringToken: could not reach the peer at 127\.0\.0\.1:1/);
  });

  test('read of a peering that does not exist is 404', async () => {
    expect((await east.http('GET', '/v1/peering/none')).status).toBe(404);
  });
});

describe('a deleted peering stays readable until cleanup', () => {
  test('State TERMINATED with DeletedAt, then gone', async () => {
    const a = await startRegistry({ datacenter: 'a', timeScale: 0.1 });
    try {
      await a.client().peering.generateToken({ PeerName: 'b' });
      expect((await a.http('DELETE', '/v1/peering/b')).status).toBe(200);
      const p = (await a.client().peering.read('b')).value;
      expect(p.State).toBe('TERMINATED');
      expect(p.DeletedAt).toMatch(/^\d{4}-/);
      expect((await a.client().peering.list()).value.map((x) => x.State)).toEqual(['TERMINATED']);
      const regen = await a.http('POST', '/v1/peering/token', { PeerName: 'b' });
      expect(regen.status).toBe(400);
      expect(regen.text).toContain('being deleted');
      await eventually(async () =>
        (await a.http('GET', '/v1/peering/b')).status === 404 ? true : undefined,
      );
    } finally {
      await a.close();
    }
  });
});
