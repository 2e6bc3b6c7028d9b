/** A client that goes away during a blocking query frees what the query held; a finished one leaves nothing. */
import { request } from 'node:http';
import { eventually, startAgent, type AgentFixture } from '../../helpers/agent';

describe('blocking queries and clients that leave', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  it('releases the wait of a query whose client disconnected', async () => {
    const req = request(`${f.agent.schedulerUrl}/v1/jobs?index=${f.agent.store.index}&wait=60s`);
    req.on('error', () => undefined);
    req.end();
    await eventually(() => expect(f.agent.store.watcherCount()).toBe(1));
    req.destroy();
    await eventually(() => expect(f.agent.store.watcherCount()).toBe(0));
  });

  it('answers a query that ends normally in full, and leaves no waiter behind', async () => {
    const res = await fetch(`${f.agent.schedulerUrl}/v1/jobs?index=${f.agent.store.index}&wait=50ms`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    expect(f.agent.store.watcherCount()).toBe(0);
  });
});
