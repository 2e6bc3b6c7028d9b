/**
 * The real executable writing a large plan into a pipe whose reader is slow (`plan | less`): a pipe
 * takes 64 KB at once and Node queues the rest, so the process must not exit before its output is out.
 */
import { createProject, spawnCli, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

/** One job whose Meta alone renders to about 300 KB of plan text. */
function bigJobspec(): string {
  const meta: Record<string, string> = {};
  for (let i = 0; i < 4000; i++) meta[`key_${String(i).padStart(5, '0')}`] = `value-${'x'.repeat(40)}-${i}`;
  return JSON.stringify({
    ID: 'big',
    Type: 'service',
    Datacenters: ['dc1'],
    Meta: meta,
    TaskGroups: [
      { Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 16 } }] },
    ],
  });
}

test('a plan larger than a pipe holds reaches a slow reader whole', async () => {
  p.writeStack(
    'app',
    stackJson({ resource: { sched_job: { big: withPath('app', 'big', { jobspec: bigJobspec() }) } } }),
  );
  const run = spawnCli(p, ['plan', '--no-synth']);
  // Nothing is read until the process exits (it did not wait for its output) or has long been
  // blocked on the full pipe (it waits, as it must).
  run.child.stdout!.pause();
  await Promise.race([run.exited, new Promise((r) => setTimeout(r, 10_000))]);
  run.child.stdout!.resume();
  expect(await run.exited).toBe(0);
  const out = run.out();
  expect(out.length).toBeGreaterThan(250_000);
  expect(out).toContain('key_03999');
  expect(out.trimEnd().endsWith('Plan: 1 to add, 0 to change, 0 to destroy.')).toBe(true);
}, 60_000);
