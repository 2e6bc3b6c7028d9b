import { request } from 'undici';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { ValidationError } from '../../../src/api/errors';

interface Raw {
  status: number;
  text: string;
}

describe('request conventions: the filter grammar end to end (spec 4.1)', () => {
  let f: AgentFixture;
  const get = async (path: string, params: Record<string, string>): Promise<Raw> => {
    const url = new URL(path, f.agent.schedulerUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await request(url);
    return { status: res.statusCode, text: await res.body.text() };
  };
  const ids = async (path: string, filter: string): Promise<string[]> => {
    const r = await get(path, { filter });
    expect({ filter, status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({
      filter,
      status: 200,
      text: '',
    });
    return (JSON.parse(r.text) as { ID: string; JobID?: string }[]).map((x) => x.JobID ?? x.ID).sort();
  };

  beforeAll(async () => {
    f = await startAgent({ registry: false });
    await f.sched.jobs.register({
      ...mockJob('api', { count: 1, meta: { team: 'core', tier: 'gold' } }),
      Priority: 70,
      Datacenters: ['dc1', 'dc2'],
    });
    await f.sched.jobs.register({
      ...mockJob('worker', { count: 1, type: 'batch', meta: { team: 'data' } }),
      Priority: 50,
    });
    await f.sched.jobs.register({ ...mockJob('web-frontend', { count: 1 }), Priority: 30 });
    await eventually(async () => {
      const { value } = await f.sched.allocations.list();
      expect(value.filter((a) => a.ClientStatus === 'running')).toHaveLength(3);
    });
  });
  afterAll(() => f.stop());

  it.each([
    ['==', 'Type == "service"', ['api', 'web-frontend']],
    ['!=', 'Type != "service"', ['worker']],
    ['is empty', 'Meta is empty', ['web-frontend']],
    ['is not empty', 'Meta is not empty', ['api', 'worker']],
    ['in', '"dc2" in Datacenters', ['api']],
    ['not in', '"dc2" not in Datacenters', ['web-frontend', 'worker']],
    ['contains', 'Datacenters contains "dc2"', ['api']],
    ['not contains', 'Datacenters not contains "dc2"', ['web-frontend', 'worker']],
    ['substring with in', '"front" in ID', ['web-frontend']],
    ['matches', 'ID matches "^w"', ['web-frontend', 'worker']],
    ['not matches', 'ID not matches "^w"', ['api']],
    ['and', 'Type == "service" and Priority == 70', ['api']],
    ['or', 'Type == "batch" or Priority == 30', ['web-frontend', 'worker']],
    ['not', 'not Type == "batch"', ['api', 'web-frontend']],
    ['parentheses', 'not (Type == "batch" or ID == "api")', ['web-frontend']],
    ['precedence: A and not B or C', 'Type == "batch" and not Priority == 50 or ID == "api"', ['api']],
    ['precedence made explicit', 'Type == "batch" and (not Priority == 50 or ID == "api")', []],
    ['a number', 'Priority == 50', ['worker']],
    ['a dotted selector into a map', 'Meta.team == "core"', ['api']],
    ['a ["key"] selector', 'Meta["team"] == "data"', ['worker']],
    ['a missing map key is no match', 'Meta.nope == "x"', []],
    [
      'a selector through arrays of the full object',
      'TaskGroups.Tasks.Driver == "mock"',
      ['api', 'web-frontend', 'worker'],
    ],
    ['a backtick string (raw)', 'ID matches `^web\\-front`', ['web-frontend']],
    ['a double-quoted string with escapes', 'ID matches "^web\\\\-front"', ['web-frontend']],
    ['whitespace is free', '  (Type=="batch")   or(ID=="api")', ['api', 'worker']],
  ])('jobs: %s', async (_form, filter, expected) => {
    expect(await ids('/v1/jobs', filter)).toEqual(expected);
  });

  it.each([
    ['== on the full object', 'JobID == "api"', ['api']],
    ['the job inside the allocation', 'Job.Meta.team == "core"', ['api']],
    [
      'task states (not in the stub with task_states=false)',
      'TaskStates.server.State == "running" and TaskGroup == "web"',
      ['api', 'web-frontend', 'worker'],
    ],
    ['matches', 'JobID matches "^(api|worker)$"', ['api', 'worker']],
    [
      'not and or',
      'not JobID == "api" and (ClientStatus == "running" or ClientStatus == "pending")',
      ['web-frontend', 'worker'],
    ],
    [
      'is not empty on a nested field',
      'Resources is not empty and NodeID is not empty',
      ['api', 'web-frontend', 'worker'],
    ],
  ])('allocations: %s', async (_form, filter, expected) => {
    expect(await ids('/v1/allocations', filter)).toEqual(expected);
  });

  it('filters before making stubs: task_states=false still filters on TaskStates', async () => {
    const r = await get('/v1/allocations', {
      filter: 'TaskStates.server.State == "running"',
      task_states: 'false',
    });
    const list = JSON.parse(r.text) as Record<string, unknown>[];
    expect(list).toHaveLength(3);
    for (const a of list) expect(a).not.toHaveProperty('TaskStates');
  });

  it.each([
    ['/v1/jobs', 'NoSuchField == "x"'],
    ['/v1/allocations', 'Nope.Deeper == "x"'],
    ['/v1/nodes', 'Address == "127.0.0.1"'],
  ])(
    '%s: a selector missing from the full object is 400 "error finding value in datum"',
    async (path, filter) => {
      const r = await get(path, { filter });
      expect(r.status).toBe(400);
      expect(r.text).toContain('error finding value in datum');
    },
  );

  it('nodes filter on the full object (HTTPAddr), not the stub (Address)', async () => {
    const r = await get('/v1/nodes', { filter: 'HTTPAddr matches "^127\\\\.0\\\\.0\\\\.1:"' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toHaveLength(1);
  });

  it.each([
    ['/v1/jobs', { filter: 'ID == "api"', prefix: 'a' }, 'prefix'],
    ['/v1/allocations', { filter: 'JobID == "api"', prefix: 'ab' }, 'prefix'],
    ['/v1/evaluations', { filter: 'JobID == "api"', job: 'api' }, 'job'],
  ])('%s: filter with another filtering parameter is 400', async (path, params, other) => {
    const r = await get(path, params);
    expect(r.status).toBe(400);
    expect(r.text).toContain(`"${other}"`);
  });

  it.each([
    ['a syntax error', 'ID == '],
    ['an unknown operator', 'Priority > 50'],
    ['an unbalanced parenthesis', '(ID == "api"'],
    ['an invalid regular expression', 'ID matches "("'],
  ])('answers %s with 400', async (_what, filter) => {
    const r = await get('/v1/jobs', { filter });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/^filter: /);
  });

  it('the typed client raises ValidationError for a bad filter', async () => {
    await expect(f.sched.jobs.list({ filter: 'Nope == 1' })).rejects.toBeInstanceOf(ValidationError);
    const { value } = await f.sched.jobs.list({ filter: 'Meta.tier == "gold"' });
    expect(value.map((j) => j.ID)).toEqual(['api']);
  });
});
