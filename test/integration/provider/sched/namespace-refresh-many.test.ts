/**
 * sched_namespace.refreshMany: one namespace list refreshes every namespace a stack has, changes made
 * on the cluster included; a namespace the list lacks is left to its own read. Counted by the agent.
 */
import type { State } from '../../../../src/provider/resource';
import { converge, startHarness, type Harness } from './harness';

describe('sched_namespace: refresh of many from one list', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('refreshes three namespaces with one request and sees what changed on the cluster', async () => {
    const states: State[] = [];
    for (const name of ['rm-a', 'rm-b', 'rm-c'])
      states.push((await converge(h.namespace, null, { name, description: `ns ${name}` })).state!);
    await h.f.sched.namespaces.upsert({ Name: 'rm-b', Description: 'changed outside' });
    await h.f.sched.namespaces.delete('rm-c');
    const before = h.f.agent.requests.length;
    const refreshed = await h.namespace.refreshMany!(states);
    const requests = h.f.agent.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(requests).toEqual(['GET /v1/namespaces']);
    expect(refreshed).toEqual([
      states[0],
      { ...states[1], description: 'changed outside' },
      // Not listed: the per-object read decides (gone, or not visible to this token).
      undefined,
    ]);
    expect(await h.namespace.read(states[2]!)).toBeNull();
  });
});
