import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import { allBut, call, Tokens } from './helpers';

const ROOT = '6f0f0d8c-8d52-4b8f-9a0e-1f4f4d2a1c11';

interface Case {
  name: string;
  method: string;
  path: () => string;
  body?: () => unknown;
  rawBody?: string;
  /** Capability sets that each must be enough. */
  allowed: string[][];
  /** Capability sets that each must get 403. */
  denied: string[][];
  /** Statuses that count as success for an allowed call (default: 200). */
  ok?: number[];
  /** Rules instead of namespace capabilities. */
  rules?: { allowed: string[]; denied: string[] };
}

describe('ACL: every endpoint of the table in section 4.2 enforces its capability', () => {
  let f: AgentFixture;
  let tokens: Tokens;
  let allocId = '';
  let n = 0;
  const base = (): string => f.agent.schedulerUrl;

  beforeAll(async () => {
    f = await startAgent({ registry: false, acl: true, bootstrapToken: ROOT });
    tokens = new Tokens(base(), ROOT);
    const reg = async (job: unknown): Promise<void> => {
      const r = await call(base(), 'POST', '/v1/jobs', { token: ROOT, body: { Job: job } });
      expect(r.status).toBe(200);
    };
    await reg(mockJob('web', { count: 1, update: rolling() }));
    await reg(mockJob('web', { count: 1, update: rolling(), meta: { v: '2' } }));
    await reg(mockJob('victim', { count: 0 }));
    await reg({
      ...mockJob('param', { count: 1, type: 'batch' }),
      ParameterizedJob: { Payload: 'optional' },
    });
    await reg({
      ...mockJob('cron', { count: 1, type: 'batch' }),
      Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron' },
    });
    allocId = await eventually(async () => {
      const r = await call(base(), 'GET', '/v1/job/web/allocations', { token: ROOT });
      const live = r
        .json<{ ID: string; ClientStatus: string; DesiredStatus: string; JobVersion: number }[]>()
        .filter((a) => a.ClientStatus === 'running' && a.DesiredStatus === 'run' && a.JobVersion === 1);
      expect(live).toHaveLength(1);
      return live[0]!.ID;
    }, 20_000);
  });
  afterAll(() => f.stop());

  const newJob = () => ({ Job: mockJob(`acl-job-${++n}`, { count: 0 }) });
  const hcl = 'job "parsed" {\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n';
  const readJob = { allowed: [['read-job']], denied: [allBut('read-job')] };

  const cases: Case[] = [
    { name: 'list allocations', method: 'GET', path: () => '/v1/allocations', ...readJob },
    { name: 'read allocation', method: 'GET', path: () => `/v1/allocation/${allocId}`, ...readJob },
    {
      name: 'signal allocation',
      method: 'POST',
      path: () => `/v1/client/allocation/${allocId}/signal`,
      body: () => ({ Signal: 'SIGUSR1' }),
      allowed: [['alloc-lifecycle']],
      denied: [allBut('alloc-lifecycle')],
    },
    {
      name: 'restart allocation',
      method: 'POST',
      path: () => `/v1/client/allocation/${allocId}/restart`,
      body: () => ({}),
      allowed: [['alloc-lifecycle']],
      denied: [allBut('alloc-lifecycle')],
    },
    {
      name: 'list jobs',
      method: 'GET',
      path: () => '/v1/jobs',
      allowed: [['list-jobs']],
      denied: [allBut('list-jobs')],
    },
    {
      name: 'create job',
      method: 'POST',
      path: () => '/v1/jobs',
      body: newJob,
      allowed: [['submit-job']],
      denied: [allBut('submit-job')],
    },
    {
      name: 'create job with PolicyOverride',
      method: 'POST',
      path: () => '/v1/jobs',
      body: () => ({ ...newJob(), PolicyOverride: true }),
      allowed: [
        ['submit-job', 'policy-override'],
        ['submit-job', 'sentinel-override'],
      ],
      denied: [allBut('policy-override'), allBut('submit-job')],
    },
    {
      name: 'parse job (parse-job and submit-job)',
      method: 'POST',
      path: () => '/v1/jobs/parse',
      body: () => ({ JobHCL: hcl }),
      allowed: [['parse-job', 'submit-job']],
      denied: [allBut('parse-job'), allBut('submit-job'), ['parse-job']],
    },
    { name: 'read job', method: 'GET', path: () => '/v1/job/web', ...readJob },
    {
      name: 'read job submission',
      method: 'GET',
      path: () => '/v1/job/web/submission?version=0',
      ok: [404],
      ...readJob,
    },
    { name: 'list job versions', method: 'GET', path: () => '/v1/job/web/versions', ...readJob },
    { name: 'list job allocations', method: 'GET', path: () => '/v1/job/web/allocations', ...readJob },
    { name: 'list job evaluations', method: 'GET', path: () => '/v1/job/web/evaluations', ...readJob },
    { name: 'list job deployments', method: 'GET', path: () => '/v1/job/web/deployments', ...readJob },
    { name: 'read latest deployment', method: 'GET', path: () => '/v1/job/web/deployment', ...readJob },
    { name: 'read job summary', method: 'GET', path: () => '/v1/job/web/summary', ...readJob },
    {
      name: 'update job',
      method: 'POST',
      path: () => '/v1/job/web',
      body: () => ({ Job: mockJob('web', { count: 1, update: rolling(), meta: { v: '2' } }) }),
      allowed: [['submit-job']],
      denied: [allBut('submit-job')],
    },
    {
      name: 'dispatch job',
      method: 'POST',
      path: () => '/v1/job/param/dispatch',
      body: () => ({}),
      allowed: [['dispatch-job']],
      denied: [allBut('dispatch-job')],
    },
    {
      name: 'dispatch with raw payload',
      method: 'POST',
      path: () => '/v1/job/param/dispatch/payload',
      rawBody: 'hello',
      allowed: [['dispatch-job']],
      denied: [allBut('dispatch-job')],
    },
    {
      name: 'set job stability',
      method: 'POST',
      path: () => '/v1/job/web/stable',
      body: () => ({ JobID: 'web', JobVersion: 0, Stable: true }),
      allowed: [['submit-job']],
      denied: [allBut('submit-job')],
    },
    {
      name: 'create job evaluation',
      method: 'POST',
      path: () => '/v1/job/web/evaluate',
      body: () => ({ JobID: 'web' }),
      ...readJob,
    },
    {
      name: 'create job plan',
      method: 'POST',
      path: () => '/v1/job/web/plan',
      body: () => ({ Job: mockJob('web', { count: 2, update: rolling() }), Diff: true }),
      allowed: [['submit-job']],
      denied: [allBut('submit-job')],
    },
    {
      name: 'create job plan with PolicyOverride',
      method: 'POST',
      path: () => '/v1/job/web/plan',
      body: () => ({ Job: mockJob('web', { count: 2, update: rolling() }), PolicyOverride: true }),
      allowed: [['submit-job', 'policy-override']],
      denied: [allBut('policy-override')],
    },
    {
      name: 'force periodic instance (dispatch-job or submit-job)',
      method: 'POST',
      path: () => '/v1/job/cron/periodic/force',
      allowed: [['dispatch-job'], ['submit-job']],
      denied: [allBut('dispatch-job', 'submit-job')],
    },
    {
      name: 'revert job',
      method: 'POST',
      path: () => '/v1/job/web/revert',
      body: () => ({ JobID: 'web', JobVersion: 0 }),
      allowed: [['submit-job']],
      denied: [allBut('submit-job')],
    },
    {
      name: 'stop job',
      method: 'DELETE',
      path: () => '/v1/job/victim',
      allowed: [['submit-job']],
      denied: [allBut('submit-job')],
    },
    { name: 'list deployments', method: 'GET', path: () => '/v1/deployments', ...readJob },
    { name: 'list evaluations', method: 'GET', path: () => '/v1/evaluations', ...readJob },
    {
      name: 'stop allocation',
      method: 'POST',
      path: () => `/v1/allocation/${allocId}/stop`,
      allowed: [['alloc-lifecycle']],
      denied: [allBut('alloc-lifecycle')],
    },
    {
      name: 'list nodes (node:read)',
      method: 'GET',
      path: () => '/v1/nodes',
      allowed: [],
      denied: [allBut()],
      rules: {
        allowed: ['node { policy = "read" }'],
        denied: ['node { policy = "deny" }', 'agent { policy = "write" }'],
      },
    },
    {
      name: 'agent self (agent:read)',
      method: 'GET',
      path: () => '/v1/agent/self',
      allowed: [],
      denied: [allBut()],
      rules: { allowed: ['agent { policy = "read" }'], denied: ['node { policy = "write" }'] },
    },
    {
      name: 'namespace upsert (management)',
      method: 'POST',
      path: () => '/v1/namespace/extra',
      body: () => ({ Name: 'extra' }),
      allowed: [],
      denied: [allBut()],
      rules: {
        allowed: [],
        denied: [
          'namespace "*" { policy = "write" }\nnode { policy = "write" }\nagent { policy = "write" }\noperator { policy = "write" }',
        ],
      },
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const send = (token?: string) =>
      call(base(), c.method, c.path(), { token, body: c.body?.(), rawBody: c.rawBody });
    for (const caps of c.denied) {
      const t = await tokens.capabilities(caps);
      const r = await send(t.SecretID);
      expect({ caps, status: r.status, text: r.text }).toEqual({
        caps,
        status: 403,
        text: 'Permission denied',
      });
    }
    for (const rules of c.rules?.denied ?? []) {
      const r = await send((await tokens.withRules(rules)).SecretID);
      expect({ rules, status: r.status }).toEqual({ rules, status: 403 });
    }
    const anonymous = await send(undefined);
    expect(anonymous.status).toBe(403);
    for (const caps of c.allowed) {
      const t = await tokens.capabilities(caps);
      const r = await send(t.SecretID);
      const ok = (c.ok ?? []).includes(r.status) || r.status === 200;
      expect({ caps, ok, status: r.status, text: r.text.slice(0, 200) }).toEqual({
        caps,
        ok: true,
        status: r.status,
        text: r.text.slice(0, 200),
      });
    }
    for (const rules of c.rules?.allowed ?? []) {
      const r = await send((await tokens.withRules(rules)).SecretID);
      expect({ rules, status: r.status }).toEqual({ rules, status: 200 });
    }
    const root = await send(ROOT);
    expect(root.status).not.toBe(403);
  });
});
