import { startAgent, type AgentFixture } from '../../helpers/agent';
import { SchedClient } from '../../../src/api/sched/client';
import { PermissionDeniedError, ValidationError } from '../../../src/api/errors';
import { call } from './helpers';

interface TokenBody {
  AccessorID: string;
  SecretID?: string;
  Name: string;
  Type: string;
  Policies: string[] | null;
  CreateIndex: number;
}

describe('ACL endpoints: bootstrap, policies, tokens', () => {
  let f: AgentFixture;
  let root = '';
  const base = (): string => f.agent.schedulerUrl;
  beforeAll(async () => {
    f = await startAgent({ registry: false, acl: true });
  });
  afterAll(() => f.stop());

  it('bootstraps once with the typed client; a second bootstrap is refused', async () => {
    const { value } = await f.sched.acl.bootstrap();
    expect(value).toMatchObject({ Name: 'Bootstrap Token', Type: 'management', Global: true });
    expect(value.SecretID).toMatch(/^[0-9a-f-]{36}$/);
    root = value.SecretID!;
    const again = await f.sched.acl.bootstrap().catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ValidationError);
    expect((again as Error).message).toMatch(/ACL bootstrap already done \(reset index: \d+\)/);
  });

  it('refuses requests before a token is given, and an unknown token with "ACL token not found"', async () => {
    const anon = await call(base(), 'GET', '/v1/jobs');
    expect([anon.status, anon.text]).toEqual([403, 'Permission denied']);
    const bogus = await call(base(), 'GET', '/v1/jobs', { token: '00000000-0000-4000-8000-000000000000' });
    expect([bogus.status, bogus.text]).toEqual([403, 'ACL token not found']);
  });

  it('upserts, reads, lists and deletes policies in HCL and JSON', async () => {
    const hcl = await call(base(), 'POST', '/v1/acl/policy/readers', {
      token: root,
      body: {
        Name: 'readers',
        Description: 'read default',
        Rules:
          'namespace "default" {\n  policy = "read"\n  capabilities = ["alloc-exec"]\n}\nnode {\n  policy = "read"\n}\n',
      },
    });
    expect(hcl.status).toBe(200);
    const json = await call(base(), 'PUT', '/v1/acl/policy/json-writers', {
      token: root,
      body: { Rules: JSON.stringify({ namespace: { '*': { policy: 'write' } }, agent: { policy: 'read' } }) },
    });
    expect(json.status).toBe(200);
    const { value: read } = await f.sched.acl.policy('readers', { token: root });
    expect(read).toMatchObject({ Name: 'readers', Description: 'read default' });
    expect(read.Rules).toContain('alloc-exec');
    const { value: list } = await f.sched.acl.policies({ token: root });
    expect(list.map((p) => p.Name)).toEqual(['json-writers', 'readers']);
    expect(list[0]).not.toHaveProperty('Rules');

    const temp = await call(base(), 'POST', '/v1/acl/policy/temp', {
      token: root,
      body: { Rules: 'agent { policy = "read" }' },
    });
    expect(temp.status).toBe(200);
    expect((await call(base(), 'DELETE', '/v1/acl/policy/temp', { token: root })).status).toBe(200);
    expect((await call(base(), 'GET', '/v1/acl/policy/temp', { token: root })).status).toBe(404);
  });

  it.each([
    ['an unknown policy level', 'namespace "default" { policy = "admin" }', /Invalid namespace policy/],
    [
      'an unknown capability',
      'namespace "default" { capabilities = ["fly"] }',
      /Invalid namespace capability 'fly'/,
    ],
    ['a bad namespace name', 'namespace "a/b" { policy = "read" }', /Invalid namespace name/],
    ['an unknown block', 'planet "x" { policy = "read" }', /unsupported block type "planet"/],
    ['broken HCL', 'namespace "default" { policy = ', /Failed to parse ACL Policy/],
    ['no rules', '# nothing', /Invalid policy/],
    ['an invalid node level', 'node { policy = "scale" }', /Invalid node policy/],
  ])('rejects rules with %s (400)', async (_what, rules, message) => {
    const r = await call(base(), 'POST', '/v1/acl/policy/bad', { token: root, body: { Rules: rules } });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(message);
  });

  it('refuses a policy name that differs from the path', async () => {
    const r = await call(base(), 'POST', '/v1/acl/policy/one', {
      token: root,
      body: { Name: 'two', Rules: 'agent { policy = "read" }' },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('does not match');
  });

  it('creates, reads, updates, lists and deletes tokens; lists never show secrets', async () => {
    const { value: created } = await f.sched.acl.createToken(
      { Name: 'reader', Type: 'client', Policies: ['readers'] },
      { token: root },
    );
    expect(created.SecretID).toMatch(/^[0-9a-f-]{36}$/);
    const { value: read } = await f.sched.acl.token(created.AccessorID!, { token: root });
    expect(read).toMatchObject({ Name: 'reader', Policies: ['readers'], SecretID: created.SecretID });

    const upd = await call(base(), 'POST', `/v1/acl/token/${created.AccessorID}`, {
      token: root,
      body: {
        AccessorID: created.AccessorID,
        Name: 'reader2',
        Type: 'client',
        Policies: ['readers', 'json-writers'],
      },
    });
    expect(upd.status).toBe(200);
    expect(upd.json<TokenBody>()).toMatchObject({ Name: 'reader2', SecretID: created.SecretID });

    const list = await call(base(), 'GET', '/v1/acl/tokens', { token: root });
    const tokens = list.json<TokenBody[]>();
    expect(tokens.map((t) => t.Name)).toEqual(['Bootstrap Token', 'reader2']);
    expect(list.text).not.toContain(created.SecretID!);
    expect(list.text).not.toContain(root);

    await f.sched.acl.deleteToken(created.AccessorID!, { token: root });
    const gone = await call(base(), 'GET', '/v1/jobs', { token: created.SecretID! });
    expect([gone.status, gone.text]).toEqual([403, 'ACL token not found']);
  });

  it.each([
    ['a client token without policies', { Type: 'client' }, /client token missing policies/],
    [
      'a management token with policies',
      { Type: 'management', Policies: ['readers'] },
      /cannot be associated/,
    ],
    ['an unknown type', { Type: 'superuser', Policies: ['readers'] }, /token type must be/],
    ['a TTL under a minute', { Type: 'client', Policies: ['readers'], ExpirationTTL: 5e9 }, /less than 1m0s/],
  ])('refuses %s (400)', async (_what, body, message) => {
    const r = await call(base(), 'POST', '/v1/acl/token', { token: root, body });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(message);
  });

  it('gives an expiring token its ExpirationTime', async () => {
    const r = await call(base(), 'POST', '/v1/acl/token', {
      token: root,
      body: { Type: 'client', Policies: ['readers'], ExpirationTTL: 3600e9 },
    });
    const t = r.json<{ ExpirationTime: string; ExpirationTTL: number }>();
    expect(t.ExpirationTTL).toBe(3600e9);
    expect(Date.parse(t.ExpirationTime) - Date.now()).toBeGreaterThan(3500e3);
  });

  it('token/self answers for the caller; a client token reads its own token and policies only', async () => {
    const { value: mine } = await f.sched.acl.createToken(
      { Name: 'self', Type: 'client', Policies: ['readers'] },
      { token: root },
    );
    const me = new SchedClient({ address: base(), env: {}, retries: { max: 0 }, token: mine.SecretID! });
    try {
      const { value: self } = await me.acl.self();
      expect(self).toMatchObject({ AccessorID: mine.AccessorID, Name: 'self' });
      const { value: own } = await me.acl.token(mine.AccessorID!);
      expect(own.AccessorID).toBe(mine.AccessorID);
      const { value: policies } = await me.acl.policies();
      expect(policies.map((p) => p.Name)).toEqual(['readers']);
      expect((await me.acl.policy('readers')).value.Name).toBe('readers');
      await expect(me.acl.policy('json-writers')).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(me.acl.tokens()).rejects.toBeInstanceOf(PermissionDeniedError);
      const { value: rootSelf } = await f.sched.acl.self({ token: root });
      await expect(me.acl.token(rootSelf.AccessorID!)).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(me.acl.createToken({ Type: 'client', Policies: ['readers'] })).rejects.toBeInstanceOf(
        PermissionDeniedError,
      );
    } finally {
      await me.close();
    }
    const anon = await call(base(), 'GET', '/v1/acl/token/self');
    expect([anon.status, anon.text]).toEqual([403, 'ACL token not found']);
  });

  it('applies the policy named "anonymous" to requests without a token', async () => {
    expect((await call(base(), 'GET', '/v1/jobs')).status).toBe(403);
    await call(base(), 'POST', '/v1/acl/policy/anonymous', {
      token: root,
      body: { Rules: 'namespace "default" { capabilities = ["list-jobs"] }' },
    });
    expect((await call(base(), 'GET', '/v1/jobs')).status).toBe(200);
    expect((await call(base(), 'GET', '/v1/job/x')).status).toBe(403);
    await call(base(), 'DELETE', '/v1/acl/policy/anonymous', { token: root });
    expect((await call(base(), 'GET', '/v1/jobs')).status).toBe(403);
  });
});

describe('ACL: the bootstrap token option and agents without ACLs', () => {
  it('starts with a management token whose secret is the option; bootstrap is then done', async () => {
    const secret = '0b6f9d7e-1c2a-4f3b-8e4d-5a6b7c8d9e0f';
    const f = await startAgent({ registry: false, acl: true, bootstrapToken: secret });
    try {
      const self = await call(f.agent.schedulerUrl, 'GET', '/v1/acl/token/self', { token: secret });
      expect(self.status).toBe(200);
      expect(self.json()).toMatchObject({ Type: 'management', SecretID: secret });
      const again = await call(f.agent.schedulerUrl, 'POST', '/v1/acl/bootstrap');
      expect(again.status).toBe(400);
      expect(again.text).toContain('ACL bootstrap already done');
    } finally {
      await f.stop();
    }
  });

  it('allows everything without --acl, and says so on the ACL endpoints', async () => {
    const f = await startAgent({ registry: false });
    try {
      expect((await call(f.agent.schedulerUrl, 'GET', '/v1/jobs')).status).toBe(200);
      expect(
        (await call(f.agent.schedulerUrl, 'POST', '/v1/namespace/x', { body: { Name: 'x' } })).status,
      ).toBe(200);
      const boot = await call(f.agent.schedulerUrl, 'POST', '/v1/acl/bootstrap');
      expect([boot.status, boot.text]).toEqual([400, 'ACL support disabled']);
    } finally {
      await f.stop();
    }
  });
});
