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

  it('launches once, at start, a periodic job whose launch fell due while the agent was down', async () => {
    // A cron spec (with seconds) that fires once, 1.5 s from now, and not again for a year.
    const due = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    const spec = `${due.getUTCSeconds()} ${due.getUTCMinutes()} ${due.getUTCHours()} ${due.getUTCDate()} ${due.getUTCMonth() + 1} *`;
    const first = await startAgent({ registry: false, dataDir });
    await first.sched.jobs.register({
      ...mockJob('missed', { type: 'batch', count: 1, config: { run_for: '10ms' } }),
      Periodic: { Enabled: true, Spec: spec, SpecType: 'cron', ProhibitOverlap: false },
    });
    await first.stop();
    await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now()) + 200));

    const second = await startAgent({ registry: false, dataDir });
    try {
      const children = async (): Promise<string[]> =>
        (await second.sched.jobs.list({ prefix: 'missed/periodic-' })).value.map((j) => j.ID!);
      await eventually(async () => expect(await children()).toHaveLength(1));
      // Once: a second restart finds the launch recorded and does not launch again.
      await second.stop();
      const third = await startAgent({ registry: false, dataDir });
      try {
        await new Promise((r) => setTimeout(r, 300));
        const { value } = await third.sched.jobs.list({ prefix: 'missed/periodic-' });
        expect(value).toHaveLength(1);
      } finally {
        await third.stop();
      }
    } finally {
      await second.stop();
    }
  });

  it('a task waiting out a restart delay when the agent stops starts when the recorded delay ends', async () => {
    const job = mockJob('flap', { count: 1, config: { run_for: '10s' } });
    // 300s is 3 s at time scale 0.01: long enough to restart the agent inside it.
    job.TaskGroups![0]!.RestartPolicy = { Attempts: 3, Interval: 3600e9, Delay: 300e9, Mode: 'fail' };
    const first = await startAgent({ registry: false, dataDir });
    await first.sched.jobs.register(job);
    const restarting = await eventually(async () => {
      const [a] = (await first.sched.jobs.allocations('flap')).value;
      const last = a?.TaskStates?.['server']?.Events?.at(-1);
      expect(last?.Type).toBe('Restarting');
      return last!.Time! / 1e6;
    });
    await first.stop();

    const second = await startAgent({ registry: false, dataDir });
    try {
      const startedAt = await eventually(async () => {
        const [a] = (await second.sched.jobs.allocations('flap')).value;
        const s = a?.TaskStates?.['server'];
        expect(s?.Events?.filter((e) => e.Type === 'Started')).toHaveLength(2);
        return Date.parse(s!.LastRestart!);
      }, 15_000);
      expect(startedAt).toBeGreaterThanOrEqual(Math.floor(restarting) + 3_000);
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
