/** Starts a real dev agent on free ports for a test, with a typed scheduler client pointed at it. */
import { startDevAgent, type DevAgent, type DevAgentOptions } from '../../src/agent';
import { SchedClient } from '../../src/api/sched/client';
import { SCHED_FLAVOR, TEST_DIALECT } from './dialect';

export interface AgentFixture {
  agent: DevAgent;
  sched: SchedClient;
  stop(): Promise<void>;
}

export async function startAgent(opts: DevAgentOptions = {}): Promise<AgentFixture> {
  const agent = await startDevAgent({
    port: 0,
    registryPort: 0,
    timeScale: 0.01,
    recordRequests: true,
    dialect: TEST_DIALECT,
    ...opts,
  });
  const sched = new SchedClient({
    address: agent.schedulerUrl,
    env: {},
    retries: { max: 0 },
    flavor: SCHED_FLAVOR,
  });
  return {
    agent,
    sched,
    async stop() {
      await sched.close();
      await agent.stop();
    },
  };
}

/** Retries an assertion until it passes or the time runs out (the agent works asynchronously). */
export async function eventually<T>(
  fn: () => Promise<T> | T,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw last;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
