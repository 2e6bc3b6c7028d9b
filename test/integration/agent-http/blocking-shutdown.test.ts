/**
 * Stopping the agent while blocking queries wait: the closed store answers every wait at once, and a
 * query must not keep asking it again until its deadline (that loop runs on microtasks only, so it
 * starves timers and I/O of the whole process for the rest of its `wait`).
 */
import { request } from 'node:http';
import { eventually, startAgent } from '../../helpers/agent';

describe('blocking queries when the agent stops', () => {
  it('leaves the event loop free right after stop', async () => {
    const f = await startAgent({ registry: false });
    const wait = 3000;
    const reqs = Array.from({ length: 5 }, () => {
      const req = request(`${f.agent.schedulerUrl}/v1/jobs?index=${f.agent.store.index}&wait=${wait}ms`);
      req.on('error', () => undefined);
      req.end();
      return req;
    });
    await eventually(() => expect(f.agent.store.watcherCount()).toBe(reqs.length));
    await f.stop();
    const started = performance.now();
    await new Promise((r) => setTimeout(r, 10));
    // With the spin this timer fires only once the queries' deadlines (3 s) have passed.
    expect(performance.now() - started).toBeLessThan(wait / 3);
    expect(f.agent.store.watcherCount()).toBe(0);
    for (const r of reqs) r.destroy();
  });
});
