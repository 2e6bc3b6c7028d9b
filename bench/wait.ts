/**
 * Deployment-wait reaction: how soon the `sched_job` handler's apply returns after the agent marks the
 * job's deployment successful (the agent stamps ModifyTime in that very transaction, wall-clock ns with
 * sub-ms precision), beside a fixed-interval poller at 5 s (what common Terraform providers do) driving
 * as many jobs on the same agent at the same time.
 *
 * Our side goes through the real handler (plan, then apply: the code the engine and the Terraform
 * plugin drive), 10 applies at a time. Each poller job starts when one of ours does, so both see the
 * same load. Requests are attributed to the job that made them through AsyncLocalStorage and undici's
 * diagnostics channel, which counts what the handler asks for after the success without touching it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Pool } from 'undici';
import type { Job } from '../src/api/sched/schemas';
import type { ResourceHandler } from '../src/provider/resource';
import { schedProvider } from '../src/provider/sched/provider';
import { cpuSeconds, fmt, percentile, runAlone, spawnAgent, type Figure } from './lib';

const CONCURRENCY = 10;
const POLL_INTERVAL_MS = 5_000;
/** Agent time scale: a min_healthy_time of 25-45 s takes 250-450 ms. */
const TIME_SCALE = 0.01;

/**
 * Microseconds in which some task on the machine waited for a CPU (Linux pressure stall information),
 * undefined where the kernel does not report it. The share of a window tells how crowded it was.
 */
