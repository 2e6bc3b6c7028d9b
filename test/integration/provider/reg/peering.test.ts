import { NotFoundError } from '../../../../src/api/errors';
import { eventually } from '../../../helpers/agent';
import type { State } from '../../../../src/provider/resource';
import { DiagnosticsError, UNKNOWN, isUnknown } from '../../../../src/provider/values';
import { expectNoSecret, failureText, pathsOf, startRegFixture, type RegFixture } from './fixture';

/** The secret inside a peering token (base64 JSON), which must not leak either. */
function establishmentSecret(token: string): string {
  return (JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { EstablishmentSecret: string })
    .EstablishmentSecret;
}

describe('reg_peering_token and reg_peering between two dev agents', () => {
  let a: RegFixture; // accepts: generates tokens
  let b: RegFixture; // dials: establishes from A's tokens
  const tokens: string[] = [];
  const texts: string[] = [];
  beforeAll(async () => {
    [a, b] = await Promise.all([
      startRegFixture({ datacenter: 'east' }),
      startRegFixture({ datacenter: 'west' }),
    ]);
  });
  afterAll(async () => {
    const secrets = [...tokens, ...tokens.map(establishmentSecret)];
    expectNoSecret([...texts, ...a.progress, ...b.progress, ...a.logs, ...b.logs], secrets);
    await Promise.all([a.stop(), b.stop()]);
  });

  const tokenRes = () => a.resource('reg_peering_token');
  const peerRes = () => b.resource('reg_peering');
  const readA = async (name: string) => (await a.client.peering.read(name)).value;
  const readB = async (name: string) => (await b.client.peering.read(name)).value;
  const hostOf = (f: RegFixture) => new URL(f.agent.registryUrl!).host;

  let tokenConfig: Record<string, unknown> = { peer_name: 'west', meta: { env: 'dev' } };
  let tokenState: State | null = null;
  let peerConfig: Record<string, unknown> = {};
  let peerState: State | null = null;

  test('a token from A and a peering on B reach ACTIVE on both sides, with no drift afterwards', async () => {
    const plan = await tokenRes().plan({ prior: null, config: tokenConfig });
    expect(plan.action).toBe('create');
    expect(isUnknown(plan.planned!['peering_token'])).toBe(true);

    tokenState = await a.converge('reg_peering_token', null, tokenConfig, 'create');
    const token = tokenState!['peering_token'] as string;
    tokens.push(token);
    expect(tokenState).toEqual({
      id: 'west',
      peer_name: 'west',
      partition: null,
      datacenter: null,
      meta: { env: 'dev' },
      peering_token: token,
      timeouts: null,
    });
    expect((await readA('west')).State).toBe('INITIAL');
    expect(await tokenRes().read(tokenState!)).toEqual(tokenState);
    expect((await tokenRes().plan({ prior: tokenState, config: tokenConfig })).action).toBe('noop');

    peerConfig = { peer_name: 'east', peering_token: token, meta: { team: 'x' } };
    // The token is usually not known at plan time (it comes from A's resource): still a valid create.
    const unknownToken = { ...peerConfig, peering_token: UNKNOWN };
    expect(pathsOf(peerRes().validate(unknownToken))).toEqual([]);
    const peerPlan = await peerRes().plan({ prior: null, config: unknownToken });
    expect(peerPlan.action).toBe('create');
    expect(isUnknown(peerPlan.planned!['state'])).toBe(true);

    peerState = await b.converge('reg_peering', null, peerConfig, 'create');
    const acceptor = await readA('west');
    expect(peerState).toEqual({
      id: 'east',
      peer_name: 'east',
      peering_token: token,
      meta: { team: 'x' },
      partition: null,
      state: 'ACTIVE',
      peer_id: acceptor.ID,
      peer_server_name: expect.stringMatching(/^server\.east\.peering\./),
      peer_server_addresses: [hostOf(a)],
      deleted_at: null,
      timeouts: null,
    });
    expect(acceptor.State).toBe('ACTIVE');
    expect(acceptor.PeerID).toBe((await readB('east')).ID);
    expect(b.progress).toContain('peering "east" established; waiting for it to become ACTIVE');

    expect(await peerRes().read(peerState!)).toEqual(peerState);
    expect((await peerRes().plan({ prior: peerState, config: peerConfig })).action).toBe('noop');
    // The accepting side's peering still exists (now ACTIVE): the token stays, no new one is planned.
    expect(await tokenRes().read(tokenState!)).toEqual(tokenState);

    const dsA = await a.data('reg_peering').read({ peer_name: 'west' });
    expect(dsA).toMatchObject({
      id: acceptor.ID,
      state: 'ACTIVE',
      meta: { env: 'dev' },
      deleted_at: null,
      partition: 'default',
    });
    expect(dsA['peer_server_name']).toMatch(/^server\.west\.peering\./);
    const dsB = await b.data('reg_peering').read({ peer_name: 'east' });
    expect(dsB).toMatchObject({ state: 'ACTIVE', peer_id: acceptor.ID, peer_server_addresses: [hostOf(a)] });
    await expect(b.data('reg_peering').read({ peer_name: 'nobody' })).rejects.toThrow(
      /No peering named "nobody"/,
    );
    expect(pathsOf(b.data('reg_peering').validate({ peer_name: 'not_a_label' }))).toEqual(['peer_name']);
  });

  test('import of both sides by name plans no replacement', async () => {
    const imported = await peerRes().import('east');
    expect(imported).toMatchObject({
      peer_name: 'east',
      state: 'ACTIVE',
      peering_token: null,
      meta: { team: 'x' },
    });
    const plan = await peerRes().plan({ prior: imported, config: peerConfig });
    expect(plan.action).toBe('noop');
    expect(plan.planned!['peering_token']).toBe(peerConfig['peering_token']);

    const importedToken = await tokenRes().import('west');
    expect(importedToken).toMatchObject({
      peer_name: 'west',
      peering_token: null,
      meta: { env: 'dev' },
      partition: null,
    });
    expect((await tokenRes().plan({ prior: importedToken, config: tokenConfig })).action).toBe('noop');

    await expect(peerRes().import('nobody')).rejects.toThrow(/Cannot import peering "nobody"/);
    await expect(tokenRes().import('nobody')).rejects.toThrow(/Cannot import peering token "nobody"/);
  });

  test("A's peering deleted out of band: a new token is planned, and B re-establishes with it", async () => {
    await a.client.peering.delete('west');
    expect(await tokenRes().read(tokenState!)).toBeNull();
    tokenState = await a.converge('reg_peering_token', null, tokenConfig, 'create');
    const fresh = tokenState!['peering_token'] as string;
    tokens.push(fresh);
    expect(fresh).not.toBe(peerConfig['peering_token']);
    expect((await readA('west')).State).toBe('INITIAL');

    // A told B: B's side is TERMINATED, which the handler treats as gone.
    await eventually(async () => expect((await readB('east')).State).toBe('TERMINATED'));
    expect(await peerRes().read(peerState!)).toBeNull();
    peerConfig = { ...peerConfig, peering_token: fresh };
    peerState = await b.converge('reg_peering', null, peerConfig, 'create');
    expect(peerState).toMatchObject({ state: 'ACTIVE', peer_id: (await readA('west')).ID });
    expect((await readA('west')).State).toBe('ACTIVE');
  });

  test("replace: new token meta replaces the accepting peering; the new token replaces B's peering", async () => {
    const oldId = (await readA('west')).ID;
    tokenConfig = { ...tokenConfig, meta: { env: 'prod' } };
    const plan = await tokenRes().plan({ prior: tokenState, config: tokenConfig });
    expect(plan.action).toBe('replace');
    expect(plan.replacePaths).toEqual([['meta']]);
    tokenState = await a.converge('reg_peering_token', tokenState, tokenConfig, 'replace');
    const fresh = tokenState!['peering_token'] as string;
    tokens.push(fresh);
    const acceptor = await readA('west');
    expect(acceptor).toMatchObject({ State: 'INITIAL', Meta: { env: 'prod' } });
    expect(acceptor.ID).not.toBe(oldId);

    const next = { ...peerConfig, peering_token: fresh };
    const peerPlan = await peerRes().plan({ prior: peerState, config: next });
    expect(peerPlan.action).toBe('replace');
    expect(peerPlan.replacePaths).toEqual([['peering_token']]);
    const replaced = await b.converge('reg_peering', peerState, next, 'replace');
    expect(replaced).toMatchObject({ state: 'ACTIVE', peer_id: acceptor.ID });
    expect((await readA('west')).State).toBe('ACTIVE');
    peerConfig = next;
    peerState = replaced;

    const metaChange = await peerRes().plan({
      prior: peerState,
      config: { ...peerConfig, meta: { team: 'y' } },
    });
    expect(metaChange.replacePaths).toEqual([['meta']]);
  });

  test('update in place (both resources): only the time limits change, nothing is sent', async () => {
    const before = b.agent.requests.length;
    const withTimeouts = { ...peerConfig, timeouts: { create: '2m' } };
    const updated = await b.converge('reg_peering', peerState, withTimeouts, 'update');
    expect(updated).toEqual({ ...peerState, timeouts: { create: '2m' } });
    expect(b.agent.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    peerState = updated;
    peerConfig = withTimeouts;

    const beforeA = a.agent.requests.length;
    const tokenWithTimeouts = { ...tokenConfig, timeouts: { create: '30s' } };
    const token = await a.converge('reg_peering_token', tokenState, tokenWithTimeouts, 'update');
    expect(token).toEqual({ ...tokenState, timeouts: { create: '30s' } });
    expect(a.agent.requests.slice(beforeA).filter((r) => r.method !== 'GET')).toEqual([]);
    tokenState = token;
    tokenConfig = tokenWithTimeouts;
  });

  test('errors never show a peering token or its secret', async () => {
    // A token used once cannot establish a second peering; the peer says why.
    const reused = await failureText(
      b.converge(
        'reg_peering',
        null,
        { peer_name: 'second', peering_token: peerConfig['peering_token'] },
        'create',
      ),
    );
    texts.push(reused);
    expect(reused).toMatch(/Error creating peering "second".*one-time-secret/s);
    // A registry cannot peer with itself.
    const { PeeringToken } = await a.client.peering.generateToken({ PeerName: 'self' });
    tokens.push(PeeringToken);
    const self = await failureText(
      a.resource('reg_peering').apply({
        action: 'create',
        prior: null,
        planned: { peer_name: 'loop', peering_token: PeeringToken },
        diagnostics: [],
      }),
    );
    texts.push(self);
    expect(self).toMatch(/cannot peer with itself/);
    await a.client.peering.delete('self');
    // A token that is not one.
    const junk = Buffer.from(JSON.stringify({ EstablishmentSecret: 'junk-secret-value' })).toString('base64');
    const bad = await failureText(
      b.converge('reg_peering', null, { peer_name: 'junk', peering_token: junk }, 'create'),
    );
    texts.push(bad);
    expect(bad).not.toContain('junk-secret-value');
    await expect(b.client.peering.read('junk')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('validation errors name the attribute', () => {
    const vt = (c: Record<string, unknown>) => pathsOf(tokenRes().validate(c));
    const vp = (c: Record<string, unknown>) => pathsOf(peerRes().validate(c));
    expect(vt({})).toEqual(['peer_name']);
    expect(vt({ peer_name: 'has_underscore' })).toEqual(['peer_name']);
    expect(vt({ peer_name: 'ok', meta: { a: 1 } })).toEqual(['meta.a']);
    expect(vt({ peer_name: 'ok', peering_token: 'x' })).toEqual(['peering_token']);
    expect(vt({ peer_name: 'ok', partition: 'default', datacenter: 'east' })).toEqual([]);
    expect(vp({ peer_name: 'ok' })).toEqual(['peering_token']);
    expect(vp({ peer_name: 'ok', peering_token: '' })).toEqual(['peering_token']);
    expect(vp({ peer_name: '-no', peering_token: 't' })).toEqual(['peer_name']);
    expect(vp({ peer_name: 'ok', peering_token: 't', state: 'ACTIVE' })).toEqual(['state']);
    expect(vp({ peer_name: 'ok', peering_token: 't', timeouts: { create: '0s' } })).toEqual([
      'timeouts.create',
    ]);
    // The detail of a bad token says what is wrong, not what the token was.
    const [d] = peerRes().validate({ peer_name: 'ok', peering_token: 42 });
    expect(JSON.stringify(d)).not.toContain('42');
  });

  test('destroy: B deletes its peering, A deletes the accepting one', async () => {
    expect(await b.converge('reg_peering', peerState, null, 'delete')).toBeNull();
    expect(await peerRes().read(peerState!)).toBeNull();
    await eventually(async () => expect((await readA('west')).State).toBe('TERMINATED'));
    // The accepting side's peering is terminated: the token resource plans a new token.
    expect(await tokenRes().read(tokenState!)).toBeNull();
    expect(await a.converge('reg_peering_token', tokenState, null, 'delete')).toBeNull();
    await eventually(async () => expect(a.client.peering.read('west')).rejects.toBeInstanceOf(NotFoundError));
    await eventually(async () => expect(b.client.peering.read('east')).rejects.toBeInstanceOf(NotFoundError));
    const err = await tokenRes()
      .import('west')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiagnosticsError);
  });
});
