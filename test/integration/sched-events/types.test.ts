import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import type { Job } from '../../../src/api/sched/schemas';
import { openStream, type RawStream, type WireEvent } from './stream';

describe('event stream: the event types of each operation', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  async function watch(query: string): Promise<RawStream> {
    return openStream(f.agent.schedulerUrl, `index=${f.agent.store.index + 1}&${query}`);
  }
  const types = (s: RawStream, topic?: string): string[] =>
    s
      .events()
      .filter((e) => !topic || e.Topic === topic)
      .map((e) => e.Type);
  async function running(job: string): Promise<void> {
    await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment(job);
      expect(value?.Status).toBe('successful');
    });
  }

  it('stopping an allocation: AllocationUpdateDesiredStatus, then a PlanResult placing its replacement', async () => {
    await f.sched.jobs.register(mockJob('stopme', { count: 1, update: rolling() }));
    await running('stopme');
    const { value: allocs } = await f.sched.jobs.allocations('stopme');
    const s = await watch('topic=Allocation:stopme');
    try {
      await f.sched.allocations.stop(allocs[0]!.ID!);
      await s.until((x) => x.events().some((e) => e.Type === 'AllocationCreated'));
      const first = s.events()[0]!;
      expect(first.Type).toBe('AllocationUpdateDesiredStatus');
      expect(first.Key).toBe(allocs[0]!.ID);
      expect(first.Payload['Allocation']).toMatchObject({ DesiredStatus: 'stop' });
      expect(types(s)).toContain('AllocationCreated');
    } finally {
      s.close();
    }
  });

  it('deregistering a job: JobDeregistered for the job and its evaluation, PlanResult for the stops', async () => {
    await f.sched.jobs.register(mockJob('gone', { count: 2 }));
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations('gone');
      expect(value.filter((a) => a.ClientStatus === 'running')).toHaveLength(2);
    });
    const s = await watch('topic=Job:gone&topic=Evaluation:gone&topic=Allocation:gone');
    try {
      await f.sched.jobs.deregister('gone');
      await s.until(
        (x) => x.events().filter((e) => e.Type === 'PlanResult' && e.Topic === 'Allocation').length === 2,
      );
      expect(s.messages()[0]!.Events.map((e) => `${e.Topic}/${e.Type}`)).toEqual([
        'Job/JobDeregistered',
        'Evaluation/JobDeregistered',
      ]);
      expect(s.messages()[0]!.Events[0]!.Payload['Job']).toMatchObject({ ID: 'gone', Stop: true });
      const stops = s.events().filter((e) => e.Topic === 'Allocation' && e.Type === 'PlanResult');
      for (const e of stops) expect(e.Payload['Allocation']).toMatchObject({ DesiredStatus: 'stop' });
    } finally {
      s.close();
    }
  });

  it('promoting canaries: DeploymentPromotion', async () => {
    const update = rolling({ Canary: 1 });
    await f.sched.jobs.register(mockJob('canary', { count: 2, update }));
    await running('canary');
    await f.sched.jobs.register(mockJob('canary', { count: 2, update, config: { run_for: '1h', v: 2 } }));
    const dep = await eventually(async () => {
      const { value } = await f.sched.jobs.latestDeployment('canary');
      expect(value?.JobVersion).toBe(1);
      expect(value?.TaskGroups?.['web']?.HealthyAllocs).toBe(1);
      return value!;
    });
    const s = await watch('topic=Deployment:canary');
    try {
      await f.sched.deployments.promote(dep.ID!, { all: true });
      await s.until((x) =>
        x.events().some((e) => (e.Payload['Deployment'] as { Status: string }).Status === 'successful'),
      );
      expect(types(s)[0]).toBe('DeploymentPromotion');
      expect(s.events()[0]!.Payload['Deployment']).toMatchObject({ ID: dep.ID });
      expect(types(s)).toContain('DeploymentStatusUpdate');
    } finally {
      s.close();
    }
  });

  it('services of the built-in provider: ServiceRegistration when running, ServiceDeregistration on stop', async () => {
    const job: Job = mockJob('svc', { count: 1 });
    job.TaskGroups![0]!.Services = [{ Name: 'api', Provider: 'sched', Tags: ['v1'] }];
    job.TaskGroups![0]!.Tasks![0]!.Services = [{ Name: 'registry-only', Provider: 'registry' }];
    const s = await watch('topic=Service');
    try {
      await f.sched.jobs.register(job);
      await s.until((x) => x.events().length >= 1);
      const reg = s.events()[0]!;
      expect(reg.Type).toBe('ServiceRegistration');
      expect(reg.FilterKeys).toEqual(['svc', 'api']);
      expect(reg.Payload['Service']).toMatchObject({
        ServiceName: 'api',
        JobID: 'svc',
        Tags: ['v1'],
        Namespace: 'default',
      });
      await f.sched.jobs.deregister('svc');
      await s.until((x) => x.events().length >= 2);
      expect(s.events().map((e: WireEvent) => e.Type)).toEqual([
        'ServiceRegistration',
        'ServiceDeregistration',
      ]);
      expect(s.events()[1]!.Key).toBe(reg.Key);
    } finally {
      s.close();
    }
  });

  it('a client status change: AllocationUpdated', async () => {
    const s = await watch('topic=Allocation:batchy');
    try {
      await f.sched.jobs.register(mockJob('batchy', { count: 1, type: 'batch', config: { run_for: '1s' } }));
      await s.until((x) =>
        x
          .events()
          .some((e) => (e.Payload['Allocation'] as { ClientStatus: string }).ClientStatus === 'complete'),
      );
      const statuses = s
        .events()
        .filter((e) => e.Type === 'AllocationUpdated')
        .map((e) => (e.Payload['Allocation'] as { ClientStatus: string }).ClientStatus);
      expect(statuses).toContain('running');
      expect(statuses[statuses.length - 1]).toBe('complete');
      expect(types(s)[0]).toBe('AllocationCreated');
    } finally {
      s.close();
    }
  });
});
