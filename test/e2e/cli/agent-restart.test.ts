/**
 * `cdktf-sched dev --data-dir` killed (SIGKILL, or stopped with SIGTERM) in the middle of a rollout
 * and a job stop, then started again on the same directory: everything in flight carries on from
 * the store (the rollout finishes, stopping allocations stop, running tasks keep their start time),
 * and a purge-and-destroy afterwards succeeds at once instead of waiting for allocations that no
 * client would ever stop.
 */
import type { SchedClient } from '../../../src/api/sched/client';
import type { AllocationStub, Job } from '../../../src/api/sched/schemas';
import { deadline } from '../../../src/provider/common/timeouts';
import { destroyJob } from '../../../src/provider/sched/job/destroy';
import { eventually } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';
import { newDataDir, startDev, stopDev } from './dev-process';
import { until } from './helpers';

jest.setTimeout(60_000);

/**
 * A service whose tasks take 60s (0.6 s here) to exit once told to stop, so stops are caught in
 * flight; kill_timeout is longer, so kill_after decides.
 */
function slowStopJob(id: string, meta: Record<string, string>): Job {
  const job = mockJob(id, {
    count: 3,
    meta,
    config: { run_for: '10000h', kill_after: '60s' },
    // Deadlines (30 s and 60 s here) long enough to outlast a slow restart of the process.
    update: rolling({ MinHealthyTime: 30e9, HealthyDeadline: 3000e9, ProgressDeadline: 6000e9 }),
  });
  job.TaskGroups![0]!.Tasks![0]!.KillTimeout = 120e9;
  return job;
}

const stopping = (a: AllocationStub): boolean => a.DesiredStatus !== 'run' && a.ClientStatus === 'running';
const terminal = (a: AllocationStub): boolean =>
  a.ClientStatus === 'complete' || a.ClientStatus === 'failed' || a.ClientStatus === 'lost';

async function allocs(sched: SchedClient, id: string): Promise<AllocationStub[]> {
  return (await sched.jobs.allocations(id)).value;
}

async function expectRunning(sched: SchedClient, id: string, n: number): Promise<void> {
  expect((await allocs(sched, id)).filter((a) => a.ClientStatus === 'running')).toHaveLength(n);
}

async function purgeAndDestroy(sched: SchedClient, id: string): Promise<number> {
  const started = Date.now();
  await destroyJob(
    { client: sched, defaults: {}, redact: (s) => s },
    { id, namespace: 'default' },
    { purge: true, detach: false, deadline: deadline(20_000) },
  );
  return Date.now() - started;
}

describe.each(['SIGKILL', 'SIGTERM'] as const)(
  'dev agent %s mid-rollout, restarted on its data dir',
  (signal) => {
    test('the rollout and the job stop finish, and a purge + destroy succeeds at once', async () => {
      const dataDir = newDataDir();
      let dev = await startDev(dataDir);
      try {
        await dev.sched.jobs.register(slowStopJob('web', { v: '1' }));
        await dev.sched.jobs.register(slowStopJob('gone', { v: '1' }));
        await eventually(async () => {
          const d = (await dev.sched.jobs.latestDeployment('web')).value;
          expect(d?.Status).toBe('successful');
          await expectRunning(dev.sched, 'gone', 3);
        }, 20_000);

        // A rollout (one allocation at a time, each 0.3 s to turn healthy) and a job stop, both in
        // flight; the stopped job is purged too, so nothing but its allocations is left of it.
        await dev.sched.jobs.register(slowStopJob('web', { v: '2' }));
        await dev.sched.jobs.deregister('gone', { purge: true });
        await eventually(async () => {
          expect((await allocs(dev.sched, 'web')).some(stopping)).toBe(true);
          expect((await allocs(dev.sched, 'gone')).some(stopping)).toBe(true);
        }, 20_000);
        expect((await dev.sched.jobs.latestDeployment('web')).value?.Status).toBe('running');
        const code = await stopDev(dev, signal);
        expect(code).toBe(signal === 'SIGKILL' ? null : 0);

        dev = await startDev(dataDir);
        await eventually(async () => {
          const d = (await dev.sched.jobs.latestDeployment('web')).value;
          expect(d).toMatchObject({ JobVersion: 1, Status: 'successful' });
          const web = await allocs(dev.sched, 'web');
          expect(web.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running')).toHaveLength(
            3,
          );
          expect(web.filter((a) => a.DesiredStatus !== 'run').every(terminal)).toBe(true);
          expect((await allocs(dev.sched, 'gone')).every(terminal)).toBe(true);
        }, 20_000);

        // One stop signal each, recorded before the restart, and the task's death after it.
        const killings = (await allocs(dev.sched, 'gone')).map(
          (a) => a.TaskStates?.['server']?.Events?.filter((e) => e.Type === 'Killing').length,
        );
        expect(killings).toEqual([1, 1, 1]);

        // What issue 14 saw: destroy waiting 5 minutes for allocations stuck "running".
        expect(await purgeAndDestroy(dev.sched, 'web')).toBeLessThan(5_000);
        expect((await allocs(dev.sched, 'web')).every(terminal)).toBe(true);
      } finally {
        await stopDev(dev, 'SIGTERM');
      }
    });
  },
);

test('a task re-attached after SIGKILL keeps its start time: run_for counts from it, not from the restart', async () => {
  const dataDir = newDataDir();
  let dev = await startDev(dataDir);
  try {
    // 500s of run time is 5 s at time scale 0.01.
    await dev.sched.jobs.register(mockJob('timed', { type: 'batch', count: 1, config: { run_for: '500s' } }));
    const started = await eventually(async () => {
      const [a] = await allocs(dev.sched, 'timed');
      const at = a?.TaskStates?.['server']?.StartedAt;
      expect(a?.ClientStatus).toBe('running');
      return Date.parse(at!);
    });
    // Kill well into the run, so a restarted timer would end visibly later than the recorded one.
    await until(() => Date.now() > started + 1_500);
    await stopDev(dev, 'SIGKILL');

    dev = await startDev(dataDir);
    const restartedAt = Date.now();
    const task = await eventually(async () => {
      const [a] = await allocs(dev.sched, 'timed');
      expect(a?.ClientStatus).toBe('complete');
      return a!.TaskStates!['server']!;
    }, 20_000);
    expect(Date.parse(task.StartedAt!)).toBe(started);
    const finished = Date.parse(task.FinishedAt!);
    expect(finished).toBeGreaterThanOrEqual(started + 5_000);
    // From zero it would end 5 s after the restart; from the recorded start, at most then.
    expect(finished).toBeLessThan(Math.max(started + 5_000, restartedAt) + 1_500);
    expect(task.Events?.filter((e) => e.Type === 'Started')).toHaveLength(1);
  } finally {
    await stopDev(dev, 'SIGTERM');
  }
});
