/**
 * Dev agent figures (issue 9), measured on this machine in one run against an agent in its own process:
 *   - registers/s and p99 at concurrency 10;
 *   - job reads/s and p99 at concurrency 50, beside a trivial endpoint as the floor;
 *   - idle CPU with 10,000 blocking queries parked, beside the same agent with none (target < 2% of a core);
 *   - event-stream delivery latency (Job topic) while jobs are registered at a steady rate.
 * Targets marked "(ours)" are ones the issue leaves open; they are what the agent should hold on a loaded
 * 2-core machine. Set BENCH_VERBOSE=1 to see how long each phase took.
 */
import { Pool } from 'undici';
import { fmt, runAlone, spawnAgent, type Figure } from './lib';
import { eventLatency } from './agent-events';
import { idleWithParkedQueries } from './agent-idle';
import { load, quiesce, serviceJob } from './agent-load';

const TARGET = {
  registersPerSecond: 100,
  readsPerSecond: 2000,
  readP99Ms: 50,
  idleCpuPercent: 2,
  eventP99Ms: 25,
};

function phase(name: string, started: number): void {
  if (process.env['BENCH_VERBOSE'])
    process.stderr.write(`  [agent bench] ${name}: ${fmt((performance.now() - started) / 1000, 1)} s\n`);
}

export async function benchAgent(opts: { quick?: boolean } = {}): Promise<Figure[]> {
  const quick = opts.quick === true;
  let t = performance.now();
  const agent = await spawnAgent([
    '--time-scale',
    '0.01',
    '--nodes',
    '20',
    '--node-memory',
    '65536',
    '--node-cpu',
    '64000',
  ]);
  const pid = agent.child.pid!;
  const pool = new Pool(agent.schedulerUrl, { connections: 64 });
  const control = new Pool(agent.schedulerUrl, { connections: 2 });
  const figures: Figure[] = [];
  try {
    phase('start', t);
    t = performance.now();
    const jobs = quick ? 200 : 1000;
    const reg = await load(pool, jobs, 10, (i) => ({
      method: 'POST',
      path: '/v1/jobs',
      body: JSON.stringify(serviceJob(`bench-${i}`)),
    }));
    figures.push({
      name: 'registers/s (concurrency 10)',
      value: fmt(reg.perSecond, 0),
      target: `>= ${TARGET.registersPerSecond}/s (ours)`,
      pass: reg.perSecond >= TARGET.registersPerSecond,
      comparison: `${jobs} jobs; p50 ${fmt(reg.p50, 2)} ms, p99 ${fmt(reg.p99, 2)} ms`,
    });
    phase('registers', t);
    t = performance.now();
    const settled = await quiesce(control);
    phase(`quiesce (${fmt(settled, 1)} s)`, t);

    t = performance.now();
    const n = quick ? 3000 : 10000;
    // Warm both paths up first, so neither figure carries the JIT's first compilations.
    await load(pool, 1000, 50, (i) => ({ method: 'GET', path: i % 2 ? '/v1/regions' : '/v1/job/bench-1' }));
    const floor = await load(pool, n, 50, () => ({ method: 'GET', path: '/v1/regions' }));
    const reads = await load(pool, n, 50, (i) => ({ method: 'GET', path: `/v1/job/bench-${i % 100}` }));
    figures.push({
      name: 'job reads/s (concurrency 50)',
      value: fmt(reads.perSecond, 0),
      target: `>= ${TARGET.readsPerSecond}/s (ours)`,
      pass: reads.perSecond >= TARGET.readsPerSecond,
      comparison: `trivial endpoint ${fmt(floor.perSecond, 0)}/s, ratio ${fmt(reads.perSecond / floor.perSecond, 2)}`,
    });
    figures.push({
      name: 'job read p99 latency (ms, concurrency 50)',
      value: fmt(reads.p99, 2),
      target: `< ${TARGET.readP99Ms} ms (ours)`,
      pass: reads.p99 < TARGET.readP99Ms,
      comparison: `p50 ${fmt(reads.p50, 2)} ms; trivial endpoint p50 ${fmt(floor.p50, 2)} ms, p99 ${fmt(floor.p99, 2)} ms`,
    });
    phase('reads', t);
    await pool.close();

    t = performance.now();
    const queries = 10_000;
    const idle = await idleWithParkedQueries(pid, agent.schedulerUrl, control, {
      queries,
      windowS: quick ? 3 : 10,
      jobIds: Array.from({ length: 100 }, (_, i) => `bench-${i + 100}`),
    });
    const parkedOk =
      idle.stillParked === queries && idle.answeredInWindow === 0 && idle.wakeAnswered === idle.wakeExpected;
    figures.push({
      name: 'idle CPU, 10,000 blocking queries (% of a core)',
      value: fmt(idle.parked, 2),
      target: `< ${TARGET.idleCpuPercent}%`,
      pass: idle.parked < TARGET.idleCpuPercent && parkedOk,
      comparison:
        `no queries ${fmt(idle.floor, 2)}%; window ${idle.windowS} s after ${fmt(idle.settleS, 1)} s settling; ` +
        `${idle.stillParked} still parked, ${idle.answeredInWindow} answered in the window, agent holds ${idle.agentSockets} sockets; ` +
        `a write woke ${idle.wakeAnswered}/${idle.wakeExpected} watchers in ${fmt(idle.wakeMs, 0)} ms`,
    });
    figures.push({
      name: 'agent RSS, 10,000 blocking queries (MB)',
      value: fmt(idle.rssParkedMB, 0),
      comparison: `no queries ${fmt(idle.rssFloorMB, 0)} MB; ${fmt(((idle.rssParkedMB - idle.rssFloorMB) * 1024) / queries, 1)} KB per query`,
    });
    phase('idle', t);

    t = performance.now();
    const ev = await eventLatency(agent.schedulerUrl, {
      jobs: quick ? 200 : 400,
      perSecond: 100,
      prefix: 'ev-',
    });
    figures.push({
      name: 'event stream delivery p99 (ms)',
      value: fmt(ev.p99, 2),
      target: `< ${TARGET.eventP99Ms} ms (ours)`,
      pass: ev.p99 < TARGET.eventP99Ms && ev.received === ev.sent,
      comparison:
        `JobRegistered, SubmitTime to parsed; p50 ${fmt(ev.p50, 2)} ms, max ${fmt(ev.max, 2)} ms, min ${fmt(ev.min, 2)} ms; ` +
        `${ev.received}/${ev.sent} events while registering at ${fmt(ev.achievedRate, 0)} jobs/s`,
    });
    phase('events', t);
  } finally {
    t = performance.now();
    await pool.close().catch(() => undefined);
    await control.close();
    await agent.stop();
    phase('stop', t);
  }
  return figures;
}

if (require.main === module) {
  runAlone('dev agent', () => benchAgent({ quick: process.argv.includes('--quick') }));
}
