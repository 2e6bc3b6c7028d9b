import { RequestValidationError } from '../../../src/api/errors';
import type { SchedClient } from '../../../src/api/sched/client';
import { ALLOC_ID, clientFor, startTestServer, type TestServer } from './server';

let srv: TestServer;
let client: SchedClient;

beforeAll(async () => {
  srv = await startTestServer();
  client = clientFor(srv);
});
afterAll(async () => {
  await client.close();
  await srv.close();
});
beforeEach(() => {
  srv.requests.length = 0;
});

/** The call must be refused locally, naming the field and the rule, with nothing sent. */
async function refused(call: () => Promise<unknown>, field: string, rule: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await call();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(RequestValidationError);
  const err = caught as RequestValidationError;
  expect(err.field).toBe(field);
  expect(err.rule).toMatch(rule);
  expect(err.message).toContain(field);
  expect(srv.requests).toHaveLength(0);
}

describe('client-side rules', () => {
  test('allocation prefix must be even-length lowercase hex', async () => {
    await refused(() => client.allocations.list({ prefix: 'abc' }), 'prefix', /even number/);
    await refused(() => client.allocations.list({ prefix: 'zz' }), 'prefix', /hexadecimal/);
    await refused(() => client.allocations.list({ prefix: 'AB' }), 'prefix', /hexadecimal/);
    await refused(() => client.evaluations.list({ prefix: '1' }), 'prefix', /even number/);
  });

  test('allocation read needs the full UUID, not the short form', async () => {
    await refused(() => client.allocations.read(ALLOC_ID.slice(0, 8)), 'allocId', /full UUID/);
    await refused(() => client.allocations.stop('5456bd7a'), 'allocId', /full UUID/);
    await refused(
      () => client.allocations.exec('5456bd7a', { command: ['sh'], task: 't' }),
      'allocId',
      /full UUID/,
    );
  });

  test('filter cannot be combined with prefix', async () => {
    await refused(() => client.jobs.list({ filter: 'Type == "batch"', prefix: 'web' }), 'filter', /prefix/);
    await refused(() => client.allocations.list({ filter: 'a == "b"', prefix: 'ab' }), 'filter', /prefix/);
    await refused(() => client.evaluations.list({ filter: 'a == "b"', job: 'web' }), 'filter', /job/);
  });

  test('per_page must be a positive integer', async () => {
    await refused(() => client.jobs.list({ perPage: 0 }), 'per_page', /positive integer/);
    await refused(() => client.jobs.list({ perPage: 2.5 }), 'per_page', /positive integer/);
    await refused(
      async () => {
        for await (const _ of client.jobs.iterate({ perPage: -1 })) void _;
      },
      'per_page',
      /positive integer/,
    );
  });

  test('dispatch payload is at most 16384 bytes, decoded or raw', async () => {
    const big = new Uint8Array(16385);
    await refused(() => client.jobs.dispatch('report', { Payload: big }), 'Payload', /16384/);
    await refused(
      () => client.jobs.dispatch('report', { Payload: Buffer.from(big).toString('base64') }),
      'Payload',
      /16384/,
    );
    await refused(() => client.jobs.dispatch('report', { Payload: 'not base64!' }), 'Payload', /base64/);
    await refused(() => client.jobs.dispatchPayload('report', big), 'payload', /16384/);
    await refused(() => client.jobs.dispatchPayload('report', 'x'.repeat(16385)), 'payload', /16384/);
  });

  test('a payload of exactly 16384 bytes is sent', async () => {
    srv.route('POST', '/v1/job/report/dispatch', { body: { DispatchedJobID: 'r' } });
    await client.jobs.dispatch('report', { Payload: new Uint8Array(16384) });
    expect(srv.requests).toHaveLength(1);
  });

  test('revert takes JobVersion or TaggedVersion, not both', async () => {
    await refused(
      () => client.jobs.revert('web', { JobVersion: 1, TaggedVersion: 'v1' }),
      'TaggedVersion',
      /JobVersion/,
    );
    await refused(() => client.jobs.revert('web', {}), 'JobVersion', /required/);
  });

  test('other argument rules', async () => {
    await refused(() => client.jobs.read(''), 'jobId', /non-empty/);
    await refused(() => client.jobs.versions('web', { diffVersion: 1 }), 'diff_version', /diffs/);
    await refused(() => client.jobs.update('web', { Job: { ID: 'api' } }), 'Job.ID', /path/);
    await refused(() => client.allocations.signal(ALLOC_ID, { signal: '' }), 'Signal', /non-empty/);
    await refused(
      () => client.allocations.restart(ALLOC_ID, { task: 'a', allTasks: true }),
      'AllTasks',
      /TaskName/,
    );
    await refused(() => client.deployments.promote('d1', {}), 'All', /required/);
    await refused(() => client.deployments.promote('d1', { all: true, groups: ['a'] }), 'Groups', /All/);
    await refused(() => client.namespaces.upsert({ Name: 'bad name' }), 'Name', /letters/);
    await refused(async () => client.events.stream({ topics: { 'Job:x': ['*'] } }), 'topics', /':'/);
    await refused(
      () => client.allocations.exec(ALLOC_ID, { command: [], task: 't' }),
      'command',
      /non-empty/,
    );
  });
});
