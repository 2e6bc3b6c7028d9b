/**
 * Event-stream delivery latency: jobs are registered at a steady rate while a subscriber reads the Job
 * topic; each JobRegistered event is timed from the job's SubmitTime (the agent's wall clock, stamped in
 * the transaction that commits the register and so publishes the event) to the moment this process has
 * parsed the event. Both ends read the same system clock through performance.timeOrigin + now().
 */
import { get, type IncomingMessage } from 'node:http';
import { Pool } from 'undici';
import { percentile } from './lib';
import { currentIndex, serviceJob } from './agent-load';

export interface EventLatency {
  received: number;
  sent: number;
  p50: number;
  p99: number;
  max: number;
  min: number;
  /** Registers answered per second over the run (should equal the rate asked for). */
  achievedRate: number;
}

interface StreamMessage {
  Index?: number;
  Events?: { Topic: string; Type: string; Key: string; Payload?: { Job?: { SubmitTime?: number } } }[];
}

function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

function openStream(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(url, (res) => {
      if (res.statusCode !== 200) reject(new Error(`event stream: HTTP ${res.statusCode}`));
      else resolve(res);
    });
    req.on('error', reject);
  });
}

export async function eventLatency(
  baseUrl: string,
  opts: { jobs: number; perSecond: number; prefix: string },
): Promise<EventLatency> {
  const pool = new Pool(baseUrl, { connections: 32 });
  try {
    return await measure(baseUrl, pool, opts);
  } finally {
    await pool.close();
  }
}

async function measure(
  baseUrl: string,
  pool: Pool,
  opts: { jobs: number; perSecond: number; prefix: string },
): Promise<EventLatency> {
  const from = (await currentIndex(pool)) + 1;
  const stream = await openStream(`${baseUrl}/v1/event/stream?topic=Job&index=${from}`);
  const latencies = new Map<string, number>();
  let allSeen: () => void = () => undefined;
  const seen = new Promise<void>((r) => (allSeen = r));
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const m = JSON.parse(line) as StreamMessage;
      const at = wallMs();
      for (const e of m.Events ?? []) {
        const submit = e.Payload?.Job?.SubmitTime;
        if (e.Type !== 'JobRegistered' || !e.Key.startsWith(opts.prefix) || submit === undefined) continue;
        if (!latencies.has(e.Key)) latencies.set(e.Key, at - submit / 1e6);
      }
      if (latencies.size >= opts.jobs) allSeen();
    }
  });

  const interval = 1000 / opts.perSecond;
  const started = performance.now();
  const registers: Promise<void>[] = [];
  for (let i = 0; i < opts.jobs; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    registers.push(
      pool
        .request({
          method: 'POST',
          path: '/v1/jobs',
          body: JSON.stringify(serviceJob(`${opts.prefix}${i}`)),
          headers: { 'content-type': 'application/json' },
        })
        .then(async (res) => {
          await res.body.arrayBuffer();
          if (res.statusCode >= 400) throw new Error(`register -> ${res.statusCode}`);
        }),
    );
  }
  await Promise.all(registers);
  const achievedRate = opts.jobs / ((performance.now() - started) / 1000);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([seen, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
  clearTimeout(timer);
  stream.destroy();
  const lat = [...latencies.values()].sort((a, b) => a - b);
  return {
    received: lat.length,
    sent: opts.jobs,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    max: lat[lat.length - 1] ?? NaN,
    min: lat[0] ?? NaN,
    achievedRate,
  };
}
