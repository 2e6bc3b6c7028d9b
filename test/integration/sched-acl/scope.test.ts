import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { openStream } from '../sched-events/stream';
import { call, Tokens } from './helpers';

const ROOT = '3c1e9a52-7b6d-4f0e-9c8a-2d4b6f8a0c13';
const MISSING_ALLOC = '11111111-2222-4333-8444-555555555555';

describe('ACL: namespaces, wildcards, Bearer, the event stream, and answers that leak nothing', () => {
  let f: AgentFixture;
  let tokens: Tokens;
  let secretAlloc = '';
  let secretEval = '';
  const base = (): string => f.agent.schedulerUrl;

  beforeAll(async () => {
    f = await startAgent({ registry: false, acl: true, bootstrapToken: ROOT });
    tokens = new Tokens(base(), ROOT);
    for (const ns of ['secret', 'ops']) {
      expect(
        (await call(base(), 'POST', `/v1/namespace/${ns}`, { token: ROOT, body: { Name: ns } })).status,
      ).toBe(200);
    }
    const reg = await call(base(), 'POST', '/v1/jobs', {
      token: ROOT,
      body: { Job: mockJob('hidden', { count: 1, namespace: 'secret' }) },
    });
    secretEval = reg.json<{ EvalID: string }>().EvalID;
    await call(base(), 'POST', '/v1/jobs', { token: ROOT, body: { Job: mockJob('web', { count: 0 }) } });
    secretAlloc = await eventually(async () => {
      const r = await call(base(), 'GET', '/v1/allocations?namespace=secret', { token: ROOT });
      const list = r.json<{ ID: string }[]>();
      expect(list).toHaveLength(1);
      return list[0]!.ID;
    });
  });
  afterAll(() => f.stop());

  it('accepts the token as Authorization: Bearer exactly as X-Sched-Token', async () => {
    const t = await tokens.capabilities(['list-jobs']);
    const bearer = await call(base(), 'GET', '/v1/jobs', { token: t.SecretID, bearer: true });
    const header = await call(base(), 'GET', '/v1/jobs', { token: t.SecretID });
    expect(bearer.status).toBe(200);
    expect(bearer.json()).toEqual(header.json());
    const denied = await call(base(), 'GET', '/v1/job/web', { token: t.SecretID, bearer: true });
    expect([denied.status, denied.text]).toEqual([403, 'Permission denied']);
    const rootBearer = await call(base(), 'GET', '/v1/acl/token/self', { token: ROOT, bearer: true });
    expect(rootBearer.json()).toMatchObject({ Type: 'management' });
  });

  it('a 403 does not tell whether the job exists', async () => {
    const t = await tokens.capabilities(['read-job']); // default only
    const exists = await call(base(), 'GET', '/v1/job/hidden?namespace=secret', { token: t.SecretID });
    const missing = await call(base(), 'GET', '/v1/job/nope?namespace=secret', { token: t.SecretID });
    expect([exists.status, exists.text]).toEqual([403, 'Permission denied']);
    expect([missing.status, missing.text]).toEqual([exists.status, exists.text]);
    const noNs = await call(base(), 'GET', '/v1/job/hidden?namespace=no-such-ns', { token: t.SecretID });
    expect([noNs.status, noNs.text]).toEqual([exists.status, exists.text]);
  });

  it('objects addressed by bare ID in a namespace the token may not read look exactly like missing ones', async () => {
    const t = await tokens.capabilities(['read-job', 'alloc-lifecycle']);
    for (const [path, missingPath] of [
      [`/v1/allocation/${secretAlloc}`, `/v1/allocation/${MISSING_ALLOC}`],
      [`/v1/allocation/${secretAlloc}/stop`, `/v1/allocation/${MISSING_ALLOC}/stop`],
      [`/v1/evaluation/${secretEval}`, `/v1/evaluation/${MISSING_ALLOC}`],
    ] as const) {
      const method = path.endsWith('/stop') ? 'POST' : 'GET';
      const hidden = await call(base(), method, path, { token: t.SecretID });
      const missing = await call(base(), method, missingPath, { token: t.SecretID });
      expect({ path, status: hidden.status, text: hidden.text }).toEqual({
        path,
        status: missing.status,
        text: missing.text,
      });
      expect(hidden.status).toBe(404);
    }
    // With the right namespace and capability, the object is there.
    const ok = await tokens.capabilities(['read-job'], 'secret');
    const r = await call(base(), 'GET', `/v1/allocation/${secretAlloc}?namespace=secret`, {
      token: ok.SecretID,
    });
    expect(r.status).toBe(200);
    // Without any capability in the request's namespace, the answer is 403 before any lookup.
    const none = await tokens.capabilities(['list-jobs']);
    const denied = await call(base(), 'GET', `/v1/allocation/${secretAlloc}`, { token: none.SecretID });
    const deniedMissing = await call(base(), 'GET', `/v1/allocation/${MISSING_ALLOC}`, {
      token: none.SecretID,
    });
    expect([denied.status, denied.text]).toEqual([403, 'Permission denied']);
    expect([deniedMissing.status, deniedMissing.text]).toEqual([403, 'Permission denied']);
  });

  it('namespace=* needs management or a policy that applies to every namespace', async () => {
    const list = (token: string) => call(base(), 'GET', '/v1/jobs?namespace=*', { token });
    const star = await tokens.withRules('namespace "*" { policy = "read" }');
    const starred = await list(star.SecretID);
    expect(starred.status).toBe(200);
    expect(
      starred
        .json<{ ID: string; Namespace: string }[]>()
        .map((j) => `${j.Namespace}/${j.ID}`)
        .sort(),
    ).toEqual(['default/web', 'secret/hidden']);
    expect((await list(ROOT)).status).toBe(200);

    const defaultOnly = await tokens.withRules('namespace "default" { policy = "read" }');
    expect((await list(defaultOnly.SecretID)).status).toBe(403);
    const allNamed = await tokens.withRules(
      'namespace "default" { policy = "read" }\nnamespace "secret" { policy = "read" }\nnamespace "ops" { policy = "read" }',
    );
    expect((await list(allNamed.SecretID)).status).toBe(403);
    const starButSecret = await tokens.withRules(
      'namespace "*" { policy = "read" }\nnamespace "secret" { policy = "deny" }',
    );
    expect((await list(starButSecret.SecretID)).status).toBe(403);
    const wrongCap = await tokens.withRules('namespace "*" { capabilities = ["read-job"] }');
    expect((await list(wrongCap.SecretID)).status).toBe(403);
    expect(
      (await call(base(), 'GET', '/v1/allocations?namespace=*', { token: wrongCap.SecretID })).status,
    ).toBe(200);
  });

  it('glob rules apply to matching namespaces, the closest match winning, deny overriding', async () => {
    const t = await tokens.withRules(
      'namespace "*" { policy = "read" }\nnamespace "se*" { policy = "deny" }\nnamespace "secret" { capabilities = ["list-jobs"] }',
    );
    const get = (path: string) => call(base(), 'GET', path, { token: t.SecretID });
    expect((await get('/v1/job/web')).status).toBe(200);
    expect((await get('/v1/jobs?namespace=ops')).status).toBe(200);
    expect((await get('/v1/jobs?namespace=secret')).status).toBe(200); // the exact rule wins
    expect((await get('/v1/job/hidden?namespace=secret')).status).toBe(403);
    expect((await get('/v1/jobs?namespace=seven')).status).toBe(403); // "se*" is closer than "*"
    const merged = await tokens.withRules(
      'namespace "ops" { capabilities = ["list-jobs"] }\nnamespace "ops" { capabilities = ["deny"] }',
    );
    expect((await call(base(), 'GET', '/v1/jobs?namespace=ops', { token: merged.SecretID })).status).toBe(
      403,
    );
  });

  it('reading a namespace needs some capability in it', async () => {
    const t = await tokens.capabilities(['list-jobs'], 'ops');
    expect((await call(base(), 'GET', '/v1/namespace/ops', { token: t.SecretID })).status).toBe(200);
    expect((await call(base(), 'GET', '/v1/namespace/secret', { token: t.SecretID })).status).toBe(403);
    expect((await call(base(), 'GET', '/v1/status/leader')).status).toBe(200);
  });

  it('event stream topics check their own ACLs; no topic at all needs management', async () => {
    const reader = await tokens.withRules('namespace "default" { policy = "read" }');
    const noder = await tokens.withRules('node { policy = "read" }');
    const status = async (query: string, token?: string): Promise<number> => {
      const s = await openStream(base(), query, token ? { 'x-sched-token': token } : {});
      s.close();
      return s.status;
    };
    expect(await status('topic=Job', reader.SecretID)).toBe(200);
    expect(await status('topic=Allocation:web&topic=Deployment', reader.SecretID)).toBe(200);
    expect(await status('topic=Job&namespace=secret', reader.SecretID)).toBe(403);
    expect(await status('topic=Job&namespace=*', reader.SecretID)).toBe(403);
    expect(await status('topic=Node', reader.SecretID)).toBe(403);
    expect(await status('topic=Node', noder.SecretID)).toBe(200);
    expect(await status('topic=NodeDrain', noder.SecretID)).toBe(200);
    expect(await status('topic=Job', noder.SecretID)).toBe(403);
    expect(await status('', reader.SecretID)).toBe(403);
    expect(await status('topic=*', reader.SecretID)).toBe(403);
    expect(await status('topic=ACLToken', reader.SecretID)).toBe(403);
    expect(await status('', ROOT)).toBe(200);
    expect(await status('topic=Job')).toBe(403);
  });

  it('ACL events carry tokens without secrets, and deleting a token ends its streams', async () => {
    const s = await openStream(base(), `index=${f.agent.store.index + 1}&topic=ACLToken&topic=ACLPolicy`, {
      'x-sched-token': ROOT,
    });
    const watcher = await tokens.withRules('# watcher\nnamespace "default" { policy = "read" }');
    const w = await openStream(base(), 'topic=Job', { 'x-sched-token': watcher.SecretID });
    try {
      await s.until((x) => x.events().some((e) => e.Type === 'ACLTokenUpserted'));
      const upserted = s.events().find((e) => e.Type === 'ACLTokenUpserted')!;
      expect(upserted.Key).toBe(watcher.AccessorID);
      expect(upserted.Payload['ACLToken']).toMatchObject({ AccessorID: watcher.AccessorID, SecretID: '' });
      expect(JSON.stringify(s.lines)).not.toContain(watcher.SecretID);
      expect(s.events().some((e) => e.Type === 'ACLPolicyUpserted')).toBe(true);

      await call(base(), 'DELETE', `/v1/acl/token/${watcher.AccessorID}`, { token: ROOT });
      await w.ended;
      await s.until((x) => x.events().some((e) => e.Type === 'ACLTokenDeleted'));
      const again = await openStream(base(), 'topic=Job', { 'x-sched-token': watcher.SecretID });
      expect(again.status).toBe(403);
      again.close();
    } finally {
      s.close();
      w.close();
    }
  });
});
