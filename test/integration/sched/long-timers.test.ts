/**
 * Durations beyond what Node's setTimeout holds (about 24.8 days) behave as written on a real agent:
 * a service with `run_for = "10000h"` and a healthy deadline as long keeps running and its deployment
 * succeeds. Before, both timers overflowed and fired at once: the task exited straight away and the
 * allocation was marked unhealthy.
 */
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob, rolling } from '../../helpers/jobs';

const HOUR_NS = 3600e9;

describe.each([
  // At time scale 0.01 a duration must be a hundred times longer to overflow.
  ['time scale 1', 1, '10000h', 10_000 * HOUR_NS],
  ['time scale 0.01', 0.01, '1000000h', 1_000_000 * HOUR_NS],
])('long timers at %s', (_, timeScale, runFor, longNs) => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false, timeScale });
  });
  afterAll(() => f.stop());

  test(`a service with run_for = "${runFor}" keeps running and its deployment succeeds`, async () => {
    const job = mockJob('long', {
      count: 2,
      config: { run_for: runFor },
      update: rolling({
        // 200 ms of real time at either scale
        MinHealthyTime: 0.2e9 / timeScale,
        HealthyDeadline: longNs,
        ProgressDeadline: 2 * longNs,
      }),
    });
    await f.sched.jobs.register(job);
    await eventually(async () => {
      const d = (await f.sched.jobs.latestDeployment('long')).value;
      expect(d?.Status).toBe('successful');
    });
    // Past the moment an overflowed timer would have fired (1 ms), and past min_healthy_time again.
    await new Promise((r) => setTimeout(r, 500));
    const allocs = (await f.sched.jobs.allocations('long')).value;
    expect(allocs).toHaveLength(2);
    for (const a of allocs) {
      expect(a.ClientStatus).toBe('running');
      expect(a.DeploymentStatus?.Healthy).toBe(true);
      const state = a.TaskStates?.['server'];
      expect(state?.Restarts).toBe(0);
      expect(state?.Events?.map((e) => e.Type)).not.toContain('Terminated');
    }
  });
});
