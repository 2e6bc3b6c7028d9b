import { startRegistry, type RegAgent } from './harness';

const ROOT = 'a0f1c2d3-0000-4000-8000-000000000001';

describe('ACL enforcement (spec sections 4 and 5)', () => {
  let agent: RegAgent;
  const as = (token: string | undefined) => (method: string, path: string, body?: unknown) =>
    agent.http(method, path, body, token ? { 'X-Reg-Token': token } : {});
  const root = (method: string, path: string, body?: unknown) => as(ROOT)(method, path, body);

  /** A token holding one new policy with these rules (in `ns`, linked policy in `policyNs`). */
  const tokenWith = async (rules: string, ns = 'default', policyNs = 'default'): Promise<string> => {
    const name = `p${Math.random().toString(36).slice(2, 10)}`;
    const p = await root('PUT', `/v1/acl/policy?ns=${policyNs}`, { Name: name, Rules: rules });
    if (p.status !== 200) throw new Error(p.text);
    const t = await root('PUT', `/v1/acl/token?ns=${ns}`, { Policies: [{ Name: name }] });
    if (t.status !== 200) throw new Error(t.text);
    return t.json<{ SecretID: string }>().SecretID;
  };

  beforeAll(async () => {
    agent = await startRegistry({ acl: { enabled: true, bootstrapToken: ROOT } });
    expect((await root('PUT', '/v1/namespace', { Name: 'team' })).status).toBe(200);
    expect((await root('PUT', '/v1/namespace', { Name: 'other' })).status).toBe(200);
  });
  afterAll(() => agent.close());

  test('no token acts as the anonymous token; an unknown token is "ACL not found"; the bootstrap token manages', async () => {
    const anon = await agent.http('GET', '/v1/acl/auth-methods');
    expect(anon.status).toBe(403);
    expect(anon.text).toMatch(/^Permission denied: the anonymous token .* lacks permission 'acl:read'/);
    const unknown = await as('nope')('GET', '/v1/acl/auth-methods');
    expect(unknown.status).toBe(403);
    expect(unknown.text).toBe('ACL not found');
    expect((await root('GET', '/v1/acl/auth-methods')).status).toBe(200);
    const self = await root('GET', '/v1/acl/token/self');
    expect(self.json()).toMatchObject({ SecretID: ROOT, Policies: [{ Name: 'global-management' }] });
    const again = await agent.http('PUT', '/v1/acl/bootstrap');
    expect(again.status).toBe(403);
    expect(again.text).toContain('ACL bootstrap no longer allowed');
  });

  test('token precedence: the token parameter beats the header; on peering writes the body Token beats both', async () => {
    expect(
      (await agent.http('GET', `/v1/acl/auth-methods?token=${ROOT}`, undefined, { 'X-Reg-Token': 'bogus' }))
        .status,
    ).toBe(200);
    expect(
      (await agent.http('GET', '/v1/acl/auth-methods?token=bogus', undefined, { 'X-Reg-Token': ROOT }))
        .status,
    ).toBe(403);
    expect(
      (await agent.http('GET', '/v1/acl/auth-methods', undefined, { authorization: `Bearer ${ROOT}` }))
        .status,
    ).toBe(200);
    const bodyWins = await agent.http(
      'POST',
      '/v1/peering/token?token=bogus',
      { PeerName: 'p1', Token: ROOT },
      { 'X-Reg-Token': 'bogus' },
    );
    expect(bodyWins.status).toBe(200);
    const badBody = await agent.http(
      'POST',
      '/v1/peering/token',
      { PeerName: 'p2', Token: 'bogus' },
      { 'X-Reg-Token': ROOT },
    );
    expect(badBody.status).toBe(403);
    expect(badBody.text).toBe('ACL not found');
  });

  test('acl:read lists auth methods but may not write them (403 names acl:write)', async () => {
    const reader = await tokenWith('acl = "read"');
    expect((await as(reader)('GET', '/v1/acl/auth-methods')).status).toBe(200);
    const write = await as(reader)('PUT', '/v1/acl/auth-method', {
      Name: 'm',
      Type: 'jwt',
      Config: { JWKSURL: 'https://x' },
    });
    expect(write.status).toBe(403);
    expect(write.text).toContain("lacks permission 'acl:write'");
    const writer = await tokenWith('{"acl": "write"}');
    expect(
      (
        await as(writer)('PUT', '/v1/acl/auth-method', {
          Name: 'm',
          Type: 'jwt',
          Config: { JWKSURL: 'https://x' },
        })
      ).status,
    ).toBe(200);
    expect((await as(writer)('DELETE', '/v1/acl/auth-method/m')).text).toBe('true');
  });

  test('namespaces: operator:write to create; namespace:<name>:read or operator:read to read; lists filtered', async () => {
    const nsReader = await tokenWith('namespace "team" { policy = "read" }');
    expect((await as(nsReader)('GET', '/v1/namespace/team')).status).toBe(200);
    const denied = await as(nsReader)('GET', '/v1/namespace/other');
    expect(denied.status).toBe(403);
    expect(denied.text).toContain("'operator:read' or 'namespace:other:read'");
    const list = await as(nsReader)('GET', '/v1/namespaces');
    expect(list.json<{ Name: string }[]>().map((n) => n.Name)).toEqual(['team']);
    expect(list.headers.get('x-reg-results-filtered-by-acls')).toBe('true');
    expect((await as(nsReader)('PUT', '/v1/namespace', { Name: 'mine' })).status).toBe(403);

    const operator = await tokenWith('operator = "read"');
    const all = await as(operator)('GET', '/v1/namespaces');
    expect(all.json<{ Name: string }[]>().map((n) => n.Name)).toEqual(['default', 'other', 'team']);
    expect(all.headers.get('x-reg-results-filtered-by-acls')).toBeNull();
    expect((await as(operator)('PUT', '/v1/namespace', { Name: 'mine' })).status).toBe(403);
    const opWriter = await tokenWith('operator = "write"');
    expect((await as(opWriter)('PUT', '/v1/namespace', { Name: 'mine' })).status).toBe(200);
  });

  test('discovery chain needs service:read; exact rules beat prefixes', async () => {
    const reader = await tokenWith(
      'service_prefix "" { policy = "read" }\nservice "secret" { policy = "deny" }',
    );
    expect((await as(reader)('GET', '/v1/discovery-chain/web')).status).toBe(200);
    const secret = await as(reader)('GET', '/v1/discovery-chain/secret');
    expect(secret.status).toBe(403);
    expect(secret.text).toContain("'service:secret:read'");
    expect((await agent.http('GET', '/v1/discovery-chain/web')).status).toBe(403);
  });

  test('bad policy rules are a 400 naming Rules', async () => {
    const res = await root('PUT', '/v1/acl/policy', {
      Name: 'broken',
      Rules: 'service "web" { policy = "sometimes" }',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Rules: invalid service "web" policy "sometimes"/);
    const syntax = await root('PUT', '/v1/acl/policy', { Name: 'broken', Rules: 'acl = ' });
    expect(syntax.status).toBe(400);
    expect(syntax.text).toMatch(/^Rules: failed to parse/);
    const badName = await root('PUT', '/v1/acl/policy', { Name: 'has space' });
    expect(badName.status).toBe(400);
    expect(badName.text).toMatch(/^Name: .*rule: policy-name/);
  });

  test("namespace defaults count only where the token's own rules say nothing; the token namespace is inherited", async () => {
    const defaults = await root('PUT', '/v1/acl/policy', {
      Name: 'team-default',
      Rules: 'service_prefix "" { policy = "write" }',
    });
    expect(defaults.status).toBe(200);
    expect(
      (await root('PUT', '/v1/namespace/team', { ACLs: { PolicyDefaults: [{ Name: 'team-default' }] } }))
        .status,
    ).toBe(200);
    const t = await tokenWith('service "web" { policy = "read" }', 'team', 'team');
    const call = as(t);
    // The direct read grant on web wins over the default write grant.
    const web = await call('PUT', '/v1/config', { Kind: 'service-defaults', Name: 'web', Protocol: 'http' });
    expect(web.status).toBe(403);
    expect(web.text).toContain("'service:web:write'");
    // Nothing direct covers api: the namespace default decides.
    expect(
      (await call('PUT', '/v1/config', { Kind: 'service-defaults', Name: 'api', Protocol: 'http' })).status,
    ).toBe(200);
    expect(agent.store.get('reg/config_entries', 'team/service-defaults/api')).toBeDefined();
    const chain = await call('GET', '/v1/discovery-chain/web');
    expect(chain.status).toBe(200);
    expect(chain.json<{ Chain: { Namespace: string } }>().Chain.Namespace).toBe('team');
    // Neither covers ACL management: the agent default (deny) decides.
    expect((await call('GET', '/v1/acl/auth-methods')).status).toBe(403);
    // The same token in another namespace has no defaults to fall back on.
    expect((await call('PUT', '/v1/config?ns=other', { Kind: 'service-defaults', Name: 'api' })).status).toBe(
      403,
    );
  });

  test('peering lists hide entries from tokens without peering read, and say so', async () => {
    await root('POST', '/v1/peering/token', { PeerName: 'visible' });
    const plain = await tokenWith('service_prefix "" { policy = "read" }');
    const hidden = await as(plain)('GET', '/v1/peerings');
    expect(hidden.status).toBe(200);
    expect(hidden.json()).toEqual([]);
    expect(hidden.headers.get('x-reg-results-filtered-by-acls')).toBe('true');
    const peeringReader = await tokenWith('peering = "read"');
    const shown = await as(peeringReader)('GET', '/v1/peerings');
    expect(shown.json<{ Name: string }[]>().map((p) => p.Name)).toContain('visible');
    expect(shown.headers.get('x-reg-results-filtered-by-acls')).toBeNull();
  });

  test('tokens: expiration bounds, links by name, deleted policies drop out of links', async () => {
    const tooShort = await root('PUT', '/v1/acl/token', { ExpirationTTL: '10s' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.text).toMatch(/^ExpirationTTL: .*rule: token-ttl-bounds/);
    const p = (await root('PUT', '/v1/acl/policy', { Name: 'short-lived', Rules: 'acl = "read"' })).json<{
      ID: string;
    }>();
    const t = await root('PUT', '/v1/acl/token', {
      Policies: [{ Name: 'short-lived' }],
      ExpirationTTL: '1h',
    });
    const tok = t.json<{
      AccessorID: string;
      SecretID: string;
      Policies: unknown[];
      ExpirationTime: string;
      CreateTime: string;
    }>();
    expect(tok.Policies).toEqual([{ ID: p.ID, Name: 'short-lived' }]);
    expect(Date.parse(tok.ExpirationTime) - Date.parse(tok.CreateTime)).toBe(3_600_000);
    expect((await as(tok.SecretID)('GET', '/v1/acl/auth-methods')).status).toBe(200);
    expect((await root('DELETE', `/v1/acl/policy/${p.ID}`)).text).toBe('true');
    const after = (await root('GET', `/v1/acl/token/${tok.AccessorID}`)).json<Record<string, unknown>>();
    expect(after['Policies']).toBeUndefined();
    expect((await as(tok.SecretID)('GET', '/v1/acl/auth-methods')).status).toBe(403);
    const unknownLink = await root('PUT', '/v1/acl/token', { Policies: [{ Name: 'nope' }] });
    expect(unknownLink.status).toBe(400);
    expect(unknownLink.text).toMatch(/^Policies\[0\]: no policy named "nope"/);
  });
});

describe('ACL bootstrap', () => {
  test('bootstrap mints one management token, once', async () => {
    const agent = await startRegistry({ acl: { enabled: true } });
    try {
      const first = await agent.http('PUT', '/v1/acl/bootstrap');
      expect(first.status).toBe(200);
      const token = first.json<{ SecretID: string; Policies: { Name: string }[] }>();
      expect(token.Policies).toEqual([expect.objectContaining({ Name: 'global-management' })]);
      expect(
        (await agent.http('GET', '/v1/namespaces', undefined, { 'X-Reg-Token': token.SecretID })).status,
      ).toBe(200);
      const second = await agent.http('PUT', '/v1/acl/bootstrap');
      expect(second.status).toBe(403);
    } finally {
      await agent.close();
    }
  });
});
