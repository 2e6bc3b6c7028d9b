import type { SchedClient } from '../../../src/api/sched/client';
import { ALLOC_ID, clientFor, meta, startTestServer, type TestServer } from './server';

let srv: TestServer;
let client: SchedClient;

beforeEach(async () => {
  srv = await startTestServer();
  client = clientFor(srv, { token: 'secret-token-1' });
});
afterEach(async () => {
  await client.close();
  await srv.close();
});

function last() {
  const r = srv.requests.at(-1);
  if (!r) throw new Error('the server saw no request');
  return r;
}

describe('allocations', () => {
  test('list sends prefix, resources and task_states=false only when asked', async () => {
    srv.route('GET', '/v1/allocations', {
      body: [
        {
          ID: ALLOC_ID,
          JobID: 'web',
          ClientStatus: 'running',
          DesiredTransition: { Migrate: null, Reschedule: null, ForceReschedule: null },
          DeploymentStatus: {
            Healthy: true,
            Canary: false,
            Timestamp: '2024-01-01T00:00:00Z',
            ModifyIndex: 4,
          },
          AllocatedResources: {
            Tasks: { srv: { Cpu: { CpuShares: 100 }, Memory: { MemoryMB: 256 } } },
            Shared: { DiskMB: 300 },
          },
        },
      ],
      headers: meta(8),
    });
    const { value } = await client.allocations.list({ prefix: '5456', resources: true, taskStates: false });
    expect(last().query.get('prefix')).toBe('5456');
    expect(last().query.get('resources')).toBe('true');
    expect(last().query.get('task_states')).toBe('false');
    expect(last().headers['x-sched-token']).toBe('secret-token-1');
    expect(value[0]?.AllocatedResources?.Tasks?.['srv']?.Memory?.MemoryMB).toBe(256);

    await client.allocations.list();
    expect([...last().query.keys()]).toEqual([]);
  });

  test('read returns the full record with task states and events', async () => {
    srv.route('GET', `/v1/allocation/${ALLOC_ID}`, {
      body: {
        ID: ALLOC_ID,
        Name: 'web.app[0]',
        Job: { ID: 'web', TaskGroups: null },
        Resources: { CPU: 100, MemoryMB: 256, DiskMB: 300, Networks: null },
        Metrics: {
          NodesEvaluated: 1,
          NodesAvailable: { dc1: 1 },
          Scores: { 'n1.binpack': 0.5 },
          AllocationTime: 12345,
        },
        TaskStates: {
          srv: {
            State: 'running',
            Failed: false,
            Restarts: 0,
            StartedAt: '2024-01-01T00:00:00Z',
            FinishedAt: '0001-01-01T00:00:00Z',
            LastRestart: '0001-01-01T00:00:00Z',
            TaskHandle: null,
            Events: [
              {
                Type: 'Started',
                Time: 1704067200000000000,
                Details: {},
                DisplayMessage: 'Task started by client',
              },
            ],
          },
        },
        RescheduleTracker: {
          Events: [{ PrevAllocID: 'x', PrevNodeID: 'n', RescheduleTime: 1, Delay: 30000000000 }],
        },
        CreateTime: 1704067200000000000,
      },
    });
    const { value } = await client.allocations.read(ALLOC_ID);
    expect(value.TaskStates?.['srv']?.Events?.[0]?.Type).toBe('Started');
    expect(value.Metrics?.Scores?.['n1.binpack']).toBe(0.5);
    expect(value.RescheduleTracker?.Events?.[0]?.Delay).toBe(30000000000);
  });

  test('stop, signal and restart', async () => {
    srv.route('POST', `/v1/allocation/${ALLOC_ID}/stop`, { body: { EvalID: 'e1', Index: 3 } });
    srv.route('POST', `/v1/client/allocation/${ALLOC_ID}/signal`, { body: {} });
    srv.route('POST', `/v1/client/allocation/${ALLOC_ID}/restart`, { body: '' });

    expect((await client.allocations.stop(ALLOC_ID, { noShutdownDelay: true })).value.EvalID).toBe('e1');
    expect(last().query.get('no_shutdown_delay')).toBe('true');

    await client.allocations.signal(ALLOC_ID, { signal: 'SIGHUP', task: 'srv' });
    expect(JSON.parse(last().body)).toEqual({ Signal: 'SIGHUP', Task: 'srv' });
    await client.allocations.signal(ALLOC_ID, { signal: 'SIGUSR1' });
    expect(JSON.parse(last().body)).toEqual({ Signal: 'SIGUSR1' });

    await client.allocations.restart(ALLOC_ID, { task: 'srv' });
    expect(JSON.parse(last().body)).toEqual({ TaskName: 'srv' });
  });
});

