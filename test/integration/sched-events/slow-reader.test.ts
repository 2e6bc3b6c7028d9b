import { connect, type Socket } from 'node:net';
import { startAgent, eventually, type AgentFixture } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';
import { openStream } from './stream';

/** A client that sends the request, reads the response head, then stops reading altogether. */
function stalledReader(baseUrl: string, path: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    });
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      expect(chunk.toString('latin1')).toMatch(/^HTTP\/1\.1 200/);
      socket.pause();
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

describe('event stream: a reader that does not keep up', () => {
  let f: AgentFixture;
  beforeAll(async () => {
    f = await startAgent({ registry: false });
  });
  afterAll(() => f.stop());

  it('is disconnected once its queue overflows, while a reader that keeps up stays connected', async () => {
    const broker = f.agent.scheduler.events;
    broker.setLimits({ subscriberQueue: 4 });
    const base = broker.subscriberCount();
    const slow = await stalledReader(f.agent.schedulerUrl, '/v1/event/stream?topic=Job');
    const fast = await openStream(f.agent.schedulerUrl, 'topic=Job');
    await eventually(() => expect(broker.subscriberCount()).toBe(base + 2));

    // Large job events fill the socket buffers of the stalled reader quickly.
    const meta = { blob: 'x'.repeat(64 * 1024) };
    let n = 0;
    while (broker.subscriberCount() > base + 1 && n < 300) {
      await Promise.all(
        Array.from({ length: 5 }, () => f.sched.jobs.register(mockJob(`big-${n++}`, { count: 0, meta }))),
      );
    }
    expect(broker.subscriberCount()).toBe(base + 1);
    // The server has cut the connection: once the client reads again it finds the end of it.
    slow.socket.resume();
    await slow.closed;

    // The reader that keeps up has every registration, in order.
    await fast.until((x) => x.events().filter((e) => e.Type === 'JobRegistered').length === n);
    const idx = fast.messages().map((m) => m.Index);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    fast.close();
  });
});
