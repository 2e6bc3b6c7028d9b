/**
 * The child of `bench/transport.ts`: in a fresh process, `n` reads of a small object through the
 * scheduler client (`concurrency` at a time), then as many again; prints the CPU of each half as JSON.
 * The first half is what a command pays (its first calls run cold), the second what a warm call costs.
 */
import { SchedClient } from '../src/api/sched';

async function calls(client: SchedClient, n: number, concurrency: number): Promise<number> {
  const before = process.cpuUsage();
  let started = 0;
  const worker = async (): Promise<void> => {
    while (started < n) {
      started++;
      await client.namespaces.read('default');
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const [address, n, concurrency] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
  const client = new SchedClient({ address, env: {} });
  const coldMs = await calls(client, n, concurrency);
  const warmMs = await calls(client, n, concurrency);
  await client.close();
  process.stdout.write(`${JSON.stringify({ coldMs, warmMs })}\n`);
}

void main();