describe('deployments', () => {
  const dep = {
    ID: 'd1',
    JobID: 'web',
    Status: 'running',
    TaskGroups: {
      app: {
        AutoPromote: false,
        AutoRevert: true,
        DesiredCanaries: 1,
        DesiredTotal: 2,
        HealthyAllocs: 0,
        PlacedAllocs: 1,
        PlacedCanaries: null,
        ProgressDeadline: 600000000000,
        Promoted: false,
        RequireProgressBy: null,
        UnhealthyAllocs: 0,
      },
    },
  };

  test('list, read, allocations, promote, fail', async () => {
    srv.route('GET', '/v1/deployments', { body: [dep] });
    srv.route('GET', '/v1/deployment/d1', { body: dep, headers: meta(5) });
    srv.route('GET', '/v1/deployment/allocations/d1', { body: [{ ID: ALLOC_ID }] });
    srv.route('POST', '/v1/deployment/promote/d1', { body: { EvalID: 'e', DeploymentModifyIndex: 6 } });
    srv.route('POST', '/v1/deployment/fail/d1', { body: { EvalID: 'e', RevertedJobVersion: 1 } });

    expect(
      (await client.deployments.list({ prefix: 'ab' })).value[0]?.TaskGroups?.['app']?.DesiredCanaries,
    ).toBe(1);
    expect(last().query.get('prefix')).toBe('ab');
    expect((await client.deployments.read('d1')).meta.index).toBe(5);
    expect((await client.deployments.allocations('d1')).value[0]?.ID).toBe(ALLOC_ID);
    await client.deployments.promote('d1', { groups: ['app'] });
    expect(JSON.parse(last().body)).toEqual({ DeploymentID: 'd1', Groups: ['app'] });
    await client.deployments.promote('d1', { all: true });
    expect(JSON.parse(last().body)).toEqual({ DeploymentID: 'd1', All: true });
    expect((await client.deployments.fail('d1')).value.RevertedJobVersion).toBe(1);
    expect(JSON.parse(last().body)).toEqual({ DeploymentID: 'd1' });
  });

  test('watch issues blocking reads from the last index and yields changes', async () => {
    let n = 0;
    srv.route('GET', '/v1/deployment/d1', () => {
      n++;
      return { body: { ...dep, Status: n < 2 ? 'running' : 'successful' }, headers: meta(10 + n) };
    });
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const r of client.deployments.watch('d1', { signal: ac.signal, wait: '1s' })) {
      seen.push(r.value.Status ?? '');
      if (r.value.Status === 'successful') ac.abort();
    }
    expect(seen).toEqual(['running', 'successful']);
    expect(srv.requests[0]?.query.has('index')).toBe(false);
    expect(srv.requests[1]?.query.get('index')).toBe('11');
    expect(srv.requests[1]?.query.get('wait')).toBe('1s');
  });
});

