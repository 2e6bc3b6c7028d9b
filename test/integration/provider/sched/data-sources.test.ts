import { mockJob } from '../../../helpers/jobs';
import type { DataSourceHandler } from '../../../../src/provider/resource';
import { converge, jobConfig, startHarness, type Harness, steady } from './harness';

describe('scheduler data sources against the dev agent', () => {
  let h: Harness;
  let job: DataSourceHandler;
  let allocs: DataSourceHandler;
  let deployment: DataSourceHandler;
  beforeAll(async () => {
    h = await startHarness();
    job = h.provider.dataSources['sched_job']!;
    allocs = h.provider.dataSources['sched_allocations']!;
    deployment = h.provider.dataSources['sched_deployment']!;
    await converge(
      h.job,
      null,
      jobConfig(mockJob('api', { count: 2, update: steady(), meta: { tier: 'front' } })),
    );
    await converge(h.job, null, jobConfig(mockJob('worker', { count: 1, update: steady() })));
  });
  afterAll(() => h.stop());

  it('sched_job reads a job with its deployment and allocations', async () => {
    const s = await job.read({ job_id: 'api' });
    expect(s).toMatchObject({
      job_id: 'api',
      id: 'api',
      namespace: 'default',
      type: 'service',
      version: 0,
      status: 'running',
      stable: true,
      stop: false,
      priority: 50,
      deployment_status: 'successful',
      task_groups: [expect.objectContaining({ name: 'web', count: 2, running: 2 })],
    });
    expect(s['allocation_ids']).toHaveLength(2);
    expect(JSON.parse(s['json'] as string)).toMatchObject({ ID: 'api', Meta: { tier: 'front' } });
    await expect(job.read({ job_id: 'nope' })).rejects.toThrow(
      'job "nope" does not exist in namespace "default"',
    );
    expect(job.validate({})).toEqual([
      expect.objectContaining({ summary: 'Missing required argument "job_id"' }),
    ]);
  });

  it('sched_allocations filters with an expression', async () => {
    const all = await allocs.read({});
    expect(all['allocations']).toHaveLength(3);
    const some = await allocs.read({ filter: 'JobID == "api" and ClientStatus == "running"' });
    const list = some['allocations'] as {
      job_id: string;
      client_status: string;
      task_group: string;
      deployment_healthy: boolean;
    }[];
    expect(list).toHaveLength(2);
    for (const a of list)
      expect(a).toMatchObject({
        job_id: 'api',
        client_status: 'running',
        task_group: 'web',
        deployment_healthy: true,
      });
    await expect(allocs.read({ filter: 'JobID ==' })).rejects.toThrow(/rejected as invalid/);
    expect(allocs.validate({ prefix: 'xyz' })[0]).toMatchObject({ path: ['prefix'] });
  });

  it('sched_deployment reads by ID or as the latest of a job', async () => {
    const latest = await deployment.read({ job_id: 'worker' });
    expect(latest).toMatchObject({
      job_id: 'worker',
      job_version: 0,
      status: 'successful',
      task_groups: {
        web: expect.objectContaining({ desired_total: 1, healthy_allocs: 1, placed_canaries: [] }),
      },
    });
    const byId = await deployment.read({ deployment_id: latest['id'] });
    expect(byId).toEqual(latest);
    expect(deployment.validate({})[0]!.summary).toBe(
      'Exactly one of "deployment_id" and "job_id" must be set',
    );
    expect(deployment.validate({ job_id: 'a', deployment_id: 'b' })).toHaveLength(1);
    await h.f.sched.jobs.register({
      ...mockJob('periodic', { type: 'batch' }),
      Periodic: { Spec: '0 0 * * *' },
    });
    await expect(deployment.read({ job_id: 'periodic' })).rejects.toThrow('has no deployment');
  });
});
