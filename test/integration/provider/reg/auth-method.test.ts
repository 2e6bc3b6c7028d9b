import { NotFoundError } from '../../../../src/api/errors';
import { RegApplyError } from '../../../../src/provider/reg/redact';
import { expectNoSecret, failureText, pathsOf, startRegFixture, type RegFixture } from './fixture';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBdevca\n-----END CERTIFICATE-----';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.service-account-secret-jwt.c2lnbmF0dXJl';
const ROTATED = 'eyJhbGciOiJSUzI1NiJ9.rotated-secret-jwt.c2lnbmF0dXJl';

const k8s = (overrides: Record<string, unknown> = {}) => ({
  name: 'minikube',
  type: 'kubernetes',
  display_name: 'Minikube',
  description: 'dev cluster',
  max_token_ttl: '60s',
  token_locality: 'global',
  config: { Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: JWT },
  namespace_rule: [{ selector: 'serviceaccount.namespace=="team-a"', bind_namespace: 'team-a' }],
  ...overrides,
});

describe('reg_acl_auth_method against the dev agent', () => {
  let f: RegFixture;
  const texts: string[] = [];
  beforeAll(async () => {
    f = await startRegFixture();
    await f.client.namespaces.create({ Name: 'team-a' });
    await f.client.namespaces.create({ Name: 'team-b' });
  });
  afterAll(async () => {
    // Nothing any handler said, and nothing the agent logged, carries a Config secret.
    expectNoSecret([...texts, ...f.progress, ...f.logs], [JWT, ROTATED, 'SECRET-IN-HOST']);
    await f.stop();
  });

  const am = () => f.resource('reg_acl_auth_method');
  const read = async (name: string, namespace?: string) =>
    (await f.client.authMethods.read(name, namespace ? { namespace } : {})).value;

  test('create, read without drift ("60s" is "1m"), update in place, drift, destroy', async () => {
    const config = k8s();
    const created = await f.converge('reg_acl_auth_method', null, config, 'create');
    expect(created).toEqual({
      id: 'minikube',
      ...config,
      namespace: 'default',
      modify_index: (await read('minikube')).ModifyIndex,
    });
    const server = await read('minikube');
    expect(server).toMatchObject({
      Type: 'kubernetes',
      DisplayName: 'Minikube',
      MaxTokenTTL: '1m0s',
      TokenLocality: 'global',
      Namespace: 'default',
      NamespaceRules: [{ Selector: 'serviceaccount.namespace=="team-a"', BindNamespace: 'team-a' }],
    });
    expect(server.Config).toEqual(config.config);

    const refreshed = await am().read(created!);
    expect(refreshed).toEqual(created);
    expect((await am().plan({ prior: refreshed, config })).action).toBe('noop');
    expect((await am().plan({ prior: refreshed, config: { ...config, max_token_ttl: '1m' } })).action).toBe(
      'noop',
    );
    // Config given as JSON text, keys in another order, is the same Config.
    const asText = JSON.stringify({ ServiceAccountJWT: JWT, CACert: CA, Host: 'https://k8s.example:8443' });
    expect((await am().plan({ prior: refreshed, config: { ...config, config: asText } })).action).toBe(
      'noop',
    );

    const next = k8s({
      description: 'dev cluster, rotated',
      max_token_ttl: '2m',
      token_locality: null,
      config: { Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: ROTATED },
      namespace_rule: null,
    });
    const plan = await am().plan({ prior: refreshed, config: next });
    expect(plan.action).toBe('update');
    const updated = await f.converge('reg_acl_auth_method', refreshed, next, 'update');
    expect(updated).toMatchObject({ max_token_ttl: '2m', token_locality: null, namespace_rule: null });
    const after = await read('minikube');
    expect(after.MaxTokenTTL).toBe('2m0s');
    expect(after.Config?.['ServiceAccountJWT']).toBe(ROTATED);
    expect(after.NamespaceRules ?? []).toEqual([]);
    expect(after.CreateIndex).toBe(server.CreateIndex);

    // Out of band: someone edits the description and the TTL.
    await f.client.authMethods.update('minikube', {
      Type: 'kubernetes',
      DisplayName: 'Minikube',
      Description: 'hand edit',
      MaxTokenTTL: '10m',
      Config: after.Config!,
    });
    const drifted = await am().read(updated!);
    expect(drifted).toMatchObject({ description: 'hand edit', max_token_ttl: '10m0s' });
    expect((await am().plan({ prior: drifted, config: next })).action).toBe('update');
    const repaired = await f.converge('reg_acl_auth_method', drifted, next, 'update');
    expect((await read('minikube')).Description).toBe('dev cluster, rotated');

    // Deleted out of band: gone, and the plan creates it again.
    await f.client.authMethods.delete('minikube');
    expect(await am().read(repaired!)).toBeNull();
    expect((await am().plan({ prior: null, config: next })).action).toBe('create');

    const recreated = await f.converge('reg_acl_auth_method', null, next, 'create');
    expect(await f.converge('reg_acl_auth_method', recreated, null, 'delete')).toBeNull();
    await expect(f.client.authMethods.read('minikube')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('changing name, type or namespace replaces the method', async () => {
    const first = await f.converge(
      'reg_acl_auth_method',
      null,
      k8s({ name: 'swap', namespace_rule: null }),
      'create',
    );
    const jwtConfig = k8s({
      name: 'swap',
      type: 'jwt',
      namespace_rule: null,
      config: { JWTValidationPubKeys: ['-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----'] },
    });
    const plan = await am().plan({ prior: first, config: jwtConfig });
    expect(plan.action).toBe('replace');
    expect(plan.replacePaths).toEqual([['type']]);
    const second = await f.converge('reg_acl_auth_method', first, jwtConfig, 'replace');
    expect((await read('swap')).Type).toBe('jwt');

    const moved = { ...jwtConfig, namespace: 'team-b' };
    expect((await am().plan({ prior: second, config: moved })).replacePaths).toEqual([['namespace']]);
    const third = await f.converge('reg_acl_auth_method', second, moved, 'replace');
    expect(third).toMatchObject({ namespace: 'team-b' });
    await expect(f.client.authMethods.read('swap')).rejects.toBeInstanceOf(NotFoundError);
    expect((await read('swap', 'team-b')).Type).toBe('jwt');
    // Leaving namespace unset keeps the recorded one: no replacement.
    expect((await am().plan({ prior: third, config: jwtConfig })).action).toBe('noop');

    const renamed = { ...moved, name: 'swapped' };
    expect((await am().plan({ prior: third, config: renamed })).replacePaths).toEqual([['name']]);
    const fourth = await f.converge('reg_acl_auth_method', third, renamed, 'replace');
    await expect(f.client.authMethods.read('swap', { namespace: 'team-b' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await f.converge('reg_acl_auth_method', fourth, null, 'delete');
    await expect(f.client.authMethods.read('swapped', { namespace: 'team-b' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  test('import by name, or namespace/name, plans no change against the same configuration', async () => {
    await f.client.authMethods.create({
      Name: 'outside',
      Type: 'kubernetes',
      MaxTokenTTL: '1h',
      Config: { Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: JWT },
    });
    const state = await am().import('outside');
    expect(state).toEqual({
      id: 'outside',
      name: 'outside',
      type: 'kubernetes',
      display_name: null,
      description: null,
      max_token_ttl: '1h0m0s',
      token_locality: null,
      config: { Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: JWT },
      namespace: 'default',
      namespace_rule: null,
      modify_index: (await read('outside')).ModifyIndex,
    });
    const config = {
      name: 'outside',
      type: 'kubernetes',
      max_token_ttl: '60m',
      config: JSON.stringify({ Host: 'https://k8s.example:8443', CACert: CA, ServiceAccountJWT: JWT }),
    };
    expect((await am().plan({ prior: state, config })).action).toBe('noop');

    await f.client.authMethods.create(
      { Name: 'in-b', Type: 'kubernetes', Config: { Host: 'https://k8s.example:8443', CACert: CA } },
      { namespace: 'team-b' },
    );
    expect(await am().import('team-b/in-b')).toMatchObject({ name: 'in-b', namespace: 'team-b' });
    texts.push(await failureText(am().import('in-b')));
    await expect(am().import('in-b')).rejects.toThrow(/Cannot import auth method "in-b"/);
  });

  test('validation: TTL bounds, oidc needs a TTL, locality, name, config shape, namespace rules', () => {
    const v = (c: Record<string, unknown>) => pathsOf(am().validate(c));
    expect(v(k8s())).toEqual([]);
    expect(v(k8s({ max_token_ttl: '30s' }))).toEqual(['max_token_ttl']);
    expect(v(k8s({ max_token_ttl: '25h' }))).toEqual(['max_token_ttl']);
    expect(v(k8s({ max_token_ttl: '24h' }))).toEqual([]);
    expect(v(k8s({ max_token_ttl: 'soon' }))).toEqual(['max_token_ttl']);
    expect(v(k8s({ max_token_ttl: null }))).toEqual([]);
    expect(v(k8s({ type: 'oidc', max_token_ttl: null }))).toEqual(['max_token_ttl']);
    expect(v(k8s({ type: 'oidc', max_token_ttl: '0s' }))).toEqual(['max_token_ttl']);
    expect(v(k8s({ type: 'oidc', max_token_ttl: '5m' }))).toEqual([]);
    expect(v(k8s({ token_locality: 'everywhere' }))).toEqual(['token_locality']);
    expect(v(k8s({ name: 'has space' }))).toEqual(['name']);
    expect(v(k8s({ type: '' }))).toEqual(['type']);
    expect(v(k8s({ config: null }))).toEqual(['config']);
    expect(v(k8s({ config: '[1,2]' }))).toEqual(['config']);
    expect(v(k8s({ config: 42 }))).toEqual(['config']);
    expect(v(k8s({ namespace_rule: [{ selector: 'x' }] }))).toEqual(['namespace_rule.0.bind_namespace']);
    expect(v(k8s({ namespace: 'team-b' }))).toEqual(['namespace_rule']);
    expect(v(k8s({ namespace: 'team-b', namespace_rule: null }))).toEqual([]);
    expect(v(k8s({ namespace: 'default' }))).toEqual([]);

    const ttl = am().validate(k8s({ max_token_ttl: '30s' }))[0]!;
    expect(ttl.detail).toMatch(/at least 1m0s and at most 24h0m0s/);
    const oidc = am().validate(k8s({ type: 'oidc', max_token_ttl: null }))[0]!;
    expect(oidc.detail).toMatch(/nonzero when Type is "oidc"/);
    // A bad config is described, never quoted.
    const bad = am().validate(k8s({ config: `["${JWT}"]` }));
    texts.push(...bad.map((d) => JSON.stringify(d)));
  });

  test('no secret in errors: a registry message quoting a Config value is masked', async () => {
    // The agent quotes Config.Host when it is not a URL; put a secret there and check it never comes out.
    const config = k8s({
      name: 'leaky',
      namespace_rule: null,
      config: { Host: 'SECRET-IN-HOST', CACert: CA, ServiceAccountJWT: JWT },
    });
    const text = await failureText(f.converge('reg_acl_auth_method', null, config, 'create'));
    texts.push(text);
    expect(text).toMatch(/Error creating auth method "leaky"/);
    expect(text).toMatch(/Config\.Host/);
    expect(text).toContain('[redacted]');

    // Updating with a broken config, and reading a method whose namespace is being deleted, fail cleanly too.
    const ok = await f.converge(
      'reg_acl_auth_method',
      null,
      k8s({ name: 'leaky', namespace_rule: null }),
      'create',
    );
    const broken = k8s({
      name: 'leaky',
      namespace_rule: null,
      config: { Host: 'SECRET-IN-HOST', CACert: CA, ServiceAccountJWT: ROTATED },
    });
    const err = await f.converge('reg_acl_auth_method', ok, broken, 'update').catch((e: unknown) => e);
    // The update was refused: the method is as it was, and the error says so by carrying the prior state.
    expect(err).toBeInstanceOf(RegApplyError);
    expect((err as RegApplyError).state).toEqual(ok);
    expect((await read('leaky')).Config?.['ServiceAccountJWT']).toBe(JWT);
    texts.push(await failureText(Promise.reject(err)));
    await f.converge('reg_acl_auth_method', ok, null, 'delete');
  });
});
