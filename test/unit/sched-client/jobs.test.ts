import { ConflictError, NotFoundError } from '../../../src/api/errors';
import type { SchedClient } from '../../../src/api/sched/client';
import type { Job } from '../../../src/api/sched/schemas';
import { clientFor, meta, startTestServer, type TestServer } from './server';

const job: Job = {
  ID: 'web',
  Name: 'web',
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: [
    { Name: 'app', Count: 2, Tasks: [{ Name: 'srv', Driver: 'docker', Config: { image: 'nginx' } }] },
  ],
};

const registerReply = { EvalID: 'e1', EvalCreateIndex: 12, JobModifyIndex: 12, Warnings: '', Index: 12 };

let srv: TestServer;
let client: SchedClient;

beforeEach(async () => {
  srv = await startTestServer();
  client = clientFor(srv, { namespace: 'team-a' });
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

function queryOf(r: { query: URLSearchParams }): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of r.query) (out[k] ??= []).push(v);
  return out;
}

describe('jobs', () => {
  test('list sends prefix, meta, pagination and namespace; parses meta headers', async () => {
    srv.route('GET', '/v1/jobs', {
      body: [
        {
          ID: 'web',
          Name: 'web',
          Type: 'service',
          JobSummary: { JobID: 'web', Summary: { app: { Running: 2 } } },
          Meta: { owner: 'x' },
        },
      ],
      headers: meta(42, { 'X-Sched-NextToken': 'web2' }),
    });
    const { value, meta: m } = await client.jobs.list({
      prefix: 'we',
      meta: true,
      perPage: 1,
      nextToken: 'a',
      namespace: '*',
    });
    expect(last().method).toBe('GET');
    expect(queryOf(last())).toEqual({
      namespace: ['*'],
      prefix: ['we'],
      meta: ['true'],
      per_page: ['1'],
      next_token: ['a'],
    });
    expect(value[0]?.JobSummary?.Summary?.['app']?.Running).toBe(2);
    expect(value[0]?.Meta).toEqual({ owner: 'x' });
    expect(m).toEqual({ index: 42, lastContact: 7, knownLeader: true, nextToken: 'web2' });
  });

  test('list with filter sends it; iterate follows next tokens', async () => {
    let calls = 0;
    srv.route('GET', '/v1/jobs', (req) => {
      calls++;
      const token = req.query.get('next_token');
      if (!token) return { body: [{ ID: 'a' }], headers: meta(3, { 'X-Sched-NextToken': 'b' }) };
      return { body: [{ ID: token }], headers: meta(3) };
    });
    const ids: string[] = [];
    for await (const stub of client.jobs.iterate({ filter: 'Status == "running"', perPage: 1 }))
      ids.push(stub.ID);
    expect(ids).toEqual(['a', 'b']);
    expect(calls).toBe(2);
    expect(srv.requests[0]?.query.get('filter')).toBe('Status == "running"');
    expect(srv.requests[1]?.query.get('next_token')).toBe('b');
  });

  test('register sends the job with check-and-set fields', async () => {
    srv.route('POST', '/v1/jobs', { body: registerReply, headers: meta(12) });
    const { value } = await client.jobs.register(job, {
      enforceIndex: 0,
      evalPriority: 70,
      preserveCounts: true,
    });
    expect(last().method).toBe('POST');
    expect(last().query.get('namespace')).toBe('team-a');
    expect(JSON.parse(last().body)).toEqual({
      Job: job,
      EnforceIndex: true,
      JobModifyIndex: 0,
      EvalPriority: 70,
      PreserveCounts: true,
    });
    expect(last().headers['content-type']).toBe('application/json');
    expect(value.EvalID).toBe('e1');
  });

  test('register without enforceIndex sends no check-and-set', async () => {
    srv.route('POST', '/v1/jobs', { body: registerReply });
    await client.jobs.register(job);
    expect(JSON.parse(last().body)).toEqual({ Job: job });
  });

  test('a check-and-set failure surfaces as ConflictError', async () => {
    srv.route('POST', '/v1/jobs', {
      status: 500,
      body: 'Enforcing job modify index 3: job exists with conflicting job modify index: 5',
      headers: { 'content-type': 'text/plain' },
    });
    await expect(client.jobs.register(job, { enforceIndex: 3 })).rejects.toBeInstanceOf(ConflictError);
  });

  test('create posts the request body as given', async () => {
    srv.route('POST', '/v1/jobs', { body: registerReply });
    await client.jobs.create({
      Job: job,
      PolicyOverride: true,
      Submission: { Source: 'job "web" {}', Format: 'hcl2' },
    });
    expect(JSON.parse(last().body)).toEqual({
      Job: job,
      PolicyOverride: true,
      Submission: { Source: 'job "web" {}', Format: 'hcl2' },
    });
  });

  test('update posts to /v1/job/<id>', async () => {
    srv.route('POST', '/v1/job/web', { body: { EvalID: 'e2', EvalCreateIndex: 13, JobModifyIndex: 13 } });
    const { value } = await client.jobs.update('web', { Job: job, EnforceIndex: true, JobModifyIndex: 12 });
    expect(JSON.parse(last().body)).toMatchObject({ EnforceIndex: true, JobModifyIndex: 12 });
    expect(value.JobModifyIndex).toBe(13);
  });

  test('parse posts JobHCL and returns the job', async () => {
    srv.route('POST', '/v1/jobs/parse', { body: { ...job, Priority: 50 } });
    const { value } = await client.jobs.parse({
      JobHCL: 'job "web" {}',
      Canonicalize: true,
      Variables: 'a = 1',
    });
    expect(JSON.parse(last().body)).toEqual({
      JobHCL: 'job "web" {}',
      Canonicalize: true,
      Variables: 'a = 1',
    });
    expect(value.Priority).toBe(50);
  });

  test('read is a blocking GET with index, wait and stale', async () => {
    srv.route('GET', '/v1/job/web', { body: { ...job, Version: 3, JobModifyIndex: 40 }, headers: meta(40) });
    const { value, meta: m } = await client.jobs.read('web', {
      index: 39,
      wait: '5s',
      stale: true,
      region: 'eu',
    });
    expect(queryOf(last())).toEqual({
      namespace: ['team-a'],
      region: ['eu'],
      stale: [''],
      index: ['39'],
      wait: ['5s'],
    });
    expect(value.Version).toBe(3);
    expect(m.index).toBe(40);
  });

  test('read of a missing job is NotFoundError', async () => {
    await expect(client.jobs.read('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  test('job IDs are escaped as one path segment', async () => {
    srv.route('GET', '/v1/job/batch%2Fdispatch-1', { body: { ID: 'batch/dispatch-1' } });
    const { value } = await client.jobs.read('batch/dispatch-1');
    expect(value.ID).toBe('batch/dispatch-1');
  });

  test('submission sends version', async () => {
    srv.route('GET', '/v1/job/web/submission', {
      body: { Source: 'job "web" {}', Format: 'hcl2', JobID: 'web', Version: 2, VariableFlags: null },
    });
    const { value } = await client.jobs.submission('web', 2);
    expect(last().query.get('version')).toBe('2');
    expect(value.Format).toBe('hcl2');
  });

  test('versions sends diffs and diff_version', async () => {
    srv.route('GET', '/v1/job/web/versions', {
      body: {
        Versions: [
          { ...job, Version: 1 },
          { ...job, Version: 0 },
        ],
        Diffs: [
          {
            Type: 'Edited',
            ID: 'web',
            Fields: [{ Type: 'Edited', Name: 'Priority', Old: '50', New: '60' }],
            Objects: null,
            TaskGroups: null,
          },
        ],
        Index: 9,
        KnownLeader: true,
        LastContact: 0,
      },
    });
    const { value } = await client.jobs.versions('web', { diffs: true, diffVersion: 0 });
    expect(last().query.get('diffs')).toBe('true');
    expect(last().query.get('diff_version')).toBe('0');
    expect(value.Versions?.map((v) => v.Version)).toEqual([1, 0]);
    expect(value.Diffs?.[0]?.Fields?.[0]?.New).toBe('60');
  });

  test('allocations, evaluations, deployments, latest deployment and summary', async () => {
    srv.route('GET', '/v1/job/web/allocations', {
      body: [{ ID: 'a1', ClientStatus: 'running', TaskStates: null }],
    });
    srv.route('GET', '/v1/job/web/evaluations', {
      body: [{ ID: 'e1', Status: 'complete', FailedTGAllocs: null }],
    });
    srv.route('GET', '/v1/job/web/deployments', { body: [{ ID: 'd1', Status: 'running', TaskGroups: {} }] });
    srv.route('GET', '/v1/job/web/deployment', { body: null });
    srv.route('GET', '/v1/job/web/summary', {
      body: {
        JobID: 'web',
        Summary: { app: { Queued: 0, Running: 2 } },
        Children: { Pending: 0, Running: 0, Dead: 0 },
      },
    });

    expect((await client.jobs.allocations('web', { all: true })).value[0]?.ClientStatus).toBe('running');
    expect(last().query.get('all')).toBe('true');
    await client.jobs.allocations('web');
    expect(last().query.has('all')).toBe(false);
    expect((await client.jobs.evaluations('web')).value[0]?.Status).toBe('complete');
    expect((await client.jobs.deployments('web', { all: true })).value[0]?.ID).toBe('d1');
    expect(last().query.get('all')).toBe('true');
    expect((await client.jobs.latestDeployment('web')).value).toBeNull();
    expect((await client.jobs.summary('web')).value.Summary?.['app']?.Running).toBe(2);
  });

  test('dispatch encodes bytes, sends the idempotency token and is retried', async () => {
    let attempts = 0;
    srv.route('POST', '/v1/job/report/dispatch', () => {
      attempts++;
      if (attempts === 1) return { status: 503, body: 'busy', headers: { 'content-type': 'text/plain' } };
      return {
        body: {
          DispatchedJobID: 'report/dispatch-1',
          EvalID: 'e',
          EvalCreateIndex: 5,
          JobCreateIndex: 5,
          Index: 5,
        },
      };
    });
    const retrying = clientFor(srv, { retries: { max: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    try {
      const { value } = await retrying.jobs.dispatch(
        'report',
        { Payload: new TextEncoder().encode('hello'), Meta: { day: 'mon' }, IdPrefixTemplate: 'nightly' },
        { idempotencyToken: 'tok-1' },
      );
      expect(value.DispatchedJobID).toBe('report/dispatch-1');
    } finally {
      await retrying.close();
    }
    expect(attempts).toBe(2);
    expect(last().query.get('idempotency_token')).toBe('tok-1');
    expect(JSON.parse(last().body)).toEqual({
      JobID: 'report',
      Payload: Buffer.from('hello').toString('base64'),
      Meta: { day: 'mon' },
      IdPrefixTemplate: 'nightly',
    });
  });

  test('dispatch without an idempotency token is not retried', async () => {
    let attempts = 0;
    srv.route('POST', '/v1/job/report/dispatch', () => {
      attempts++;
      return { status: 503, body: 'busy', headers: { 'content-type': 'text/plain' } };
    });
    const retrying = clientFor(srv, { retries: { max: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    try {
      await expect(retrying.jobs.dispatch('report', { Payload: 'aGk=' })).rejects.toThrow(/HTTP 503/);
    } finally {
      await retrying.close();
    }
    expect(attempts).toBe(1);
  });

  test('dispatchPayload sends the raw body with its content type', async () => {
    srv.route('POST', '/v1/job/report/dispatch/payload', { body: { DispatchedJobID: 'report/dispatch-2' } });
    await client.jobs.dispatchPayload('report', '{"a":1}', {
      contentType: 'application/json',
      idempotencyToken: 't',
    });
    expect(last().body).toBe('{"a":1}');
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().query.get('idempotency_token')).toBe('t');
  });

  test('revert, stable, evaluate', async () => {
    srv.route('POST', '/v1/job/web/revert', { body: registerReply });
    srv.route('POST', '/v1/job/web/stable', { body: { JobModifyIndex: 20, Index: 20 } });
    srv.route('POST', '/v1/job/web/evaluate', { body: registerReply });

    await client.jobs.revert('web', { JobVersion: 1, EnforcePriorVersion: 3 });
    expect(JSON.parse(last().body)).toEqual({ JobID: 'web', JobVersion: 1, EnforcePriorVersion: 3 });
    await client.jobs.revert('web', { TaggedVersion: 'golden' });
    expect(JSON.parse(last().body)).toEqual({ JobID: 'web', TaggedVersion: 'golden' });

    const stable = await client.jobs.stable('web', 2, true);
    expect(JSON.parse(last().body)).toEqual({ JobID: 'web', JobVersion: 2, Stable: true });
    expect(stable.value.JobModifyIndex).toBe(20);

    await client.jobs.evaluate('web', { forceReschedule: true });
    expect(JSON.parse(last().body)).toEqual({ JobID: 'web', EvalOptions: { ForceReschedule: true } });
  });

  test('plan sends Job, Diff and PolicyOverride and parses annotations and diffs', async () => {
    srv.route('POST', '/v1/job/web/plan', {
      body: {
        Index: 0,
        JobModifyIndex: 12,
        Warnings: '',
        NextPeriodicLaunch: '0001-01-01T00:00:00Z',
        CreatedEvals: null,
        FailedTGAllocs: { app: { NodesEvaluated: 3, NodesExhausted: 3, DimensionExhausted: { memory: 3 } } },
        Annotations: {
          DesiredTGUpdates: {
            app: { Place: 1, InPlaceUpdate: 0, DestructiveUpdate: 1, Stop: 0, Migrate: 0, Ignore: 1 },
          },
        },
        Diff: {
          Type: 'Edited',
          ID: 'web',
          Fields: null,
          Objects: null,
          TaskGroups: [
            {
              Type: 'Edited',
              Name: 'app',
              Updates: { 'create/destroy update': 1 },
              Fields: [{ Type: 'Edited', Name: 'Count', Old: '1', New: '2', Annotations: null }],
              Objects: null,
              Tasks: [
                {
                  Type: 'Edited',
                  Name: 'srv',
                  Annotations: ['forces create/destroy update'],
                  Fields: null,
                  Objects: [
                    {
                      Type: 'Edited',
                      Name: 'Config',
                      Fields: [{ Type: 'Edited', Name: 'image', Old: 'nginx:1', New: 'nginx:2' }],
                      Objects: null,
                    },
                  ],
                },
              ],
            },
          ],
        },
      },
    });
    const { value } = await client.jobs.plan(job, { diff: true });
    expect(JSON.parse(last().body)).toEqual({ Job: job, Diff: true, PolicyOverride: false });
    expect(value.Annotations?.DesiredTGUpdates?.['app']?.DestructiveUpdate).toBe(1);
    expect(value.Diff?.TaskGroups?.[0]?.Tasks?.[0]?.Objects?.[0]?.Fields?.[0]?.New).toBe('nginx:2');
    expect(value.FailedTGAllocs?.['app']?.DimensionExhausted).toEqual({ memory: 3 });
  });

  test('periodicForce and deregister', async () => {
    srv.route('POST', '/v1/job/cron/periodic/force', {
      body: { EvalID: 'e9', EvalCreateIndex: 30, Index: 30 },
    });
    srv.route('DELETE', '/v1/job/web', { body: { EvalID: 'e10', EvalCreateIndex: 31, JobModifyIndex: 31 } });
    expect((await client.jobs.periodicForce('cron')).value.EvalID).toBe('e9');
    expect(last().body).toBe('');
    const { value } = await client.jobs.deregister('web', { purge: true, global: true });
    expect(last().method).toBe('DELETE');
    expect(queryOf(last())).toEqual({ namespace: ['team-a'], purge: ['true'], global: ['true'] });
    expect(value.EvalID).toBe('e10');
  });
});
