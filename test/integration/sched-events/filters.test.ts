import { startAgent, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { openStream, type RawStream } from './stream';

const jobIds = (s: RawStream): string[] =>
  s
    .events()
    .filter((e) => e.Topic === 'Job')
    .map((e) => `${e.Namespace}/${e.Key}`);

describe('event stream: topics, filter keys, namespaces and heartbeats', () => {
  let f: AgentFixture;
  let start: number;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
    await f.sched.namespaces.upsert({ Name: 'ops' });
    start = f.agent.store.index + 1;
    await f.sched.jobs.register(mockJob('alpha', { count: 1 }));
    await f.sched.jobs.register(mockJob('beta', { count: 1 }));
    await f.sched.jobs.register(mockJob('alpha', { count: 1, namespace: 'ops' }));
    await f.sched.jobs.register(mockJob('gamma', { count: 1, namespace: 'ops' }));
  });
  afterAll(() => f.stop());

  async function collect(query: string, until: (s: RawStream) => boolean): Promise<RawStream> {
    const s = await openStream(f.agent.schedulerUrl, `index=${start}&${query}`);
    try {
      await s.until(until);
      // Give the stream a moment to deliver anything that should not be there.
      await new Promise((r) => setTimeout(r, 150));
      return s;
    } finally {
      s.close();
    }
  }

  it('Job:<id> matches the event key only, in the requested namespace', async () => {
    const s = await collect('topic=Job:alpha', (x) => jobIds(x).length >= 1);
    expect([...new Set(jobIds(s))]).toEqual(['default/alpha']);
    expect(s.events().every((e) => e.Topic === 'Job')).toBe(true);
  });

  it('namespace=ops gives that namespace only; namespace=* gives all', async () => {
    const ops = await collect('topic=Job&namespace=ops', (x) => jobIds(x).includes('ops/gamma'));
    expect([...new Set(jobIds(ops))].sort()).toEqual(['ops/alpha', 'ops/gamma']);
    const all = await collect('topic=Job:*&namespace=*', (x) => jobIds(x).includes('ops/gamma'));
    expect([...new Set(jobIds(all))].sort()).toEqual([
      'default/alpha',
      'default/beta',
      'ops/alpha',
      'ops/gamma',
    ]);
  });

  it('Deployment:<job_id> and Allocation:<job_id> match through the FilterKeys', async () => {
    const s = await collect('topic=Allocation:beta&topic=Evaluation:beta', (x) =>
      x.events().some((e) => e.Type === 'AllocationCreated'),
    );
    expect(s.events().length).toBeGreaterThan(1);
    for (const e of s.events()) {
      expect(['Allocation', 'Evaluation']).toContain(e.Topic);
      expect(e.FilterKeys?.[0]).toBe('beta');
      expect(e.Key).not.toBe('beta');
    }
  });

  it('Node:* streams node registrations, which carry no namespace and no secret', async () => {
    const s = await openStream(f.agent.schedulerUrl, 'index=0&topic=Node:*');
    try {
      await s.until((x) => x.events().length >= 3);
      const ev = s.events();
      expect(ev.map((e) => e.Type)).toEqual(['NodeRegistration', 'NodeRegistration', 'NodeRegistration']);
      for (const e of ev) {
        expect(e.Namespace).toBe('');
        expect(e.Payload['Node']!['ID']).toBe(e.Key);
        expect(e.Payload['Node']).not.toHaveProperty('SecretID');
      }
    } finally {
      s.close();
    }
  });

  it('several topic parameters add up', async () => {
    const s = await openStream(f.agent.schedulerUrl, 'index=0&topic=Job:beta&topic=Node');
    try {
      await s.until(
        (x) => x.events().some((e) => e.Topic === 'Job') && x.events().some((e) => e.Topic === 'Node'),
      );
      expect(new Set(s.events().map((e) => e.Topic))).toEqual(new Set(['Job', 'Node']));
      expect(
        new Set(
          s
            .events()
            .filter((e) => e.Topic === 'Job')
            .map((e) => e.Key),
        ),
      ).toEqual(new Set(['beta']));
    } finally {
      s.close();
    }
  });

  it('sends {} heartbeats while nothing happens', async () => {
    const s = await openStream(f.agent.schedulerUrl, 'topic=Job:nothing-here');
    try {
      await s.until((x) => x.lines.length >= 2, 5000);
      expect(s.lines.slice(0, 2)).toEqual([{}, {}]);
      expect(s.messages()).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('rejects a malformed topic with 400', async () => {
    const s = await openStream(f.agent.schedulerUrl, 'topic=Job:');
    await s.ended;
    expect(s.status).toBe(400);
    expect(s.body).toContain('topic');
  });

  it('answers an unknown region with an error', async () => {
    const s = await openStream(f.agent.schedulerUrl, 'topic=Job&region=mars');
    await s.ended;
    expect(s.status).toBe(400);
    expect(s.body).toContain('mars');
  });
});
