import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';

/**
 * Placement reads what live allocations hold from an index kept from commits. These show the index
 * following every way an allocation starts or stops holding resources, and being rebuilt on restart.
 */
describe('scheduler: node usage seen by placement', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cdktf-sched-usage-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // Two nodes of 1000 MHz: a task of 600 MHz takes a node alone.
  const small = { registry: false, nodes: 2, nodeCpu: 1000, dataDir } as const;
  const big = (id: string, count: number): ReturnType<typeof mockJob> => mockJob(id, { count, cpu: 600 });

  const running = async (f: AgentFixture, id: string, n: number): Promise<void> => {
    await eventually(async () => {
      const { value } = await f.sched.jobs.allocations(id);
      expect(value.filter((a) => a.ClientStatus === 'running')).toHaveLength(n);
    });
  };
  /** How many allocations of a new job of `count` the plan cannot place. */
  const unplaced = async (f: AgentFixture, id: string, count: number): Promise<number> => {
    const { value } = await f.sched.jobs.plan(big(id, count));
    const failed = value.FailedTGAllocs?.['web'];
    return failed ? (failed.CoalescedFailures ?? 0) + 1 : 0;
  };

  it('counts placed allocations, frees stopped ones, and is rebuilt after a restart', async () => {
    const first = await startAgent(small);
    try {
      await first.sched.jobs.register(big('first', 1));
      await running(first, 'first', 1);
      // One node is taken: of two more, one does not fit.
      expect(await unplaced(first, 'second', 2)).toBe(1);
      expect(await unplaced(first, 'second', 1)).toBe(0);
      await first.sched.jobs.register(big('second', 1));
      await running(first, 'second', 1);
      expect(await unplaced(first, 'third', 2)).toBe(2);

      await first.sched.jobs.deregister('first');
      await eventually(async () => expect(await unplaced(first, 'third', 2)).toBe(1));
    } finally {
      await first.stop();
    }

    const second = await startAgent(small);
    try {
      // Only "second" still holds a node after the restart.
      expect(await unplaced(second, 'third', 2)).toBe(1);
      expect(await unplaced(second, 'third', 3)).toBe(2);
      await second.sched.jobs.register(big('third', 1));
      await running(second, 'third', 1);
      const { value } = await second.sched.jobs.allocations('third');
      const { value: other } = await second.sched.jobs.allocations('second');
      expect(value[0]!.NodeID).not.toBe(other.find((a) => a.ClientStatus === 'running')!.NodeID);
    } finally {
      await second.stop();
    }
  });
});
