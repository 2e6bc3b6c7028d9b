/**
 * Idle cost of blocking queries: the agent's CPU share with no query waiting (the floor) and with `n`
 * queries parked on job reads, side by side in one run, plus its RSS and a proof that the queries are
 * really parked at the agent: it holds their sockets, none was answered during the window, and a write
 * to one watched job answers exactly the queries that watch it.
 */
import type { Pool } from 'undici';
import { rssMB } from './lib';
import { cpuShare, settle, sleep, socketCount } from './agent-proc';
import { parkQueries } from './agent-park';
import { currentIndex } from './agent-load';

export interface IdleResult {
  floor: number;
  parked: number;
  queries: number;
  windowS: number;
  /** Seconds from the first query sent until all were parked and the agent's CPU had calmed down. */
  settleS: number;
  rssFloorMB: number;
  rssParkedMB: number;
  /** Sockets the agent held during the window. */
  agentSockets: number;
  /** Queries still waiting after the window (should be all). */
  stillParked: number;
  /** Answers that came back during the window (should be none). */
  answeredInWindow: number;
  /** Queries that watch the job written for the wake check, and how many of them were answered. */
  wakeExpected: number;
  wakeAnswered: number;
  /** ms from the write until the last of those answers arrived. */
  wakeMs: number;
}

export async function idleWithParkedQueries(
  pid: number,
  baseUrl: string,
  control: Pool,
  opts: { queries: number; windowS: number; jobIds: string[] },
): Promise<IdleResult> {
  const { queries, windowS, jobIds } = opts;
  // The reads before leave garbage and a heap to shrink: let that pass, as after parking below.
  await settle(pid, 1, 5000);
  const rssFloorMB = rssMB(pid);
  const floor = await cpuShare(pid, windowS);

  const index = await currentIndex(control);
  const sent = performance.now();
  const parked = await parkQueries(
    baseUrl,
    queries,
    (i) => `/v1/job/${jobIds[i % jobIds.length]}?index=${index}&wait=5m`,
  );
  try {
    // Settled: every socket accepted, then the agent below 1% of a core over half a second (at most
    // 10 s), so the window measures parked queries, not the tail of parking them (their garbage).
    while (socketCount(pid) < queries && performance.now() - sent < 10_000) await sleep(200);
    await settle(pid, 1, Math.max(0, 10_000 - (performance.now() - sent)));
    const settleS = (performance.now() - sent) / 1000;
    const answeredBefore = parked.answers().length;
    const agentSockets = socketCount(pid);
    const share = await cpuShare(pid, windowS);
    const answeredInWindow = parked.answers().length - answeredBefore;
    const stillParked = parked.parked();
    const rssParkedMB = rssMB(pid);

    // Stop one watched job: the queries on it, and only those, must answer.
    const woken = jobIds[0]!;
    const wakeExpected = Array.from({ length: queries }, (_, i) => i).filter(
      (i) => jobIds[i % jobIds.length] === woken,
    ).length;
    const before = parked.answers().length;
    const t0 = performance.now();
    const res = await control.request({ method: 'DELETE', path: `/v1/job/${woken}` });
    await res.body.arrayBuffer();
    const deadline = t0 + 3000;
    while (parked.answers().length - before < wakeExpected && performance.now() < deadline) await sleep(20);
    await sleep(200); // any answer beyond the expected ones would be a wrong wake-up
    const woke = parked.answers().slice(before);
    const wakeAnswered = woke.filter(
      (a) => a.path.startsWith(`/v1/job/${woken}?`) && a.status.includes(' 200 '),
    ).length;
    const wakeMs = woke.length > 0 ? Math.max(...woke.map((a) => a.at)) - t0 : NaN;
    if (woke.length !== wakeAnswered)
      throw new Error(`a write to ${woken} answered ${woke.length - wakeAnswered} queries on other jobs`);
    if (parked.errors() > 0) throw new Error(`${parked.errors()} blocking-query connections failed`);
    return {
      floor,
      parked: share,
      queries,
      windowS,
      settleS,
      rssFloorMB,
      rssParkedMB,
      agentSockets,
      stillParked,
      answeredInWindow,
      wakeExpected,
      wakeAnswered,
      wakeMs,
    };
  } finally {
    parked.close();
  }
}
