import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAgent, eventually } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';

describe('scheduler: restart with a data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cdktf-sched-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps jobs, versions, submissions, allocations, deployments and the index across a restart', async () => {
    const first = await startAgent({ registry: false, dataDir });
    await first.sched.jobs.register(mockJob('durable', { count: 2, update: rolling() }), {
      submission: { Source: 'job "durable" {}', Format: 'hcl2', Version: 0 },
    });
    await first.sched.jobs.register(mockJob('durable', { count: 2, meta: { v: '2' }, update: rolling() }));
    await eventually(async () => {
      const { value } = await first.sched.jobs.latestDeployment('durable');
      expect(value).toMatchObject({ JobVersion: 1, Status: 'successful' });
    });
    const { value: job } = await first.sched.jobs.read('durable');
    const { value: allocs } = await first.sched.jobs.allocations('durable');
    const { meta } = await first.sched.jobs.list();
    await first.stop();

    const second = await startAgent({ registry: false, dataDir });
    try {
      const { value: job2, meta: meta2 } = await second.sched.jobs.read('durable');
      expect(job2).toEqual(job);
      expect(meta2.index).toBeGreaterThanOrEqual(meta.index);
      const { value: versions } = await second.sched.jobs.versions('durable');
      expect(versions.Versions?.map((v) => v.Version)).toEqual([1, 0]);
      const { value: sub } = await second.sched.jobs.submission('durable', 0);
      expect(sub.Source).toBe('job "durable" {}');
      const { value: allocs2 } = await second.sched.jobs.allocations('durable');
      expect(allocs2.map((a) => a.ID).sort()).toEqual(allocs.map((a) => a.ID).sort());
      expect(allocs2.filter((a) => a.ClientStatus === 'running')).toHaveLength(2);
      const { value: dep } = await second.sched.jobs.latestDeployment('durable');
      expect(dep?.Status).toBe('successful');
      // The cluster keeps working: a new version deploys on the restarted agent.
      const { value: reg } = await second.sched.jobs.register(
        mockJob('durable', { count: 3, meta: { v: '3' }, update: rolling() }),
      );
      expect(reg.JobModifyIndex).toBeGreaterThan(meta.index);
      await eventually(async () => {
        const { value } = await second.sched.jobs.latestDeployment('durable');
        expect(value).toMatchObject({ JobVersion: 2, Status: 'successful' });
      });
    } finally {
      await second.stop();
    }
  });

  it('refuses a second agent on the same data dir', async () => {
    const a = await startAgent({ registry: false, dataDir });
    try {
      await expect(startAgent({ registry: false, dataDir })).rejects.toThrow(/pid/);
    } finally {
      await a.stop();
    }
  });
});
