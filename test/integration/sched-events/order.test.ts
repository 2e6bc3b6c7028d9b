import { startAgent, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import { openStream, type RawStream, type WireEvent } from './stream';

const successful = (s: RawStream, job: string): boolean =>
  s
    .events()
    .some(
      (e) =>
        e.Topic === 'Deployment' &&
        (e.Payload['Deployment'] as { JobID: string; Status: string }).JobID === job &&
        (e.Payload['Deployment'] as { Status: string }).Status === 'successful',
    );

const label = (e: WireEvent): string => `${e.Topic}/${e.Type}`;

describe('event stream: the events of a register and its deployment, in order, and resumption', () => {
  let f: AgentFixture;
  let s: RawStream;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
    s = await openStream(
      f.agent.schedulerUrl,
      `index=${f.agent.store.index + 1}&topic=Job:web&topic=Deployment:web&topic=Allocation:web&topic=Evaluation:web`,
    );
    await f.sched.jobs.register(mockJob('web', { count: 2, update: rolling() }));
    await s.until((x) => successful(x, 'web'));
  });
  afterAll(async () => {
    s.close();
    await f.stop();
  });

  it('streams newline-delimited {Index, Events} messages whose events carry the message index', () => {
    expect(s.status).toBe(200);
    const msgs = s.messages();
    for (let i = 1; i < msgs.length; i++) expect(msgs[i]!.Index).toBeGreaterThan(msgs[i - 1]!.Index);
    for (const m of msgs) for (const e of m.Events) expect(e.Index).toBe(m.Index);
  });

  it('sees registration, placement, client updates, health and the successful deployment in that order', () => {
    const msgs = s.messages();
    expect(msgs[0]!.Events.map(label)).toEqual(['Job/JobRegistered', 'Evaluation/JobRegistered']);
    const job = msgs[0]!.Events[0]!.Payload['Job']!;
    expect(job).toMatchObject({ ID: 'web', Namespace: 'default', Version: 0 });

    // The evaluation's plan lands in one commit: deployment created, two allocations placed.
    const plan = msgs[1]!.Events.map(label);
    expect(plan.filter((l) => l === 'Allocation/AllocationCreated')).toHaveLength(2);
    expect(plan).toContain('Deployment/DeploymentStatusUpdate');
    expect(plan).toContain('Evaluation/EvaluationUpdated');

    const all = s.events();
    const at = (pred: (e: WireEvent) => boolean): number => all.findIndex(pred);
    const firstRunning = at(
      (e) => e.Type === 'AllocationUpdated' && e.Payload['Allocation']!['ClientStatus'] === 'running',
    );
    const firstHealth = at((e) => e.Type === 'DeploymentAllocHealth');
    const done = at((e) => e.Topic === 'Deployment' && e.Payload['Deployment']!['Status'] === 'successful');
    expect(firstRunning).toBeGreaterThan(0);
    expect(firstHealth).toBeGreaterThan(firstRunning);
    expect(done).toBeGreaterThan(firstHealth);
    expect(all[done]!.Type).toBe('DeploymentStatusUpdate');
    // One per allocation; the deployment's own health counts may follow as their own event.
    expect(all.filter((e) => e.Topic === 'Allocation' && e.Type === 'DeploymentAllocHealth')).toHaveLength(2);
    for (const e of all.filter((x) => x.Topic === 'Deployment' && x.Type === 'DeploymentAllocHealth')) {
      expect((e.Payload['Deployment'] as { Status: string }).Status).toBe('running');
    }
  });

  it('gives allocation events Nomad filter keys and payloads without the job', () => {
    const alloc = s.events().find((e) => e.Type === 'AllocationCreated')!;
    const a = alloc.Payload['Allocation']!;
    expect(alloc.Key).toBe(a['ID']);
    expect(alloc.Namespace).toBe('default');
    expect(alloc.FilterKeys).toEqual(['web', a['DeploymentID']]);
    expect(a['DeploymentID']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a['Job']).toBeNull();
    const dep = s.events().find((e) => e.Topic === 'Deployment')!;
    expect(dep.FilterKeys).toEqual(['web']);
    const ev = s.events().find((e) => e.Topic === 'Evaluation')!;
    expect(ev.FilterKeys?.[0]).toBe('web');
  });

  it('resumes from an index: the same messages from that index on', async () => {
    const msgs = s.messages();
    const from = msgs[2]!.Index;
    const again = await openStream(
      f.agent.schedulerUrl,
      `index=${from}&topic=Job:web&topic=Deployment:web&topic=Allocation:web&topic=Evaluation:web`,
    );
    try {
      await again.until((x) => successful(x, 'web'));
      expect(again.messages().slice(0, msgs.length - 2)).toEqual(msgs.slice(2));
    } finally {
      again.close();
    }
  });

  it('resumes with the typed client from the index after the last message it saw', async () => {
    const msgs = s.messages();
    const ac = new AbortController();
    const seen: number[] = [];
    for await (const m of f.sched.events.stream({
      topics: { Deployment: ['web'] },
      index: msgs[1]!.Index,
      signal: ac.signal,
      reconnect: false,
    })) {
      seen.push(m.Index);
      if (m.Events?.some((e) => (e.Payload?.Deployment?.Status ?? '') === 'successful')) ac.abort();
    }
    const expected = msgs.filter(
      (m) => m.Index >= msgs[1]!.Index && m.Events.some((e) => e.Topic === 'Deployment'),
    );
    expect(seen).toEqual(expected.map((m) => m.Index));
  });

  it('starts at the next available index when the requested one is gone from the buffer', async () => {
    const before = f.agent.scheduler.events.limits.bufferSize;
    f.agent.scheduler.events.setLimits({ bufferSize: 3 });
    try {
      const oldest = f.agent.scheduler.events.buffered()[0]!.Index;
      expect(oldest).toBeGreaterThan(2);
      const late = await openStream(f.agent.schedulerUrl, 'index=1&topic=*');
      try {
        await late.until((x) => x.messages().length >= 3, 5000);
        expect(late.messages()[0]!.Index).toBe(oldest);
        expect(late.messages().map((m) => m.Index)).toEqual(
          f.agent.scheduler.events.buffered().map((m) => m.Index),
        );
      } finally {
        late.close();
      }
    } finally {
      f.agent.scheduler.events.setLimits({ bufferSize: before });
    }
  });
});
