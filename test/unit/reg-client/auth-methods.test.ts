import { NotFoundError, RequestValidationError, ResponseSchemaError } from '../../../src/api';
import { orNull } from '../../../src/api/reg';
import { authMethod, bodyOf, harness, type Harness } from './harness';

describe('reg client: auth methods', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('creates with PUT /v1/acl/auth-method, the body as given and ns from the namespace option', async () => {
    h.answer(authMethod);
    const req = { Name: 'minikube', Type: 'kubernetes', Config: authMethod.Config, MaxTokenTTL: '5m' };
    const created = await h.client().authMethods.create(req, { namespace: 'team-1' });
    const r = h.last();
    expect(r.method).toBe('PUT');
    expect(r.url.pathname).toBe('/v1/acl/auth-method');
    expect(r.url.searchParams.get('ns')).toBe('team-1');
    expect(r.headers['content-type']).toBe('application/json');
    expect(bodyOf(r)).toEqual(req);
    expect(created.CreateIndex).toBe(15);
    expect(created.Config).toEqual(authMethod.Config);
  });

  it('reads with its meta: index from X-Reg-Index, blocking parameters passed on', async () => {
    h.answer(authMethod, { 'X-Reg-Index': '77', 'X-Reg-KnownLeader': 'true' });
    const { value, meta } = await h.client().authMethods.read('minikube', { index: 70, wait: '5s' });
    const r = h.last();
    expect(r.method).toBe('GET');
    expect(r.url.pathname).toBe('/v1/acl/auth-method/minikube');
    expect(r.url.searchParams.get('index')).toBe('70');
    expect(r.url.searchParams.get('wait')).toBe('5s');
    expect(value.Name).toBe('minikube');
    expect(meta.index).toBe(77);
    expect(meta.knownLeader).toBe(true);
  });

  it('raises NotFoundError for a missing method; orNull gives the Go client nil instead', async () => {
    h.answer('ACL auth method not found', {}, 404);
    await expect(h.client().authMethods.read('gone')).rejects.toBeInstanceOf(NotFoundError);
    await expect(orNull(h.client().authMethods.read('gone'))).resolves.toBeNull();
  });

  it('names the field when a response breaks the schema', async () => {
    h.answer({ ...authMethod, CreateIndex: 'fifteen' });
    const err = await h
      .client()
      .authMethods.read('minikube')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseSchemaError);
    expect((err as ResponseSchemaError).field).toBe('CreateIndex');
  });

  it('keeps unknown response fields and reads null lists as absent', async () => {
    h.answer({ ...authMethod, NamespaceRules: null, FutureField: { x: 1 } });
    const { value } = await h.client().authMethods.read('minikube');
    expect(value.NamespaceRules).toBeUndefined();
    expect(value['FutureField']).toEqual({ x: 1 });
  });

  it('updates with PUT /v1/acl/auth-method/<name>', async () => {
    h.answer({ ...authMethod, Description: 'changed', ModifyIndex: 16 });
    const updated = await h.client().authMethods.update('minikube', {
      Name: 'minikube',
      Description: 'changed',
      Config: authMethod.Config,
    });
    const r = h.last();
    expect(r.method).toBe('PUT');
    expect(r.url.pathname).toBe('/v1/acl/auth-method/minikube');
    expect(bodyOf(r)).toEqual({ Name: 'minikube', Description: 'changed', Config: authMethod.Config });
    expect(updated.ModifyIndex).toBe(16);
  });

  it('deletes with DELETE and resolves to the boolean body', async () => {
    h.answer(true);
    await expect(h.client().authMethods.delete('minikube', { namespace: 'team-1' })).resolves.toBe(true);
    expect(h.last().method).toBe('DELETE');
    expect(h.last().url.pathname).toBe('/v1/acl/auth-method/minikube');
    expect(h.last().url.searchParams.get('ns')).toBe('team-1');
    h.answer(false);
    await expect(h.client().authMethods.delete('minikube')).resolves.toBe(false);
  });

  it('lists stubs from GET /v1/acl/auth-methods, ns=* for every namespace, null as empty', async () => {
    const { Config: _c, ...stub } = authMethod;
    h.answer([stub], { 'X-Reg-Index': '9' });
    const { value, meta } = await h.client().authMethods.list({ namespace: '*' });
    expect(h.last().url.pathname).toBe('/v1/acl/auth-methods');
    expect(h.last().url.searchParams.get('ns')).toBe('*');
    expect(value).toEqual([stub]);
    expect(meta.index).toBe(9);
    h.answer(null);
    expect((await h.client().authMethods.list()).value).toEqual([]);
  });

  describe('refuses before any request', () => {
    const cases: Array<[string, () => Promise<unknown>, string, RegExp]> = [];
    let hh: Harness;
    const c = () => hh.client().authMethods;
    cases.push(
      [
        'bad Name charset',
        () => c().create({ Name: 'bad name!', Type: 'jwt', Config: {} }),
        'Name',
        /auth-method-name/,
      ],
      ['missing Name', () => c().create({ Name: '', Type: 'jwt', Config: {} }), 'Name', /required/],
      ['missing Type', () => c().create({ Name: 'a', Type: '', Config: {} }), 'Type', /required/],
      [
        'missing Config',
        () =>
          c().create({ Name: 'a', Type: 'jwt' } as unknown as Parameters<ReturnType<typeof c>['create']>[0]),
        'Config',
        /expected record/i,
      ],
      [
        'TTL below 1m',
        () => c().create({ Name: 'a', Type: 'jwt', Config: {}, MaxTokenTTL: '30s' }),
        'MaxTokenTTL',
        /token-ttl-bounds/,
      ],
      [
        'TTL above 24h',
        () => c().create({ Name: 'a', Type: 'jwt', Config: {}, MaxTokenTTL: '24h1s' }),
        'MaxTokenTTL',
        /token-ttl-bounds/,
      ],
      [
        'TTL not a duration',
        () => c().create({ Name: 'a', Type: 'jwt', Config: {}, MaxTokenTTL: '5 minutes' }),
        'MaxTokenTTL',
        /duration/,
      ],
      [
        'oidc with zero TTL',
        () => c().create({ Name: 'a', Type: 'oidc', Config: {} }),
        'MaxTokenTTL',
        /oidc-nonzero/,
      ],
      [
        'bad TokenLocality',
        () => c().create({ Name: 'a', Type: 'jwt', Config: {}, TokenLocality: 'planet' as 'local' }),
        'TokenLocality',
        /invalid option|one-of/i,
      ],
      [
        'NamespaceRule without BindNamespace',
        () =>
          c().create({
            Name: 'a',
            Type: 'jwt',
            Config: {},
            NamespaceRules: [{ Selector: 'x', BindNamespace: '' }],
          }),
        'NamespaceRules[0].BindNamespace',
        /required/,
      ],
      [
        'update Name differs from path',
        () => c().update('a', { Name: 'b', Config: {} }),
        'Name',
        /matches-path/,
      ],
      ['update without Config', () => c().update('a', { Name: 'a' } as never), 'Config', /expected record/i],
      [
        'update oidc with zero TTL',
        () => c().update('a', { Type: 'oidc', Config: {} }),
        'MaxTokenTTL',
        /oidc-nonzero/,
      ],
      ['read of an impossible name', () => c().read('a/b'), 'name', /auth-method-name/],
      ['delete of an empty name', () => c().delete(''), 'name', /required/],
    );

    beforeEach(async () => {
      hh = await harness();
    });
    afterEach(() => hh.close());

    it.each(cases)('%s', async (_label, call, field, rule) => {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).field).toBe(field);
      expect((err as RequestValidationError).rule).toMatch(rule);
      expect(hh.srv.requests).toHaveLength(0);
    });

    it('accepts the bounds themselves and a nonzero oidc TTL', async () => {
      hh.answer(authMethod);
      await c().create({ Name: 'a', Type: 'jwt', Config: {}, MaxTokenTTL: '1m' });
      await c().create({ Name: 'a', Type: 'jwt', Config: {}, MaxTokenTTL: '24h' });
      await c().create({ Name: 'a_b-1', Type: 'oidc', Config: {}, MaxTokenTTL: '1h30m' });
      await c().update('a', { Config: {} });
      expect(hh.srv.requests).toHaveLength(4);
    });
  });
});
