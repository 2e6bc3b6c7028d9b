import { ConflictError, NotFoundError, RequestValidationError } from '../../../src/api';
import type { ConfigEntry, ConfigEntryKind } from '../../../src/api/reg';
import { bodyOf, harness, type Harness } from './harness';

const resolver = {
  Kind: 'service-resolver' as const,
  Name: 'web',
  DefaultSubset: 'v1',
  Subsets: {
    v1: { Filter: 'Service.Meta.version == v1' },
    v2: { Filter: 'Service.Meta.version == v2', OnlyPassing: true },
  },
  Failover: { '*': { Datacenters: ['dc2'] } },
  ConnectTimeout: '15s',
};
const splitter = {
  Kind: 'service-splitter' as const,
  Name: 'web',
  Splits: [
    { Weight: 33.33, ServiceSubset: 'v1' },
    { Weight: 33.33, ServiceSubset: 'v2' },
    { Weight: 33.34, Service: 'web-next', Namespace: 'beta' },
  ],
};
const router = {
  Kind: 'service-router' as const,
  Name: 'web',
  Routes: [
    {
      Match: {
        HTTP: {
          PathPrefix: '/admin',
          Header: [{ Name: 'x-debug', Exact: '1' }],
          QueryParam: [{ Name: 'beta', Present: true }],
          Methods: ['GET', 'POST'],
        },
      },
      Destination: {
        Service: 'admin',
        ServiceSubset: 'v2',
        PrefixRewrite: '/',
        RequestTimeout: '10s',
        NumRetries: 2,
        RetryOnConnectFailure: true,
        RetryOnStatusCodes: [502, 503],
      },
    },
  ],
};

describe('reg client: config entries', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it.each([resolver, splitter, router, { Kind: 'service-defaults' as const, Name: 'web', Protocol: 'http' }])(
    'applies a $Kind with PUT /v1/config',
    async (entry: ConfigEntry) => {
      h.answer(true);
      await expect(h.client().configEntries.apply(entry)).resolves.toBe(true);
      expect(h.last().method).toBe('PUT');
      expect(h.last().url.pathname).toBe('/v1/config');
      expect(h.last().url.searchParams.has('cas')).toBe(false);
      expect(bodyOf(h.last())).toEqual(entry);
    },
  );

  it('sends cas and raises ConflictError when the server answers false', async () => {
    h.answer(true);
    await h.client().configEntries.apply(resolver, { cas: 0 });
    expect(h.last().url.searchParams.get('cas')).toBe('0');
    h.answer(false);
    await expect(h.client().configEntries.apply(resolver, { cas: 7 })).rejects.toBeInstanceOf(ConflictError);
  });

  it('reads a typed entry by kind and name', async () => {
    h.answer({ ...router, CreateIndex: 4, ModifyIndex: 6 }, { 'X-Reg-Index': '6' });
    const { value, meta } = await h.client().configEntries.read('service-router', 'web');
    expect(h.last().url.pathname).toBe('/v1/config/service-router/web');
    expect(value.Routes?.[0]?.Destination?.RetryOnStatusCodes).toEqual([502, 503]);
    expect(value.Routes?.[0]?.Match?.HTTP?.Methods).toEqual(['GET', 'POST']);
    expect(meta.index).toBe(6);
  });

  it('rejects a response whose Kind does not match the asked kind', async () => {
    h.answer(splitter);
    await expect(h.client().configEntries.read('service-router', 'web')).rejects.toThrow(/Kind/);
  });

  it('raises NotFoundError for a missing entry', async () => {
    h.answer('Config entry not found for "service-resolver" / "nope"', {}, 404);
    await expect(h.client().configEntries.read('service-resolver', 'nope')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('lists entries of one kind', async () => {
    h.answer([resolver, { ...resolver, Name: 'api' }]);
    const { value } = await h.client().configEntries.list('service-resolver');
    expect(h.last().url.pathname).toBe('/v1/config/service-resolver');
    expect(value.map((e) => e.Name)).toEqual(['web', 'api']);
    expect(value[0]?.Subsets?.['v2']?.OnlyPassing).toBe(true);
  });

  it('deletes: {} is success, a CAS false is a ConflictError', async () => {
    h.answer({});
    await expect(h.client().configEntries.delete('service-splitter', 'web')).resolves.toBe(true);
    expect(h.last().method).toBe('DELETE');
    expect(h.last().url.pathname).toBe('/v1/config/service-splitter/web');
    h.answer(false);
    await expect(
      h.client().configEntries.delete('service-splitter', 'web', { cas: 3 }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(h.last().url.searchParams.get('cas')).toBe('3');
  });

  it.each([
    [
      'splitter weights not adding up to 100',
      () => h.client().configEntries.apply({ ...splitter, Splits: [{ Weight: 50 }, { Weight: 40 }] }),
      'Splits',
      /weights-sum/,
    ],
    [
      'two path matches in one route',
      () =>
        h.client().configEntries.apply({
          ...router,
          Routes: [{ Match: { HTTP: { PathExact: '/a', PathPrefix: '/b' } } }],
        }),
      'Routes[0].Match.HTTP',
      /one-path-match/,
    ],
    [
      'a path without a leading slash',
      () =>
        h.client().configEntries.apply({ ...router, Routes: [{ Match: { HTTP: { PathPrefix: 'admin' } } }] }),
      'Routes[0].Match.HTTP.PathPrefix',
      /leading-slash/,
    ],
    [
      'proxy-defaults not named global',
      () => h.client().configEntries.apply({ Kind: 'proxy-defaults', Name: 'mine' }),
      'Name',
      /proxy-defaults-name/,
    ],
    [
      'an unknown Kind',
      () => h.client().configEntries.apply({ Kind: 'mesh', Name: 'mesh' } as unknown as ConfigEntry),
      'Kind',
      /discriminator/i,
    ],
    [
      'a list of an unknown kind',
      () => h.client().configEntries.list('ingress-gateway' as ConfigEntryKind),
      'kind',
      /kind/,
    ],
  ])('refuses %s before any request', async (_l, call, field, rule) => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).field).toBe(field);
    expect((err as RequestValidationError).rule).toMatch(rule);
    expect(h.srv.requests).toHaveLength(0);
  });
});