function cpuStallUs(): number | undefined {
  try {
    const m = /some .*total=(\d+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Wall-clock milliseconds with sub-ms precision, on the same basis as the agent's clock.nowNs(). */
function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Job `i` of a series. Its min_healthy_time varies from job to job (25-45 s, spread evenly), as real
 * rollouts differ in length: jobs of one length would keep the 10 applies in lockstep, every rollout of
 * a batch ending at once.
 */
function serviceJob(id: string, i: number): Job {
  return {
    ID: id,
    Name: id,
    Type: 'service',
    Datacenters: ['dc1'],
    Update: {
      MaxParallel: 1,
      MinHealthyTime: (25 + ((i * 7) % 21)) * 1e9,
      // Generous deadlines (3 s and 6 s at this scale): a slow start on a busy machine must not fail it.
      HealthyDeadline: 300e9,
      ProgressDeadline: 600e9,
      HealthCheck: 'task_states',
      AutoRevert: false,
    },
    TaskGroups: [
      {
        Name: 'g',
        Count: 1,
        Tasks: [
          { Name: 't', Driver: 'mock', Config: { run_for: '1h' }, Resources: { CPU: 10, MemoryMB: 10 } },
        ],
      },
    ],
  };
}

interface RequestSeen {
  method: string;
  path: string;
  createdMs: number;
  headersMs?: number;
}

/** Every HTTP request made in this process while a tracked job ran, by job. */
class RequestLog {
  readonly als = new AsyncLocalStorage<string>();
  readonly byJob = new Map<string, RequestSeen[]>();
  private readonly open = new WeakMap<object, RequestSeen>();
  private readonly onCreate = (msg: unknown): void => {
    const job = this.als.getStore();
    const req = (msg as { request?: { method?: string; path?: string } }).request;
    if (!job || !req) return;
    const seen: RequestSeen = { method: req.method ?? '', path: req.path ?? '', createdMs: wallMs() };
    let list = this.byJob.get(job);
    if (!list) this.byJob.set(job, (list = []));
    list.push(seen);
    this.open.set(req, seen);
  };
  private readonly onHeaders = (msg: unknown): void => {
    const req = (msg as { request?: object }).request;
    const seen = req ? this.open.get(req) : undefined;
    if (seen) seen.headersMs = wallMs();
  };

  start(): void {
    subscribe('undici:request:create', this.onCreate);
    subscribe('undici:request:headers', this.onHeaders);
  }

  stop(): void {
    unsubscribe('undici:request:create', this.onCreate);
    unsubscribe('undici:request:headers', this.onHeaders);
  }
}

interface Outcome {
  job: string;
  deploymentId: string;
  /** Wall-clock ms at which the apply resolved (ours) or the poll saw success (the poller's). */
  sawMs: number;
}

async function applyThroughHandler(handler: ResourceHandler, id: string, i: number): Promise<Outcome> {
  const change = await handler.plan({ prior: null, config: { jobspec: JSON.stringify(serviceJob(id, i)) } });
  const errors = change.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`plan of ${id} failed: ${JSON.stringify(errors)}`);
  const state = await handler.apply(change);
  const sawMs = wallMs();
  const deploymentId = state?.['deployment_id'];
  if (typeof deploymentId !== 'string' || state?.['deployment_status'] !== 'successful') {
    throw new Error(`apply of ${id} returned without a successful deployment: ${JSON.stringify(state)}`);
  }
  return { job: id, deploymentId, sawMs };
}

async function requestJson(
  pool: Pool,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await pool.request({
    method,
    path,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const text = await res.body.text();
  if (res.statusCode >= 400) throw new Error(`${method} ${path} -> ${res.statusCode}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** Registers a job, then reads its latest deployment now and every 5 s after until it succeeded. */
async function pollUntilSuccessful(pool: Pool, id: string, i: number): Promise<Outcome> {
  await requestJson(pool, 'POST', '/v1/jobs', { Job: serviceJob(id, i) });
  const started = performance.now();
  for (let tick = 0; ; tick++) {
    const d = (await requestJson(pool, 'GET', `/v1/job/${id}/deployment`)) as {
      ID?: string;
      Status?: string;
    } | null;
    const sawMs = wallMs();
    if (d?.Status === 'successful' && d.ID) return { job: id, deploymentId: d.ID, sawMs };
    if (d?.Status === 'failed' || d?.Status === 'cancelled')
      throw new Error(`deployment of ${id} ${d.Status}`);
    if (tick > 24) throw new Error(`deployment of ${id} not successful after ${tick} polls`);
    const next = started + (tick + 1) * POLL_INTERVAL_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
}

interface Stats {
  p50: number;
  p99: number;
  max: number;
}

function stats(values: number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export async function benchWait(opts: { quick?: boolean } = {}): Promise<Figure[]> {
  const total = opts.quick ? 50 : 200;
  const agent = await spawnAgent([
    '--time-scale',
    String(TIME_SCALE),
    '--nodes',
    '4',
    '--node-cpu',
    '64000',
    '--node-memory',
    '65536',
  ]);
  // An empty environment: the provider must not pick up a SCHED_* setting of whoever runs the benchmark.
  const provider = schedProvider.configure({ address: agent.schedulerUrl }, {});
  const handler = provider.resources['sched_job']!;
  const pollerPool = new Pool(agent.schedulerUrl, { connections: 64 });
  const log = new RequestLog();
  log.start();
  try {
    // Warm-up, not counted: the first requests of each kind pay for compiling the code they run.
    await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) => applyThroughHandler(handler, `warm-${i}`, i)),
    );
    const ours: Outcome[] = [];
    const polled: Array<Promise<Outcome>> = [];
    let next = 0;
    const started = performance.now();
    const agentCpu0 = cpuSeconds(agent.child.pid!);
    const ownCpu0 = process.cpuUsage();
    const stall0 = cpuStallUs();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          const i = next++;
          const p = pollUntilSuccessful(pollerPool, `poll-${i}`, i);
          p.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
          polled.push(p);
          const id = `wait-${i}`;
          ours.push(await log.als.run(id, () => applyThroughHandler(handler, id, i)));
        }
      }),
    );
    const oursSecs = (performance.now() - started) / 1000;
    const agentBusy = ((cpuSeconds(agent.child.pid!) - agentCpu0) / oursSecs) * 100;
    const ownCpu = process.cpuUsage(ownCpu0);
    const ownBusy = ((ownCpu.user + ownCpu.system) / 1e6 / oursSecs) * 100;
    const stall1 = cpuStallUs();
    const stalled =
      stall0 !== undefined && stall1 !== undefined ? ((stall1 - stall0) / 1e6 / oursSecs) * 100 : NaN;
    const theirs = await Promise.all(polled);
    const allSecs = (performance.now() - started) / 1000;

    const deployments = (await requestJson(pollerPool, 'GET', '/v1/deployments')) as Array<{
      ID: string;
      ModifyTime?: number | null;
      CreateTime?: number | null;
    }>;
    const byId = new Map(deployments.map((d) => [d.ID, d]));
    const successAt = (o: Outcome): number => {
      const t = byId.get(o.deploymentId)?.ModifyTime;
      if (!t) throw new Error(`deployment ${o.deploymentId} of ${o.job} has no ModifyTime`);
      return t / 1e6;
    };
    const react = stats(ours.map((o) => o.sawMs - successAt(o)));
    const poll = stats(theirs.map((o) => o.sawMs - successAt(o)));
    const lengths = stats(
      ours.map((o) => {
        const d = byId.get(o.deploymentId)!;
        return (d.ModifyTime! - (d.CreateTime ?? d.ModifyTime!)) / 1e6;
      }),
    );

    // What the handler did after the success: when a read of the deployment told it, and the requests
    // it started from then on.
    const after: number[] = [];
    const wake: number[] = [];
    const readAfter: number[] = [];
    const kinds = new Map<string, number>();
    for (const o of ours) {
      const at = successAt(o);
      const reqs = log.byJob.get(o.job) ?? [];
      const late = reqs.filter((r) => r.createdMs >= at);
      after.push(late.length);
      for (const r of late) {
        const kind = `${r.method} ${r.path.replace(o.job, '<id>').replace(/\?.*$/, '')}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      // The read that brought the news: of the deployment itself, or of the job's latest deployment
      // when the rollout ended before the handler got to watching it.
      const answered = reqs
        .filter(
          (r) =>
            r.path.startsWith(`/v1/deployment/${o.deploymentId}`) ||
            r.path.startsWith(`/v1/job/${o.job}/deployment`),
        )
        .flatMap((r) => (r.headersMs !== undefined && r.headersMs >= at ? [r.headersMs] : []));
      if (answered.length > 0) {
        const first = Math.min(...answered);
        wake.push(first - at);
        readAfter.push(o.sawMs - first);
      }
    }
    const perApply = ours.map((o) => (log.byJob.get(o.job) ?? []).length);
    const afterStats = stats(after);
    const wakeStats = stats(wake);
    const readStats = stats(readAfter);
    const kindText = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} x${fmt(n / ours.length, 2)}`)
      .join(', ');
    const ratio = poll.p50 / react.p50;

    return [
      {
        name: `deployment-wait reaction p50 (ms, ${total} deployments)`,
        value: fmt(react.p50, 2),
        target: '< 5 ms',
        pass: react.p50 < 5,
        comparison: `5 s poller p50 ${fmt(poll.p50, 0)} ms, ${fmt(ratio, 0)}x ours (its first read comes right after the registration, so a rollout shorter than the interval is seen at the 5 s tick; a long one would be seen 2.5 s late on average)`,
      },
      {
        name: 'deployment-wait reaction p99 (ms)',
        value: fmt(react.p99, 2),
        target: '< 25 ms',
        pass: react.p99 < 25,
        comparison: `max ${fmt(react.max, 2)} ms; 5 s poller p99 ${fmt(poll.p99, 0)} ms, max ${fmt(poll.max, 0)} ms`,
      },
      {
        name: 'reaction, success -> deployment read answered (ms)',
        value: fmt(wakeStats.p50, 2),
        comparison: `p50; p99 ${fmt(wakeStats.p99, 2)} ms. Then to the apply's return p50 ${fmt(readStats.p50, 2)} ms, p99 ${fmt(readStats.p99, 2)} ms, with ${fmt(afterStats.p50, 0)} request(s) started after the success (max ${fmt(afterStats.max, 0)}): ${kindText || 'none'}`,
      },
      {
        name: 'requests per apply (plan + apply)',
        value: fmt(stats(perApply).p50, 0),
        comparison: `max ${fmt(stats(perApply).max, 0)}; deployments lasted p50 ${fmt(lengths.p50, 0)} ms, max ${fmt(lengths.max, 0)} ms (time scale ${TIME_SCALE}); ${CONCURRENCY} applies at a time took ${fmt(oursSecs, 1)} s, the poller's ${total} jobs done after ${fmt(allSecs, 1)} s`,
      },
      {
        name: 'CPU while the applies ran (% of one core)',
        value: `agent ${fmt(agentBusy, 0)}%`,
        comparison: `this process (handlers and poller) ${fmt(ownBusy, 0)}%; some task waited for a CPU ${fmt(stalled, 0)}% of the time; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`,
      },
    ];
  } finally {
    log.stop();
    await pollerPool.close();
    await provider.close();
    await agent.stop();
  }
}

if (require.main === module) {
  runAlone('deployment wait', () => benchWait({ quick: process.argv.includes('--quick') }));
}
