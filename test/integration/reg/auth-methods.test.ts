import { NotFoundError } from '../../../src/api/errors';
import { jwtSigner } from './jwt';
import { startRegistry, type RegAgent } from './harness';

const k8sConfig = {
  Host: 'https://k8s.example:6443',
  CACert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
};

describe('ACL auth methods (spec 4.1)', () => {
  let agent: RegAgent;
  beforeAll(async () => {
    agent = await startRegistry();
  });
  afterAll(() => agent.close());

  const put = (path: string, body: unknown) => agent.http('PUT', path, body);

  test('create returns the method with indexes; read returns Config; list returns stubs without Config', async () => {
    const reg = agent.client();
    const created = await reg.authMethods.create({
      Name: 'minikube',
      Type: 'kubernetes',
      DisplayName: 'Minikube',
      Description: 'dev cluster',
      MaxTokenTTL: '60s',
      TokenLocality: 'global',
      Config: k8sConfig,
    });
    expect(created).toMatchObject({
      Name: 'minikube',
      Type: 'kubernetes',
      DisplayName: 'Minikube',
      MaxTokenTTL: '1m0s',
      TokenLocality: 'global',
      Namespace: 'default',
    });
    expect(created.CreateIndex).toBeGreaterThan(0);
    expect(created.ModifyIndex).toBe(created.CreateIndex);

    const { value, meta } = await reg.authMethods.read('minikube');
    expect(value.Config).toEqual(k8sConfig);
    expect(meta.index).toBe(created.ModifyIndex);
    expect(meta.knownLeader).toBe(true);

    const list = await reg.authMethods.list();
    const stub = list.value.find((m) => m.Name === 'minikube')!;
    expect(stub).toMatchObject({ Name: 'minikube', Type: 'kubernetes', Description: 'dev cluster' });
    expect(stub).not.toHaveProperty('Config');
  });

  test('read of a method that does not exist is 404', async () => {
    await expect(agent.client().authMethods.read('nope')).rejects.toBeInstanceOf(NotFoundError);
    const res = await agent.http('GET', '/v1/acl/auth-method/nope');
    expect(res.status).toBe(404);
  });

  test.each([
    [{ Name: 'bad name!', Type: 'kubernetes', Config: k8sConfig }, 'Name', 'auth-method-name'],
    [{ Type: 'kubernetes', Config: k8sConfig }, 'Name', 'required'],
    [{ Name: 'x1', Config: k8sConfig }, 'Type', 'required'],
    [{ Name: 'x1', Type: 'kubernetes' }, 'Config', 'required'],
    [
      { Name: 'x1', Type: 'kubernetes', Config: k8sConfig, MaxTokenTTL: '30s' },
      'MaxTokenTTL',
      'token-ttl-bounds',
    ],
    [
      { Name: 'x1', Type: 'kubernetes', Config: k8sConfig, MaxTokenTTL: '25h' },
      'MaxTokenTTL',
      'token-ttl-bounds',
    ],
    [{ Name: 'x1', Type: 'kubernetes', Config: k8sConfig, MaxTokenTTL: 'soon' }, 'MaxTokenTTL', 'duration'],
    [
      {
        Name: 'x1',
        Type: 'oidc',
        Config: {
          OIDCDiscoveryURL: 'https://idp',
          OIDCClientID: 'a',
          OIDCClientSecret: 'b',
          AllowedRedirectURIs: ['http://localhost'],
        },
      },
      'MaxTokenTTL',
      'oidc-nonzero',
    ],
    [
      { Name: 'x1', Type: 'kubernetes', Config: k8sConfig, TokenLocality: 'planet' },
      'TokenLocality',
      'one-of',
    ],
    [{ Name: 'x1', Type: 'ldap', Config: {} }, 'Type', 'one-of'],
    [{ Name: 'x1', Type: 'kubernetes', Config: { CACert: k8sConfig.CACert } }, 'Config.Host', 'required'],
    [{ Name: 'x1', Type: 'jwt', Config: {} }, 'Config', 'jwt-key-source'],
    [
      {
        Name: 'x1',
        Type: 'kubernetes',
        Config: k8sConfig,
        NamespaceRules: [{ Selector: 'a ==', BindNamespace: 'x' }],
      },
      'NamespaceRules[0].Selector',
      'selector',
    ],
    [
      {
        Name: 'x1',
        Type: 'kubernetes',
        Config: k8sConfig,
        NamespaceRules: [{ Selector: '', BindNamespace: 'x-${' }],
      },
      'NamespaceRules[0].BindNamespace',
      'template',
    ],
  ])('create rejects %j: 400 naming %s', async (body, field, ruleName) => {
    const res = await put('/v1/acl/auth-method', body);
    expect(res.status).toBe(400);
    expect(res.text).toContain(`${field}:`);
    expect(res.text).toContain(`rule: ${ruleName}`);
    expect(agent.store.get('reg/auth_methods', 'default/x1')).toBeUndefined();
  });

  test('MaxTokenTTL accepts exactly 1 minute and 24 hours; oidc with a nonzero TTL is fine', async () => {
    expect(
      (
        await put('/v1/acl/auth-method', {
          Name: 'ttl-min',
          Type: 'kubernetes',
          Config: k8sConfig,
          MaxTokenTTL: '1m',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await put('/v1/acl/auth-method', {
          Name: 'ttl-max',
          Type: 'kubernetes',
          Config: k8sConfig,
          MaxTokenTTL: '24h',
        })
      ).json(),
    ).toMatchObject({ MaxTokenTTL: '24h0m0s' });
    const oidc = await put('/v1/acl/auth-method', {
      Name: 'idp',
      Type: 'oidc',
      MaxTokenTTL: '5m',
      Config: {
        OIDCDiscoveryURL: 'https://idp',
        OIDCClientID: 'a',
        OIDCClientSecret: 'b',
        AllowedRedirectURIs: ['http://localhost'],
      },
    });
    expect(oidc.status).toBe(200);
  });

  test('Name is unique', async () => {
    const body = { Name: 'dup', Type: 'kubernetes', Config: k8sConfig };
    expect((await put('/v1/acl/auth-method', body)).status).toBe(200);
    const again = await put('/v1/acl/auth-method', body);
    expect(again.status).toBe(400);
    expect(again.text).toContain('rule: unique');
  });

  test('update: Type kept when absent, a different Type or Name is rejected, fields replaced', async () => {
    const reg = agent.client();
    await reg.authMethods.create({ Name: 'upd', Type: 'kubernetes', Description: 'one', Config: k8sConfig });
    const updated = await reg.authMethods.update('upd', {
      Description: 'two',
      Config: { ...k8sConfig, Host: 'https://other:6443' },
    });
    expect(updated).toMatchObject({ Name: 'upd', Type: 'kubernetes', Description: 'two' });
    expect(updated.ModifyIndex).toBeGreaterThan(updated.CreateIndex);

    const otherType = await put('/v1/acl/auth-method/upd', { Type: 'jwt', Config: { JWKSURL: 'https://x' } });
    expect(otherType.status).toBe(400);
    expect(otherType.text).toMatch(/^Type: cannot change from "kubernetes" to "jwt".*rule: immutable/);

    const otherName = await put('/v1/acl/auth-method/upd', { Name: 'renamed', Config: k8sConfig });
    expect(otherName.status).toBe(400);
    expect(otherName.text).toContain('rule: matches-path');

    const noConfig = await put('/v1/acl/auth-method/upd', { Description: 'three' });
    expect(noConfig.status).toBe(400);
    expect(noConfig.text).toContain('Config:');
    expect((await reg.authMethods.read('upd')).value.Description).toBe('two');

    const missing = await put('/v1/acl/auth-method/ghost', { Config: k8sConfig });
    expect(missing.status).toBe(404);
  });

  test('update of an oidc method to MaxTokenTTL 0 is rejected using the stored Type', async () => {
    const cfg = {
      OIDCDiscoveryURL: 'https://idp',
      OIDCClientID: 'a',
      OIDCClientSecret: 'b',
      AllowedRedirectURIs: ['http://localhost'],
    };
    expect(
      (await put('/v1/acl/auth-method', { Name: 'idp2', Type: 'oidc', MaxTokenTTL: '5m', Config: cfg }))
        .status,
    ).toBe(200);
    const res = await put('/v1/acl/auth-method/idp2', { Config: cfg });
    expect(res.status).toBe(400);
    expect(res.text).toContain('rule: oidc-nonzero');
  });

  test('NamespaceRules are only allowed on methods in the default namespace', async () => {
    expect((await put('/v1/namespace', { Name: 'team' })).status).toBe(200);
    const res = await put('/v1/acl/auth-method?ns=team', {
      Name: 'scoped',
      Type: 'kubernetes',
      Config: k8sConfig,
      NamespaceRules: [{ Selector: '', BindNamespace: 'team' }],
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('rule: default-namespace-only');
    const inTeam = await put('/v1/acl/auth-method', {
      Name: 'scoped',
      Type: 'kubernetes',
      Config: k8sConfig,
      Namespace: 'team',
    });
    expect(inTeam.json()).toMatchObject({ Namespace: 'team' });
    expect((await agent.http('GET', '/v1/acl/auth-method/scoped')).status).toBe(404);
    expect(
      (await agent.http('GET', '/v1/acl/auth-method/scoped', undefined, { 'X-Reg-Namespace': 'team' }))
        .status,
    ).toBe(200);
    const all = (await agent.http('GET', '/v1/acl/auth-methods?ns=*')).json<
      { Name: string; Namespace: string }[]
    >();
    expect(all).toEqual(
      expect.arrayContaining([expect.objectContaining({ Name: 'scoped', Namespace: 'team' })]),
    );
  });

  test('delete answers true, then false; it removes binding rules and tokens minted by the method', async () => {
    const signer = jwtSigner();
    const reg = agent.client();
    await reg.authMethods.create({
      Name: 'ci',
      Type: 'jwt',
      MaxTokenTTL: '10m',
      Config: {
        JWTValidationPubKeys: [signer.publicKeyPem],
        BoundIssuer: 'ci',
        ClaimMappings: { service: 'service' },
      },
    });
    const rule = await reg.acl.bindingRules.create({
      AuthMethod: 'ci',
      BindType: 'service',
      BindName: '${value.service}',
      Selector: 'value.service != ""',
    });
    const login = await agent.http('POST', '/v1/acl/login', {
      AuthMethod: 'ci',
      BearerToken: signer.sign({ iss: 'ci', service: 'web' }),
    });
    expect(login.status).toBe(200);
    const token = login.json<{
      AccessorID: string;
      SecretID: string;
      AuthMethod: string;
      ExpirationTime: string;
      CreateTime: string;
      ServiceIdentities: unknown[];
      Local: boolean;
    }>();
    expect(token).toMatchObject({
      AuthMethod: 'ci',
      Local: true,
      ServiceIdentities: [{ ServiceName: 'web' }],
    });
    expect(Date.parse(token.ExpirationTime) - Date.parse(token.CreateTime)).toBe(10 * 60_000);

    expect(await reg.authMethods.delete('ci')).toBe(true);
    expect(agent.store.get('reg/acl_binding_rules', rule.ID)).toBeUndefined();
    expect(agent.store.get('reg/acl_tokens', token.AccessorID)).toBeUndefined();
    // As Consul: deleting a method that is gone already answers true.
    expect(await reg.authMethods.delete('ci')).toBe(true);
  });

  test('login: the first matching namespace rule picks the token namespace', async () => {
    const signer = jwtSigner();
    await put('/v1/namespace', { Name: 'apps' });
    await put('/v1/namespace', { Name: 'apps-web' });
    const created = await put('/v1/acl/auth-method', {
      Name: 'ns-rules',
      Type: 'jwt',
      Config: {
        JWTValidationPubKeys: [signer.publicKeyPem],
        ClaimMappings: { team: 'team', service: 'service' },
      },
      NamespaceRules: [
        {
          Selector: 'value.team == "apps" and value.service == "web"',
          BindNamespace: 'apps-${value.service}',
        },
        { Selector: 'value.team == "apps"', BindNamespace: 'apps' },
      ],
    });
    expect(created.status).toBe(200);
    await put('/v1/acl/binding-rule', {
      AuthMethod: 'ns-rules',
      BindType: 'service',
      BindName: '${value.service}',
    });
    const login = async (claims: Record<string, unknown>) =>
      (
        await agent.http('POST', '/v1/acl/login', {
          AuthMethod: 'ns-rules',
          BearerToken: signer.sign(claims),
        })
      ).json<{ Namespace: string }>();
    expect((await login({ team: 'apps', service: 'web' })).Namespace).toBe('apps-web');
    expect((await login({ team: 'apps', service: 'db' })).Namespace).toBe('apps');
    expect((await login({ team: 'other', service: 'db' })).Namespace).toBe('default');
    const bad = await agent.http('POST', '/v1/acl/login', {
      AuthMethod: 'ns-rules',
      BearerToken: jwtSigner().sign({ team: 'apps' }),
    });
    expect(bad.status).toBe(403);
  });

  test('a blocking read of a method wakes when it is updated', async () => {
    const reg = agent.client();
    const m = await reg.authMethods.create({ Name: 'watched', Type: 'kubernetes', Config: k8sConfig });
    const started = Date.now();
    const waiting = reg.authMethods.read('watched', { index: m.ModifyIndex, wait: '5s' });
    setTimeout(
      () => void reg.authMethods.update('watched', { Description: 'changed', Config: k8sConfig }),
      50,
    );
    const { value, meta } = await waiting;
    expect(value.Description).toBe('changed');
    expect(meta.index).toBeGreaterThan(m.ModifyIndex);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