describe('evaluations, nodes, namespaces', () => {
  test('evaluations list/read/allocations', async () => {
    srv.route('GET', '/v1/evaluations', {
      body: [{ ID: 'e1', Status: 'blocked', QueuedAllocations: { app: 1 }, ClassEligibility: null }],
    });
    srv.route('GET', '/v1/evaluation/e1', { body: { ID: 'e1', FailedTGAllocs: { app: null } } });
    srv.route('GET', '/v1/evaluation/e1/allocations', { body: [] });
    expect(
      (await client.evaluations.list({ job: 'web', status: 'blocked' })).value[0]?.QueuedAllocations,
    ).toEqual({ app: 1 });
    expect(last().query.get('job')).toBe('web');
    expect(last().query.get('status')).toBe('blocked');
    expect((await client.evaluations.read('e1')).value.FailedTGAllocs).toEqual({ app: null });
    expect((await client.evaluations.allocations('e1')).value).toEqual([]);
  });

  test('nodes list/read', async () => {
    srv.route('GET', '/v1/nodes', {
      body: [
        {
          ID: 'n1',
          Address: '10.0.0.1',
          Status: 'ready',
          Drivers: { docker: { Detected: true, Healthy: true } },
        },
      ],
    });
    srv.route('GET', '/v1/node/n1', {
      body: {
        ID: 'n1',
        HTTPAddr: '10.0.0.1:4646',
        NodeResources: {
          Cpu: { CpuShares: 4000 },
          Memory: { MemoryMB: 8192 },
          Disk: { DiskMB: 1000 },
          Networks: null,
        },
        Events: [
          {
            Message: 'Node registered',
            Subsystem: 'Cluster',
            Details: null,
            Timestamp: '2024-01-01T00:00:00Z',
            CreateIndex: 0,
          },
        ],
      },
    });
    expect((await client.nodes.list({ resources: true, os: true })).value[0]?.Address).toBe('10.0.0.1');
    expect(last().query.get('resources')).toBe('true');
    expect(last().query.get('os')).toBe('true');
    expect((await client.nodes.read('n1')).value.NodeResources?.Memory?.MemoryMB).toBe(8192);
  });

  test('namespaces list/read/upsert/delete', async () => {
    srv.route('GET', '/v1/namespaces', {
      body: [{ Name: 'default', Description: 'Default shared namespace' }],
    });
    srv.route('GET', '/v1/namespace/team-a', {
      body: { Name: 'team-a', Meta: { owner: 'a' }, Capabilities: null },
    });
    srv.route('POST', '/v1/namespace/team-a', { body: '', headers: meta(14) });
    srv.route('DELETE', '/v1/namespace/team-a', { body: '', headers: meta(15) });
    expect((await client.namespaces.list()).value[0]?.Name).toBe('default');
    expect((await client.namespaces.read('team-a')).value.Meta).toEqual({ owner: 'a' });
    const up = await client.namespaces.upsert({ Name: 'team-a', Description: 'A', Meta: { owner: 'a' } });
    expect(JSON.parse(last().body)).toEqual({ Name: 'team-a', Description: 'A', Meta: { owner: 'a' } });
    expect(up.meta.index).toBe(14);
    expect((await client.namespaces.delete('team-a')).meta.index).toBe(15);
    expect(last().method).toBe('DELETE');
  });
});

describe('acl', () => {
  const accessor = 'b7a6e2c1-1111-2222-3333-444455556666';
  test('tokens and policies', async () => {
    srv.route('POST', '/v1/acl/bootstrap', {
      body: { AccessorID: accessor, SecretID: 's', Type: 'management', Policies: null },
    });
    srv.route('GET', '/v1/acl/token/self', { body: { AccessorID: accessor, Type: 'management' } });
    srv.route('POST', '/v1/acl/token', {
      body: { AccessorID: accessor, SecretID: 's2', Type: 'client', Policies: ['read'] },
    });
    srv.route('DELETE', `/v1/acl/token/${accessor}`, { body: '' });
    srv.route('POST', '/v1/acl/policy/read', { body: '' });
    srv.route('GET', '/v1/acl/policies', { body: [{ Name: 'read', Description: '' }] });

    expect((await client.acl.bootstrap()).value.Type).toBe('management');
    expect(last().body).toBe('');
    expect((await client.acl.self()).value.AccessorID).toBe(accessor);
    const created = await client.acl.createToken({ Name: 'ci', Type: 'client', Policies: ['read'] });
    expect(JSON.parse(last().body)).toEqual({ Name: 'ci', Type: 'client', Policies: ['read'] });
    expect(created.value.SecretID).toBe('s2');
    await client.acl.deleteToken(accessor);
    expect(last().method).toBe('DELETE');
    await client.acl.upsertPolicy({ Name: 'read', Rules: 'namespace "default" { policy = "read" }' });
    expect(JSON.parse(last().body)).toEqual({
      Name: 'read',
      Rules: 'namespace "default" { policy = "read" }',
    });
    expect((await client.acl.policies()).value[0]?.Name).toBe('read');
  });
});
