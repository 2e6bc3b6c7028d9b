/**
 * The dev agent serving Nomad's and Consul's names (`dialect: 'hashicorp'`), read by clients of the
 * matching flavor and, wrongly configured, of the neutral one.
 */
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { ConflictError, DialectMismatchError } from '../../../src/api/errors';
import { SchedClient } from '../../../src/api/sched/client';
import { RegClient } from '../../../src/api/reg/client';
import { mockJob } from '../../helpers/jobs';

describe('dev agent in the hashicorp dialect', () => {
  let agent: DevAgent;
  beforeAll(async () => {
    agent = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01, dialect: 'hashicorp' });
  });
  afterAll(() => agent.stop());

  it("answers with Nomad's headers and names, and the nomad flavor reads them back neutral", async () => {
    const sched = new SchedClient({ address: agent.schedulerUrl, env: {}, flavor: 'nomad' });
    const job = mockJob('dialect-web', { count: 1 });
    job.TaskGroups![0]!.Tasks![0]!.Secrets = { Policies: ['web-read'] };
    await sched.jobs.register(job);
    const res = await fetch(`${agent.schedulerUrl}/v1/job/dialect-web`);
    expect(res.headers.get('x-nomad-index')).toMatch(/^\d+$/);
    expect(res.headers.get('x-sched-index')).toBeNull();
    const wire = (await res.json()) as {
      TaskGroups: Array<{ Consul: unknown; Tasks: Array<Record<string, unknown>> }>;
    };
    const task = wire.TaskGroups[0]!.Tasks[0]!;
    expect(task['Vault']).toMatchObject({ Policies: ['web-read'] });
    expect(task['Secrets']).toBeUndefined();
    expect(task['Identity']).toMatchObject({ Audience: ['nomadproject.io'] });
    expect(wire.TaskGroups[0]!.Consul).toEqual({ Namespace: '', Cluster: 'default', Partition: '' });

    const { value, meta } = await sched.jobs.read('dialect-web');
    expect(meta.index).toBeGreaterThan(0);
    expect(value.TaskGroups![0]!.Tasks![0]!.Secrets).toMatchObject({ Policies: ['web-read'] });
    await sched.close();
  });

  it('answers a failed check-and-set register as Nomad does (500), which the client maps to a conflict', async () => {
    const sched = new SchedClient({
      address: agent.schedulerUrl,
      env: {},
      flavor: 'nomad',
      retries: { max: 0 },
    });
    await sched.jobs.register(mockJob('dialect-cas', { count: 1 }));
    const res = await fetch(`${agent.schedulerUrl}/v1/jobs`, {
      method: 'POST',
      body: JSON.stringify({
        Job: mockJob('dialect-cas', { count: 2 }),
        EnforceIndex: true,
        JobModifyIndex: 1,
      }),
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/^Enforcing job modify index 1/);
    await expect(
      sched.jobs.register(mockJob('dialect-cas', { count: 2 }), { enforceIndex: 1 }),
    ).rejects.toBeInstanceOf(ConflictError);
    await sched.close();
  });

  it('tells a client of the wrong flavor so, instead of waiting for an index that never comes', async () => {
    const neutral = new SchedClient({ address: agent.schedulerUrl, env: {}, retries: { max: 0 } });
    await expect(neutral.jobs.list()).rejects.toThrow(DialectMismatchError);
    await expect(neutral.jobs.list()).rejects.toThrow(/flavor .*"nomad"/);
    const reg = new RegClient({ address: agent.registryUrl!, env: {}, retries: { max: 0 } });
    await expect(reg.namespaces.list()).rejects.toThrow(/X-Consul-\* headers/);
    await neutral.close();
    await reg.close();
  });

  it('takes the X-Nomad-Token header as the token', async () => {
    const acl = await startDevAgent({
      port: 0,
      registryPort: 0,
      dialect: 'hashicorp',
      acl: true,
      bootstrapToken: 'root-token-123456',
    });
    try {
      const denied = await fetch(`${acl.schedulerUrl}/v1/jobs`);
      expect(denied.status).toBe(403);
      const ok = await fetch(`${acl.schedulerUrl}/v1/jobs`, {
        headers: { 'X-Nomad-Token': 'root-token-123456' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await acl.stop();
    }
  });
});
