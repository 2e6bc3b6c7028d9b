/**
 * Refresh by index: a plan lists the job stubs once and reads a job only when its JobModifyIndex or
 * status moved since the state recorded it. Requests are counted by the agent, never timed.
 */
import type { Job } from '../../../src/api/sched/schemas';
import { jobSpec } from '../../../bench/engine-project';
import { startAgent, type AgentFixture } from '../../helpers/agent';
import { indexStack, instanceAddressOf, planIndexStack, type IndexStack } from './index-fixture';

jest.setTimeout(120_000);

const JOBS = 1000;

describe('plan: refresh by index', () => {
  let f: AgentFixture;
  let stack: IndexStack;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
    stack = await indexStack(f, JOBS, 'idx');
  });
  afterAll(() => f.stop());

  /** Requests the agent saw while `fn` ran, as "METHOD path". */
  async function requestsOf<T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
    const before = f.agent.requests.length;
    const result = await fn();
    const requests = f.agent.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    return { result, requests };
  }

  const errorsOf = (diags: Array<{ severity: string; summary: string }>): string[] =>
    diags.filter((d) => d.severity === 'error').map((d) => d.summary);

  it(`plans ${JOBS} unchanged jobs with at most ${JOBS * 0.02} requests, all listings`, async () => {
    const { result: plan, requests } = await requestsOf(() => planIndexStack(stack));
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    expect(plan.instances).toHaveLength(JOBS);
    expect(plan.instances.filter((i) => i.change.action !== 'noop')).toEqual([]);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(JOBS * 0.02);
    expect(new Set(requests)).toEqual(new Set(['GET /v1/jobs']));
  });

  it('reads on its own each job whose state recorded no modify index (an older state)', async () => {
    const state = stack.state.clone();
    const older = stack.jobs.slice(0, 3);
    for (const j of older) {
      const obj = state.get(instanceAddressOf(j))!;
      const { job_modify_index: _dropped, ...attributes } = obj.attributes;
      state.set(instanceAddressOf(j), { ...obj, attributes });
    }
    const { result: plan, requests } = await requestsOf(() => planIndexStack(stack, state));
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    const reads = requests.filter((r) => r !== 'GET /v1/jobs').sort();
    // Today's read of a job whose state cannot vouch for its deployment and allocations: all three.
    expect(reads).toEqual(
      older.flatMap((j) => ['', '/allocations', '/deployment'].map((p) => `GET /v1/job/${j.id}${p}`)).sort(),
    );
    for (const j of older) {
      const i = plan.instances.find((x) => x.address === instanceAddressOf(j))!;
      expect(i.change.action).toBe('noop');
    }
  });
  it('still finds a job changed on the cluster: its index moved, so it is read and planned', async () => {
    const changed = stack.jobs[500]!;
    await f.sched.jobs.register(jobSpec({ ...changed, revision: 2 }) as Job);
    const { result: plan, requests } = await requestsOf(() => planIndexStack(stack));
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    const changes = plan.instances.filter((i) => i.change.action !== 'noop');
    expect(changes.map((i) => [i.address, i.change.action])).toEqual([
      [instanceAddressOf(changed), 'update'],
    ]);
    expect(changes[0]!.change.diagnostics.map((d) => d.summary)).toContain(
      `Job "${changed.id}" was changed outside of this configuration`,
    );
    const perJob = requests.filter((r) => r !== 'GET /v1/jobs');
    expect(perJob.sort()).toEqual([
      `GET /v1/job/${changed.id}`,
      `GET /v1/job/${changed.id}/allocations`,
      `GET /v1/job/${changed.id}/deployment`,
      `POST /v1/job/${changed.id}/plan`,
    ]);
  });
});
