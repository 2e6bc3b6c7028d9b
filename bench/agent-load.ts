/** Closed-loop HTTP load against the agent and a wait for the simulated cluster to settle. */
import type { Pool } from 'undici';
import { percentile } from './lib';
import { sleep } from './agent-proc';

/**
 * A one-task service job for the mock driver. Without `run_for` the task runs until stopped, so a settled
 * cluster stays settled: nothing restarts in the middle of an idle measurement.
 */
export function serviceJob(id: string): unknown {
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
          Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 } }],
        },
      ],
    },
  };
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
}

/** `total` requests from `concurrency` workers, each sending its next request when the last is answered. */
export async function load(
  pool: Pool,
  total: number,
  concurrency: number,
  req: (i: number) => LoadRequest,
): Promise<LoadResult> {
  const lat: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const r = req(next++);
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

async function getJson(pool: Pool, path: string): Promise<{ body: unknown; index: number }> {
  const res = await pool.request({ method: 'GET', path });
  const body: unknown = await res.body.json();
  return { body, index: Number(res.headers['x-sched-index']) };
}

/** The scheduler's current raft-like index. */
export async function currentIndex(pool: Pool): Promise<number> {
  return (await getJson(pool, '/v1/jobs?prefix=-none-')).index;
}

/**
 * Waits until every evaluation is processed, every allocation has left `pending` and no deployment is
 * running, then until the index has not moved for a quarter second: after that the agent does nothing
 * on its own. Returns the seconds it took.
 */
export async function quiesce(pool: Pool, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  let last = -1;
  while (performance.now() - started < timeoutMs) {
    const evals = await getJson(pool, '/v1/evaluations?status=pending');
    const allocs = await getJson(pool, '/v1/allocations?task_states=false');
    const deps = await getJson(pool, '/v1/deployments');
    const busy =
      (evals.body as unknown[]).length > 0 ||
      (allocs.body as { ClientStatus: string }[]).some((a) => a.ClientStatus === 'pending') ||
      (deps.body as { Status: string }[]).some((d) => d.Status === 'running');
    const index = Math.max(evals.index, allocs.index, deps.index);
    if (!busy && index === last) return (performance.now() - started) / 1000;
    last = busy ? -1 : index;
    await sleep(250);
  }
  throw new Error(`the agent did not settle within ${timeoutMs / 1000} s`);
}
