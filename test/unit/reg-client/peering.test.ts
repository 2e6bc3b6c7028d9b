import { NotFoundError, RequestValidationError } from '../../../src/api';
import { resolveRequestToken } from '../../../src/api/reg';
import { bodyOf, harness, peering, type Harness } from './harness';

describe('reg client: peering', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('generates a token with POST /v1/peering/token', async () => {
    h.answer({ PeeringToken: 'eyJDQSI6bnVsbH0=' });
    const req = { PeerName: 'cluster-02', Meta: { env: 'production' } };
    const res = await h.client().peering.generateToken(req);
    expect(h.last().method).toBe('POST');
    expect(h.last().url.pathname).toBe('/v1/peering/token');
    expect(bodyOf(h.last())).toEqual(req);
    expect(res.PeeringToken).toBe('eyJDQSI6bnVsbH0=');
  });

  it('establishes with POST /v1/peering/establish; an empty object is success', async () => {
    h.answer({});
    const req = { PeerName: 'cluster-01', PeeringToken: 'eyJDQSI6bnVsbH0=', Partition: 'default' };
    await expect(h.client().peering.establish(req)).resolves.toBeUndefined();
    expect(h.last().url.pathname).toBe('/v1/peering/establish');
    expect(bodyOf(h.last())).toEqual(req);
  });

  it('reads with GET /v1/peering/<name> and the partition parameter', async () => {
    h.answer(peering, { 'X-Reg-Index': '89' });
    const { value, meta } = await h.client().peering.read('cluster-02', { partition: 'part-a' });
    expect(h.last().url.pathname).toBe('/v1/peering/cluster-02');
    expect(h.last().url.searchParams.get('partition')).toBe('part-a');
    expect(value.State).toBe('ACTIVE');
    expect(value.PeerServerAddresses).toEqual(['10.0.0.1:8300']);
    expect(meta.index).toBe(89);
  });

  it('raises NotFoundError for a missing peering', async () => {
    h.answer('peering not found', {}, 404);
    await expect(h.client().peering.read('cluster-09')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('deletes with DELETE /v1/peering/<name>; a terminated peering still reads', async () => {
    h.srv.handle((_r, res) => void res.end());
    await h.client().peering.delete('cluster-02', { partition: 'default' });
    expect(h.last().method).toBe('DELETE');
    expect(h.last().url.pathname).toBe('/v1/peering/cluster-02');
    expect(h.last().url.searchParams.get('partition')).toBe('default');
    h.answer({ ...peering, State: 'TERMINATED', DeletedAt: '2026-11-21T11:00:00Z' });
    const { value } = await h.client().peering.read('cluster-02');
    expect(value).toMatchObject({ State: 'TERMINATED', DeletedAt: '2026-11-21T11:00:00Z' });
  });

  it('lists with GET /v1/peerings and X-Reg-Results-Filtered-By-ACLs', async () => {
    h.answer([peering], { 'X-Reg-Results-Filtered-By-ACLs': 'true' });
    const { value, meta } = await h.client().peering.list();
    expect(h.last().url.pathname).toBe('/v1/peerings');
    expect(value).toHaveLength(1);
    expect(meta.filteredByAcls).toBe(true);
    h.answer([peering]);
    expect((await h.client().peering.list()).meta.filteredByAcls).toBeUndefined();
  });

  describe('token precedence (spec 5)', () => {
    beforeEach(() => h.answer({ PeeringToken: 'tok' }));

    it('sends REG_HTTP_TOKEN as X-Reg-Token when nothing else is given', async () => {
      await h.client({ env: { REG_HTTP_TOKEN: 'env-token' } }).peering.generateToken({ PeerName: 'p' });
      expect(h.last().headers['x-reg-token']).toBe('env-token');
    });

    it('the client token beats the environment, a per-call token beats both', async () => {
      const c = h.client({ token: 'client-token', env: { REG_HTTP_TOKEN: 'env-token' } });
      await c.peering.generateToken({ PeerName: 'p' });
      expect(h.last().headers['x-reg-token']).toBe('client-token');
      await c.peering.generateToken({ PeerName: 'p' }, { token: 'call-token' });
      expect(h.last().headers['x-reg-token']).toBe('call-token');
    });

    it('passes a body Token through, keeps the header, and never puts a token in the query', async () => {
      const c = h.client({ token: 'client-token' });
      await c.peering.generateToken({ PeerName: 'p', Token: 'body-token' });
      const r = h.last();
      expect(bodyOf(r)).toMatchObject({ Token: 'body-token' });
      expect(r.headers['x-reg-token']).toBe('client-token');
      expect(r.url.searchParams.has('token')).toBe(false);
      await c.peering.establish({ PeerName: 'p', PeeringToken: 'pt', Token: 'body-token' });
      expect(bodyOf(h.last())).toMatchObject({ Token: 'body-token' });
    });

    it('resolveRequestToken orders body, query, header, environment and skips empty values', () => {
      const all = { body: 'b', query: 'q', header: 'h', env: 'e' };
      expect(resolveRequestToken(all)).toBe('b');
      expect(resolveRequestToken({ ...all, body: '' })).toBe('q');
      expect(resolveRequestToken({ ...all, body: undefined, query: null })).toBe('h');
      expect(resolveRequestToken({ env: 'e' })).toBe('e');
      expect(resolveRequestToken({})).toBeUndefined();
    });
  });

  it.each([
    [
      'PeerName not a DNS label',
      () => h.client().peering.generateToken({ PeerName: 'cluster_02' }),
      'PeerName',
      /dns-label/,
    ],
    ['missing PeerName', () => h.client().peering.generateToken({ PeerName: '' }), 'PeerName', /required/],
    [
      'missing PeeringToken',
      () => h.client().peering.establish({ PeerName: 'a', PeeringToken: '' }),
      'PeeringToken',
      /required/,
    ],
    ['read of a non-label', () => h.client().peering.read('a b'), 'name', /dns-label/],
    ['delete of a non-label', () => h.client().peering.delete('a.b'), 'name', /dns-label/],
  ])('refuses %s before any request', async (_l, call, field, rule) => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).field).toBe(field);
    expect((err as RequestValidationError).rule).toMatch(rule);
    expect(h.srv.requests).toHaveLength(0);
  });
});
