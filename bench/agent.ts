/**
 * Dev agent throughput and idle cost, measured on this machine in one run:
 *   - reads/s and p99 latency at concurrency 50 (GET /v1/job/<id>), beside a trivial endpoint as the floor;
 *   - registers/s and p99 at concurrency 10;
 *   - idle CPU of the agent process while 1,000 blocking queries wait (share of one core).
 */
import { Pool } from 'undici';
import { cpuSeconds, fmt, percentile, printFigures, rssMB, spawnAgent, type Figure } from './lib';

function job(id: string): unknown {
  return {
    Job: {
      ID: id,
      Name: id,
      Type: 'service',
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'g',
          Count: 1,
          Tasks: [
            { Name: 't', Driver: 'mock', Config: { run_for: '1h' }, Resources: { CPU: 10, MemoryMB: 10 } },
          ],
        },
      ],
    },
  };
}

async function load(
  pool: Pool,
  total: number,
  concurrency: number,
  req: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string },
): Promise<{ perSecond: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const r = req(i);
        const t = performance.now();
        const res = await pool.request({
          method: r.method,
          path: r.path,
          body: r.body,
          headers: { 'content-type': 'application/json' },
        });
        await res.body.arrayBuffer();
        if (res.statusCode >= 400) throw new Error(`${r.method} ${r.path} -> ${res.statusCode}`);
        lat.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  lat.sort((a, b) => a - b);
  return { perSecond: total / secs, p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

/** Waits until the agent has finished placing and deploying (its index stops moving), so reads are measured alone. */
async function quiesce(pool: Pool): Promise<void> {
  let last = -1;
  for (let i = 0; i < 120; i++) {
    const res = await pool.request({ method: 'GET', path: '/v1/jobs?prefix=none' });
    await res.body.arrayBuffer();
    const index = Number(res.headers['x-sched-index']);
    const evals = await pool.request({ method: 'GET', path: '/v1/evaluations?status=pending' });
    const pending = ((await evals.body.json()) as unknown[]).length;
    const allocs = await pool.request({ method: 'GET', path: '/v1/allocations?task_states=false' });
    const idle = ((await allocs.body.json()) as { ClientStatus: string }[]).every(
      (a) => a.ClientStatus !== 'pending',
    );
    if (pending === 0 && idle && index === last) return;
    last = index;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function benchAgent(opts: { quick?: boolean } = {}): Promise<Figure[]> {
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
  const pool = new Pool(agent.schedulerUrl, { connections: 64 });
  const figures: Figure[] = [];
  try {
    const n = opts.quick ? 2000 : 10000;
    const reg = await load(pool, opts.quick ? 200 : 1000, 10, (i) => ({
      method: 'POST',
      path: '/v1/jobs',
      body: JSON.stringify(job(`bench-${i}`)),
    }));
    figures.push({
      name: 'registers/s (concurrency 10)',
      value: fmt(reg.perSecond, 0),
      comparison: `p50 ${fmt(reg.p50, 2)} ms, p99 ${fmt(reg.p99, 2)} ms`,
    });
    await quiesce(pool);
    await load(pool, 500, 50, () => ({ method: 'GET', path: '/v1/job/bench-1' })); // warm-up
    const floor = await load(pool, n, 50, () => ({ method: 'GET', path: '/v1/regions' }));
    const reads = await load(pool, n, 50, (i) => ({ method: 'GET', path: `/v1/job/bench-${i % 100}` }));
    figures.push({
      name: 'job reads/s (concurrency 50)',
      value: fmt(reads.perSecond, 0),
      comparison: `p50 ${fmt(reads.p50, 2)} ms, p99 ${fmt(reads.p99, 2)} ms; trivial endpoint ${fmt(floor.perSecond, 0)}/s, ratio ${fmt(reads.perSecond / floor.perSecond, 2)}`,
    });
    figures.push({ name: 'job read p99 latency (ms, concurrency 50)', value: fmt(reads.p99, 2) });

    // 1,000 blocking queries on an index far ahead: they all wait their full `wait`.
    const blockers = new Pool(agent.schedulerUrl, { connections: 1000, pipelining: 0 });
    const waits = Array.from({ length: 1000 }, (_, i) =>
      blockers
        .request({
          method: 'GET',
          path: `/v1/job/bench-${i % 100}?index=999999999&wait=60s`,
          headersTimeout: 120_000,
          bodyTimeout: 120_000,
        })
        .then((r) => r.body.arrayBuffer())
        .catch(() => undefined),
    );
    await new Promise((r) => setTimeout(r, 2000)); // let every query arrive and park
    const pid = agent.child.pid!;
    const cpu0 = cpuSeconds(pid);
    const window = opts.quick ? 3 : 10;
    await new Promise((r) => setTimeout(r, window * 1000));
    const idle = ((cpuSeconds(pid) - cpu0) / window) * 100;
    figures.push({
      name: 'idle CPU with 1,000 open blocking queries (% of a core)',
      value: fmt(idle, 2),
      target: '< 2%',
      pass: idle < 2,
      comparison: `agent RSS ${fmt(rssMB(pid), 0)} MB, window ${window}s`,
    });
    await blockers.destroy();
    void waits;
  } finally {
    await pool.close();
    await agent.stop();
  }
  return figures;
}

if (require.main === module) {
  benchAgent({ quick: process.argv.includes('--quick') })
    .then((f) => printFigures('dev agent', f))
    .catch((e: unknown) => {
      process.stderr.write(`${String(e)}\n`);
      process.exit(1);
    });
}
