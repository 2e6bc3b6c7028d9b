import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { ValidationError } from '../../../src/api/errors';
import { prepareJob, registerJob } from '../../../src/agent/sched/jobs/register';

const BULK = 1000;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json<T>(): T;
}

describe('request conventions: pagination, ordering, region, stale, gzip, pretty and stub options', () => {
  let f: AgentFixture;
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Raw> => {
    const res = await request(new URL(path, f.agent.schedulerUrl), { headers });
    const body = Buffer.from(await res.body.arrayBuffer());
    return {
      status: res.statusCode,
      headers: res.headers,
      body,
      json: <T>() => JSON.parse(body.toString()) as T,
    };
  };

  beforeAll(async () => {
    f = await startAgent({ registry: false });
    await f.sched.namespaces.upsert({ Name: 'bulk' });
    // A thousand jobs in ten store transactions: the scheduler's own register path, without the HTTP round trips.
    const sc = f.agent.scheduler.context;
    const order = Array.from({ length: BULK }, (_, i) => i).sort(() => Math.random() - 0.5);
    for (let b = 0; b < BULK; b += 100) {
      f.agent.store.write((tx) => {
        for (const i of order.slice(b, b + 100)) {
          registerJob(
            sc,
            tx,
            prepareJob(mockJob(`bulk-${String(i).padStart(4, '0')}`, { count: 0 }), 'bulk'),
            {},
          );
        }
      });
    }
    sc.kick();
    await f.sched.jobs.register(mockJob('api', { count: 2, meta: { owner: 'core' } }));
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('api');
      expect(value.filter((a) => a.ClientStatus === 'running')).toHaveLength(2);
    });
  });
  afterAll(() => f.stop());

  const allIds = Array.from({ length: BULK }, (_, i) => `bulk-${String(i).padStart(4, '0')}`);

  async function pages(query: string): Promise<{ ids: string[]; tokens: (string | undefined)[] }> {
    const ids: string[] = [];
    const tokens: (string | undefined)[] = [];
    let next: string | undefined;
    do {
      const r = await get(
        `/v1/jobs?namespace=bulk&per_page=100${query}${next ? `&next_token=${encodeURIComponent(next)}` : ''}`,
      );
      expect(r.status).toBe(200);
      const page = r.json<{ ID: string }[]>();
      expect(page.length).toBeLessThanOrEqual(100);
      ids.push(...page.map((j) => j.ID));
      next = r.headers['x-sched-nexttoken'] as string | undefined;
      tokens.push(next);
    } while (next && tokens.length < 50);
    return { ids, tokens };
  }

  it('pages over 1,000 jobs in a stable order with no duplicates or gaps; no token on the last page', async () => {
    const first = await pages('');
    expect(first.ids).toEqual(allIds);
    expect(first.tokens).toHaveLength(10);
    expect(first.tokens[9]).toBeUndefined();
    expect(first.tokens.slice(0, 9).every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
    const second = await pages('');
    expect(second).toEqual(first);
  });

  it('reverse=true pages the same set backwards', async () => {
    const rev = await pages('&reverse=true');
    expect(rev.ids).toEqual([...allIds].reverse());
  });

  it('pages a filtered list, and the typed client iterates every page', async () => {
    const filtered = await pages(`&filter=${encodeURIComponent('ID matches "5$"')}`);
    expect(filtered.ids).toEqual(allIds.filter((id) => id.endsWith('5')));
    const seen: string[] = [];
    for await (const j of f.sched.jobs.iterate({ namespace: 'bulk', perPage: 250 })) seen.push(j.ID!);
    expect(seen).toEqual(allIds);
  });

  it('namespace=* lists across namespaces', async () => {
    const r = await get('/v1/jobs?namespace=*');
    const list = r.json<{ ID: string; Namespace: string }[]>();
    expect(list).toHaveLength(BULK + 1);
    expect(new Set(list.map((j) => j.Namespace))).toEqual(new Set(['bulk', 'default']));
  });

  it('refuses a per_page that is not a positive integer', async () => {
    for (const v of ['0', '-3', 'many']) {
      const r = await get(`/v1/jobs?per_page=${v}`);
      expect(r.status).toBe(400);
      expect(r.body.toString()).toContain('per_page');
    }
  });

  it('answers a request for an unknown region with a clear error', async () => {
    const r = await get('/v1/jobs?region=mars');
    expect(r.status).toBe(400);
    expect(r.body.toString()).toContain('"mars"');
    expect((await get('/v1/jobs?region=global')).status).toBe(200);
    await expect(f.sched.jobs.list({ region: 'mars' })).rejects.toBeInstanceOf(ValidationError);
  });

  it.each(['/v1/jobs', '/v1/job/api', '/v1/allocations', '/v1/nodes', '/v1/job/api/summary'])(
    '%s?stale answers with X-Sched-Index, X-Sched-LastContact and X-Sched-KnownLeader',
    async (path) => {
      const r = await get(`${path}?stale`);
      expect(r.status).toBe(200);
      expect(Number(r.headers['x-sched-index'])).toBeGreaterThan(1);
      expect(r.headers['x-sched-lastcontact']).toBe('0');
      expect(r.headers['x-sched-knownleader']).toBe('true');
    },
  );

  it('the typed client reads the stale headers into its meta', async () => {
    const { meta } = await f.sched.jobs.list({ stale: true });
    expect(meta.knownLeader).toBe(true);
    expect(meta.lastContact).toBe(0);
    expect(meta.index).toBeGreaterThan(1);
  });

  it('gzips when asked, and only then', async () => {
    const plain = await get('/v1/jobs?namespace=bulk');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await get('/v1/jobs?namespace=bulk', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(plain.json());
  });

  it('formats output with pretty, minimized without', async () => {
    const min = await get('/v1/job/api');
    const pretty = await get('/v1/job/api?pretty');
    expect(min.body.toString()).not.toContain('\n');
    expect(pretty.body.toString()).toMatch(/^\{\n {4}"/);
    expect(pretty.json()).toEqual(min.json());
  });

  it('meta=true adds the Meta map to job stubs', async () => {
    const without = (await get('/v1/jobs')).json<Record<string, unknown>[]>();
    const withMeta = (await get('/v1/jobs?meta=true')).json<Record<string, unknown>[]>();
    expect(without[0]).not.toHaveProperty('Meta');
    expect(withMeta.find((j) => j['ID'] === 'api')?.['Meta']).toEqual({ owner: 'core' });
  });

  it('resources=true adds AllocatedResources; task_states=false drops TaskStates', async () => {
    const plain = (await get('/v1/allocations')).json<Record<string, unknown>[]>();
    expect(plain).toHaveLength(2);
    expect(plain[0]).toHaveProperty('TaskStates');
    expect(plain[0]).not.toHaveProperty('AllocatedResources');
    const res = (await get('/v1/allocations?resources=true&task_states=false')).json<
      Record<string, unknown>[]
    >();
    expect(res[0]).toHaveProperty('AllocatedResources');
    expect(res[0]).not.toHaveProperty('TaskStates');
    expect(res[0]!['AllocatedResources']).toMatchObject({ Tasks: { server: { Memory: { MemoryMB: 64 } } } });
  });

  it('allocation prefixes must be an even number of hex characters', async () => {
    const list = (await get('/v1/allocations')).json<{ ID: string }[]>();
    const id = list[0]!.ID;
    const ok = await get(`/v1/allocations?prefix=${id.slice(0, 4)}`);
    expect(ok.json<{ ID: string }[]>().map((a) => a.ID)).toContain(id);
    expect((await get(`/v1/allocations?prefix=${id.slice(0, 3)}`)).status).toBe(400);
    expect((await get('/v1/allocations?prefix=zz')).status).toBe(400);
  });
});
