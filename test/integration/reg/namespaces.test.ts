import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotFoundError } from '../../../src/api/errors';
import { eventually, startRegistry, type RegAgent } from './harness';

describe('namespaces (spec 4.2, section 3)', () => {
  let agent: RegAgent;
  beforeAll(async () => {
    agent = await startRegistry();
  });
  afterAll(() => agent.close());

  test('the default namespace is built in and cannot be deleted', async () => {
    const { value } = await agent.client().namespaces.read('default');
    expect(value.Name).toBe('default');
    const res = await agent.http('DELETE', '/v1/namespace/default');
    expect(res.status).toBe(400);
    expect(res.text).toContain('rule: builtin');
    expect((await agent.client().namespaces.read('default')).value.DeletedAt).toBeUndefined();
  });

  test('create, read, update and list; Meta and Description round-trip', async () => {
    const reg = agent.client();
    const ns = await reg.namespaces.create({ Name: 'team-a', Description: 'Team A', Meta: { owner: 'a' } });
    expect(ns).toMatchObject({ Name: 'team-a', Description: 'Team A', Meta: { owner: 'a' } });
    expect(ns.CreateIndex).toBeGreaterThan(0);
    const updated = await reg.namespaces.update('team-a', { Description: 'Team A (renamed)' });
    expect(updated.Description).toBe('Team A (renamed)');
    expect(updated.CreateIndex).toBe(ns.CreateIndex);
    expect(updated.ModifyIndex).toBeGreaterThan(ns.ModifyIndex!);
    const names = (await reg.namespaces.list()).value.map((n) => n.Name);
    expect(names).toEqual(expect.arrayContaining(['default', 'team-a']));
    await expect(reg.namespaces.read('missing')).rejects.toBeInstanceOf(NotFoundError);
  });

  test.each(['-bad', 'bad-', 'has_underscore', 'a'.repeat(64), 'dots.no', ''])(
    'Name %j is not a DNS label: 400',
    async (name) => {
      const res = await agent.http('PUT', '/v1/namespace', { Name: name });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^Name: /);
      expect(res.text).toMatch(/rule: (dns-label|required)/);
    },
  );

  test('Name is unique; update Name must match the path; update of a missing namespace is 404', async () => {
    await agent.http('PUT', '/v1/namespace', { Name: 'uniq' });
    const dup = await agent.http('PUT', '/v1/namespace', { Name: 'uniq' });
    expect(dup.status).toBe(400);
    expect(dup.text).toContain('rule: unique');
    const mismatch = await agent.http('PUT', '/v1/namespace/uniq', { Name: 'other' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('rule: matches-path');
    expect((await agent.http('PUT', '/v1/namespace/ghost', { Description: 'x' })).status).toBe(404);
  });

  test('ACL links: a Name resolves to the ID, responses carry both; an unknown link is rejected', async () => {
    const reg = agent.client();
    const policy = await reg.acl.policies.create({
      Name: 'ns-read',
      Rules: 'service_prefix "" { policy = "read" }',
    });
    const role = await reg.acl.roles.create({ Name: 'ns-role', Policies: [{ ID: policy.ID }] });
    const ns = await reg.namespaces.create({
      Name: 'linked',
      ACLs: { PolicyDefaults: [{ Name: 'ns-read' }], RoleDefaults: [{ ID: role.ID }] },
    });
    expect(ns.ACLs).toEqual({
      PolicyDefaults: [{ ID: policy.ID, Name: 'ns-read' }],
      RoleDefaults: [{ ID: role.ID, Name: 'ns-role' }],
    });
    const stored = agent.store.get<{ ACLs: unknown }>('reg/namespaces', 'linked');
    expect(stored?.ACLs).toEqual({ PolicyDefaults: [{ ID: policy.ID }], RoleDefaults: [{ ID: role.ID }] });

    const unknown = await agent.http('PUT', '/v1/namespace', {
      Name: 'broken',
      ACLs: { PolicyDefaults: [{ Name: 'nope' }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/^ACLs\.PolicyDefaults\[0\]: no policy named "nope"/);
    const empty = await agent.http('PUT', '/v1/namespace', { Name: 'broken', ACLs: { RoleDefaults: [{}] } });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('ACLs.RoleDefaults[0]');
    expect(agent.store.get('reg/namespaces', 'broken')).toBeUndefined();
  });

  test('delete removes the namespace and its data in the background', async () => {
    const reg = agent.client();
    await reg.namespaces.create({ Name: 'doomed' });
    const method = await agent.http('PUT', '/v1/acl/auth-method?ns=doomed', {
      Name: 'm',
      Type: 'jwt',
      Config: { JWKSURL: 'https://example/jwks' },
    });
    expect(method.status).toBe(200);
    await agent.http('PUT', '/v1/config?ns=doomed', {
      Kind: 'service-defaults',
      Name: 'web',
      Protocol: 'http',
    });

    const res = await agent.http('DELETE', '/v1/namespace/doomed');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    await eventually(() => (agent.store.get('reg/namespaces', 'doomed') === undefined ? true : undefined));
    expect(agent.store.list('reg/auth_methods', { prefix: 'doomed/' })).toEqual([]);
    expect(agent.store.list('reg/config_entries', { prefix: 'doomed/' })).toEqual([]);
    await expect(reg.namespaces.read('doomed')).rejects.toBeInstanceOf(NotFoundError);
    expect((await agent.http('DELETE', '/v1/namespace/doomed')).status).toBe(404);
  });

  test('a write into a namespace that does not exist is rejected', async () => {
    const res = await agent.http('PUT', '/v1/config?ns=nowhere', { Kind: 'service-defaults', Name: 'web' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('rule: namespace-exists');
  });

  test('a blocking list wakes on a namespace write', async () => {
    const reg = agent.client();
    const first = await reg.namespaces.list();
    const waiting = reg.namespaces.list({ index: first.meta.index, wait: '5s' });
    setTimeout(() => void reg.namespaces.create({ Name: 'late' }), 30);
    const next = await waiting;
    expect(next.value.map((n) => n.Name)).toContain('late');
    expect(next.meta.index).toBeGreaterThan(first.meta.index);
  });
});

describe('namespace deletion in between', () => {
  test('reads work and writes are refused while the namespace is being deleted', async () => {
    const agent = await startRegistry({ timeScale: 1 });
    try {
      await agent.client().namespaces.create({ Name: 'slow' });
      expect((await agent.http('DELETE', '/v1/namespace/slow')).status).toBe(200);
      const { value } = await agent.client().namespaces.read('slow');
      expect(value.DeletedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      const list = await agent.client().namespaces.list();
      expect(list.value.find((n) => n.Name === 'slow')?.DeletedAt).toBeDefined();
      const write = await agent.http('PUT', '/v1/acl/policy?ns=slow', { Name: 'p' });
      expect(write.status).toBe(400);
      expect(write.text).toMatch(/^Namespace: namespace "slow" is being deleted/);
      const update = await agent.http('PUT', '/v1/namespace/slow', { Description: 'x' });
      expect(update.status).toBe(400);
      const recreate = await agent.http('PUT', '/v1/namespace', { Name: 'slow' });
      expect(recreate.status).toBe(400);
      expect(recreate.text).toContain('being deleted');
    } finally {
      await agent.close();
    }
  });
});

describe('background work survives a restart', () => {
  test('a namespace marked for deletion before a restart is deleted after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reg-ns-'));
    try {
      const before = await startRegistry({ dataDir: dir, timeScale: 100 });
      await before.client().namespaces.create({ Name: 'half-gone' });
      const policy = await before.http('PUT', '/v1/acl/policy?ns=half-gone', { Name: 'p' });
      expect(policy.status).toBe(200);
      expect((await before.http('DELETE', '/v1/namespace/half-gone')).status).toBe(200);
      await before.close();

      const after = await startRegistry({ dataDir: dir });
      try {
        expect(after.store.get('reg/namespaces', 'half-gone')).toBeDefined();
        await eventually(() =>
          after.store.get('reg/namespaces', 'half-gone') === undefined ? true : undefined,
        );
        expect(after.store.get('reg/acl_policies', policy.json<{ ID: string }>().ID)).toBeUndefined();
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
