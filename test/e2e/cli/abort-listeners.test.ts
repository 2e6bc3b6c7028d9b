/**
 * A deploy of many resources in parallel shares one interrupt signal: no MaxListenersExceededWarning
 * (each resource's apply listens on a child signal of its own, not on the shared one).
 */
import { EventEmitter } from 'node:events';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

test('deploying 12 jobs at once leaves no pile of abort listeners on the shared interrupt signals', async () => {
  const jobs: Record<string, unknown> = {};
  for (let i = 0; i < 12; i++) jobs[`j${i}`] = withPath('app', `j${i}`, { jobspec: jobspec(`j${i}`) });
  p.writeStack('app', stackJson({ resource: { sched_job: jobs } }));
  const warnings: string[] = [];
  const onWarning = (w: Error): void => {
    warnings.push(`${w.name}: ${w.message}`);
  };
  process.on('warning', onWarning);
  const soft = new AbortController();
  const hard = new AbortController();
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(
      peak,
      EventEmitter.getEventListeners(hard.signal, 'abort').length,
      EventEmitter.getEventListeners(soft.signal, 'abort').length,
    );
  }, 1);
  try {
    const r = await p.cli(['deploy', '--no-synth', '--auto-approve', '--parallelism', '12'], {
      interrupts: { soft: soft.signal, hard: hard.signal },
    });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete! Resources: 12 added');
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
    clearInterval(poll);
  }
  // One listener per layer that shares it (the apply's fan-out, the walk), however many run at once.
  expect(peak).toBeLessThanOrEqual(2);
  expect(warnings.filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
}, 60_000);
