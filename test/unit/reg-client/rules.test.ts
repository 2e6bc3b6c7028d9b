import {
  checkAuthMethodName,
  checkDnsLabel,
  checkMaxTokenTtl,
  durationToMs,
  parseDurationMs,
  validateAuthMethodCreate,
  validateConfigEntry,
  validateNamespaceUpdate,
} from '../../../src/api/reg';

describe('registry rules', () => {
  it.each([
    ['60s', 60_000],
    ['1m', 60_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['300ms', 300],
    ['0', 0],
    ['24h0m0s', 86_400_000],
  ])('parses %s to %d ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', '5', '1d', 'm', '5 m', 'soon'])('does not parse %j', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });

  it('reads a JSON number duration as nanoseconds, as Go does', () => {
    expect(durationToMs(90_000_000_000)).toBe(90_000);
    expect(durationToMs(true)).toBeUndefined();
  });

  it('DNS labels: 1-63 characters, alphanumerics and inner dashes', () => {
    for (const ok of ['a', 'team-1', 'A1', 'a'.repeat(63)]) expect(checkDnsLabel('Name', ok)).toBeUndefined();
    for (const bad of ['', '-a', 'a-', 'a_b', 'a.b', 'a'.repeat(64), 7]) {
      expect(checkDnsLabel('Name', bad)).toMatchObject({ field: 'Name', rule: 'dns-label' });
    }
  });

  it('auth method names: letters, digits, dashes, underscores', () => {
    expect(checkAuthMethodName('Name', 'k8s_dev-1')).toBeUndefined();
    expect(checkAuthMethodName('Name', 'k8s dev')?.message).toMatch(/^Name: must be 1-128 letters/);
  });

  it('MaxTokenTTL: zero allowed except for oidc, otherwise 1m..24h, inclusive', () => {
    expect(checkMaxTokenTtl('MaxTokenTTL', undefined, 'jwt')).toBeUndefined();
    expect(checkMaxTokenTtl('MaxTokenTTL', '0s', 'jwt')).toBeUndefined();
    expect(checkMaxTokenTtl('MaxTokenTTL', '0s', 'oidc')?.rule).toBe('oidc-nonzero');
    expect(checkMaxTokenTtl('MaxTokenTTL', '59s', 'jwt')?.rule).toBe('token-ttl-bounds');
    expect(checkMaxTokenTtl('MaxTokenTTL', '1m', 'oidc')).toBeUndefined();
    expect(checkMaxTokenTtl('MaxTokenTTL', '24h', 'jwt')).toBeUndefined();
    expect(checkMaxTokenTtl('MaxTokenTTL', '24h0m1s', 'jwt')?.message).toMatch(
      /MaxTokenTTL: must be at least 1m0s and at most 24h0m0s/,
    );
  });

  it('reports every broken rule of a request, each naming its field', () => {
    const v = validateAuthMethodCreate({ Name: 'a b', MaxTokenTTL: '1s', TokenLocality: 'x' });
    expect(v.map((x) => [x.field, x.rule])).toEqual([
      ['Name', 'auth-method-name'],
      ['Type', 'required'],
      ['Config', 'required'],
      ['MaxTokenTTL', 'token-ttl-bounds'],
      ['TokenLocality', 'one-of'],
    ]);
    expect(validateNamespaceUpdate('team-1', { Name: 'team-2' })[0]?.message).toBe(
      'Name: must match the name in the path "team-1"; got "team-2"',
    );
  });

  it('splitter weights add up in hundredths', () => {
    const split = (...w: number[]) => ({
      Kind: 'service-splitter',
      Name: 'w',
      Splits: w.map((Weight) => ({ Weight })),
    });
    expect(validateConfigEntry(split(33.33, 33.33, 33.34))).toEqual([]);
    expect(validateConfigEntry(split(50, 49.99))[0]?.detail).toBe('weights must add up to 100; got 99.99');
  });
});
