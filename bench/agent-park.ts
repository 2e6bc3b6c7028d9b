/**
 * Many blocking queries held open at once, each on its own raw TCP connection: the bench side costs one
 * socket per query and no timers, and any byte that comes back is an answer, so "still parked" is exact.
 */
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ParkedQueries {
  /** Queries whose connection is open and that have had no answer yet. */
  parked(): number;
  /** Queries answered so far, with the status line of each answer. */
  answers(): { path: string; status: string; at: number }[];
  /** Connections that failed (refused, reset). */
  errors(): number;
  close(): void;
}

/**
 * Opens `n` connections to `baseUrl`, `batch` at a time, and sends `pathFor(i)` on the i-th. A connect
 * completes in the kernel before the agent accepts it, so connects alone would outrun the agent and
 * overflow its listen backlog (each dropped SYN costs a second's retransmit). After each batch a
 * request on a fresh connection must be answered first: it queues behind the whole batch.
 */
export async function parkQueries(
  baseUrl: string,
  n: number,
  pathFor: (i: number) => string,
  batch = 400,
): Promise<ParkedQueries> {
  const { hostname, port } = new URL(baseUrl);
  const sockets: Socket[] = [];
  const answered: { path: string; status: string; at: number }[] = [];
  const open = new Set<Socket>();
  let errors = 0;
  for (let start = 0; start < n; start += batch) {
    const connects: Promise<void>[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) {
      const path = pathFor(i);
      const s = connect({ host: hostname, port: Number(port) });
      sockets.push(s);
      let replied = false;
      s.setNoDelay(true);
      s.on('data', (d: Buffer) => {
        if (replied) return;
        replied = true;
        open.delete(s);
        answered.push({ path, status: d.toString('latin1', 0, d.indexOf(13)), at: performance.now() });
      });
      s.on('error', () => {
        errors++;
        open.delete(s);
      });
      s.on('close', () => open.delete(s));
      connects.push(
        new Promise<void>((resolve) => {
          s.once('connect', () => {
            open.add(s);
            s.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\n\r\n`);
            resolve();
          });
          s.once('error', () => resolve());
        }),
      );
    }
    await Promise.all(connects);
    await probe(baseUrl);
  }
  return {
    parked: () => open.size,
    answers: () => answered,
    errors: () => errors,
    close: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

function probe(baseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = get(`${baseUrl}/v1/regions`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
  });
}
