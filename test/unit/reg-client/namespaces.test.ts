import { NotFoundError, RequestValidationError } from '../../../src/api';
import { bodyOf, harness, namespace, type Harness } from './harness';

describe('reg client: namespaces', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('creates with PUT /v1/namespace and returns the namespace with both ID and Name in links', async () => {
    h.answer(namespace);
    const req = {
      Name: 'team-1',
      Description: 'Namespace for Team 1',
      ACLs: {
        PolicyDefaults: [{ Name: 'pol-a' }],
        RoleDefaults: [{ ID: '39d7e8e6-68d5-4e4b-8a3b-1c1c9a1ad8f1' }],
      },
      Meta: { foo: 'bar' },
    };
    const ns = await h.client().namespaces.create(req);
    expect(h.last().method).toBe('PUT');
    expect(h.last().url.pathname).toBe('/v1/namespace');
    expect(bodyOf(h.last())).toEqual(req);
    expect(ns.ACLs?.PolicyDefaults?.[0]).toEqual({
      ID: '77117cf6-d976-79b0-d63b-5a36ac69c8f1',
      Name: 'pol-a',
    });
  });

  it('reads a namespace marked for deletion with DeletedAt', async () => {
    h.answer({ ...namespace, DeletedAt: '2026-11-21T11:00:00Z' }, { 'X-Reg-Index': '60' });
    const { value, meta } = await h.client().namespaces.read('team-1');
    expect(h.last().url.pathname).toBe('/v1/namespace/team-1');
    expect(value.DeletedAt).toBe('2026-11-21T11:00:00Z');
    expect(meta.index).toBe(60);
  });

  it('raises NotFoundError for a missing namespace', async () => {
    h.answer('Namespace not found', {}, 404);
    await expect(h.client().namespaces.read('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('updates with PUT /v1/namespace/<name>; Name may be omitted', async () => {
    h.answer({ ...namespace, Description: 'new', ModifyIndex: 56 });
    const ns = await h.client().namespaces.update('team-1', { Description: 'new' });
    expect(h.last().method).toBe('PUT');
    expect(h.last().url.pathname).toBe('/v1/namespace/team-1');
    expect(bodyOf(h.last())).toEqual({ Description: 'new' });
    expect(ns.ModifyIndex).toBe(56);
  });

  it('deletes with DELETE and an empty answer', async () => {
    h.srv.handle((_r, res) => void res.end());
    await expect(h.client().namespaces.delete('team-1')).resolves.toBeUndefined();
    expect(h.last().method).toBe('DELETE');
    expect(h.last().url.pathname).toBe('/v1/namespace/team-1');
    expect(h.last().body).toBe('');
  });

  it('lists with GET /v1/namespaces and reports ACL filtering', async () => {
    h.answer([namespace], { 'X-Reg-Index': '61', 'X-Reg-Results-Filtered-By-ACLs': 'true' });
    const { value, meta } = await h.client().namespaces.list();
    expect(h.last().url.pathname).toBe('/v1/namespaces');
    expect(value.map((n) => n.Name)).toEqual(['team-1']);
    expect(meta).toMatchObject({ index: 61, filteredByAcls: true });
  });

  it.each([
    ['Name not a DNS label', () => h.client().namespaces.create({ Name: 'team_1' }), 'Name', /dns-label/],
    ['Name starting with a dash', () => h.client().namespaces.create({ Name: '-a' }), 'Name', /dns-label/],
    [
      'Name longer than 63',
      () => h.client().namespaces.create({ Name: 'a'.repeat(64) }),
      'Name',
      /dns-label/,
    ],
    [
      'ACL link without ID or Name',
      () => h.client().namespaces.create({ Name: 'a', ACLs: { RoleDefaults: [{}] } }),
      'ACLs.RoleDefaults[0]',
      /acl-link/,
    ],
    ['update Name differs', () => h.client().namespaces.update('a', { Name: 'b' }), 'Name', /matches-path/],
    ['read of a non-label', () => h.client().namespaces.read('x.y'), 'name', /dns-label/],
  ])('refuses %s before any request', async (_l, call, field, rule) => {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).field).toBe(field);
    expect((err as RequestValidationError).rule).toMatch(rule);
    expect(h.srv.requests).toHaveLength(0);
  });
});
