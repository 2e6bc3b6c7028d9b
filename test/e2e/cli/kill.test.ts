/**
 * kill -9 in the middle of an apply: the state file stays whole, and a re-apply finishes the work
 * with nothing lost (every job recorded and running once) and nothing done twice (jobs that
 * completed before the kill are not registered again).
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadStateWithPending, lockPathFor, readPending, StateFile } from '../../../src/engine/state';
import {
  createProject,
  jobspec,
  spawnCli,
  stackJson,
  stateAddresses,
  until,
  withPath,
  type Project,
} from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

const N = 6;
const ids = Array.from({ length: N }, (_, i) => `slow-${i}`);

/**
 * Jobs whose create completed (in the state file), whose create started (in the pending journal), and
 * whose create was journaled ahead and never started.
 */
async function recordedJobs(): Promise<{ done: string[]; pending: string[]; ahead: string[] }> {
  const out = { done: [] as string[], pending: [] as string[], ahead: [] as string[] };
  if (!existsSync(p.statePath())) return out;
  let s;
  try {
    s = p.readState();
  } catch {
    return out; // a reader can race the rename; the writer never leaves a torn file (checked below)
  }
  for (const r of s.resources) if (r.type === 'sched_job' && !r.instances[0]?.status) out.done.push(r.name);
  for (const l of await readPending(p.statePath())) {
    const name = l.address.slice('sched_job.'.length);
    if (!out.done.includes(name)) out.pending.push(name);
  }
  for (const name of journaledAhead()) if (!out.done.includes(name)) out.ahead.push(name);
  return out;
}

/** Creates journaled ahead of their slot and never marked as started (the journal's raw lines). */
function journaledAhead(): string[] {
  const file = `${p.statePath()}.pending`;
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((raw) => {
      try {
        return [JSON.parse(raw) as { address?: string; ahead?: string; started?: string }];
      } catch {
        return []; // a torn last line, or the empty one after the last newline
      }
    });
  const started = new Set(lines.map((l) => l.started));
  return lines
    .filter((l) => l.ahead !== undefined && !started.has(l.ahead))
    .map((l) => l.address!.slice('sched_job.'.length));
}

async function onCluster(id: string): Promise<boolean> {
  try {
    await p.agent.sched.jobs.read(id, { namespace: 'default' });
    return true;
  } catch {
    return false;
  }
}

test('kill -9 during an apply, then a re-apply completes without losing or repeating work', async () => {
  const jobs: Record<string, unknown> = {};
  // Each allocation takes ~1 s to start (100s at time scale 0.01), so the apply runs for a while.
  for (const id of ids)
    jobs[id] = withPath('app', id, { jobspec: jobspec(id, { driverConfig: { start_block_for: '100s' } }) });
  p.writeStack('app', stackJson({ resource: { sched_job: jobs } }));

  const run = spawnCli(p, ['deploy', '--no-synth', '--auto-approve', '--parallelism', '2']);
  // Kill once two creates completed and another one is registered but still waiting for its
  // allocations: the worst moment, an object the state has not recorded as complete.
  // Creates next in line for a slot are journaled before they start: wait for one of those too.
  let inFlight = '';
  await until(async () => {
    const { done, pending, ahead } = await recordedJobs();
    if (done.length < 2) return false;
    for (const id of pending) if (await onCluster(id)) inFlight = id;
    return inFlight !== '' && ahead.length > 0;
  }, 30_000);
  run.child.kill('SIGKILL');
  expect(await run.exited).toBeNull();

  // The file is whole (parses as state v4) and holds only what completed.
  const text = readFileSync(p.statePath(), 'utf8');
  const afterKill = StateFile.parse(text);
  const done = afterKill
    .addresses()
    .filter((a) => a.startsWith('sched_job.') && !afterKill.get(a)!.status)
    .map((a) => a.slice('sched_job.'.length));
  expect(done.length).toBeGreaterThanOrEqual(2);
  expect(done.length).toBeLessThan(N);
  const before = new Map<string, number>();
  for (const id of [...done, inFlight]) {
    const { value } = await p.agent.sched.jobs.read(id, { namespace: 'default' });
    before.set(id, value.JobModifyIndex ?? -1);
  }

  // Creates journaled ahead that never started (they waited for a slot): not on the cluster.
  const neverStarted = (await recordedJobs()).ahead;
  expect(neverStarted.length).toBeGreaterThan(0);
  for (const id of neverStarted) expect(await onCluster(id)).toBe(false);

  // The create in flight is known from the journal: loaded with it, the state has it as pending.
  expect(existsSync(`${p.statePath()}.pending`)).toBe(true);
  const { state: withPending } = await loadStateWithPending(p.statePath());
  expect(withPending.get(`sched_job.${inFlight}`)?.createPending).toBe(true);
  // Those that never started are not creates in flight: a job someone else registers under one of
  // those IDs before the next run must not be taken for ours.
  for (const id of neverStarted) expect(withPending.has(`sched_job.${id}`)).toBe(false);
  // The lock of the killed process is left behind; its holder is gone, so the next run takes it.
  expect(existsSync(lockPathFor(p.statePath()))).toBe(true);
  const again = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(again.stderr).not.toMatch(/Error/);
  // The job registered before the kill is recorded, not created a second time.
  expect(again.stdout).toContain(`the last apply stopped while creating sched_job.${inFlight};`);
  expect(again.stderr).not.toMatch(new RegExp(`sched_job\\.${inFlight}: Creating`));
  expect(again.code).toBe(0);
  // A create journaled ahead that never started is created as planned.
  for (const id of neverStarted) {
    expect(again.stdout).not.toContain(`the last apply stopped while creating sched_job.${id};`);
    expect(again.stderr).toMatch(new RegExp(`sched_job\\.${id}: Creating`));
  }

  const s = p.readState();
  expect(stateAddresses(s)).toEqual(ids.map((id) => `sched_job.${id}`).sort());
  for (const r of s.resources) {
    expect(r.instances).toHaveLength(1);
    expect(r.instances[0]!.status).toBeUndefined();
  }
  const { value: list } = await p.agent.sched.jobs.list({ namespace: 'default' });
  expect(list.map((j) => j.ID).sort()).toEqual([...ids].sort());
  for (const id of ids) {
    const { value } = await p.agent.sched.jobs.read(id, { namespace: 'default' });
    expect(value.Version).toBe(0);
    expect(value.Stop).toBeFalsy();
  }
  // What completed before the kill, and the job registered just before it, were not registered again.
  for (const [id, index] of before) {
    const { value } = await p.agent.sched.jobs.read(id, { namespace: 'default' });
    expect(value.JobModifyIndex).toBe(index);
    expect(again.stderr).not.toMatch(new RegExp(`sched_job\\.${id}: Creating`));
  }
  // A run that ends leaves no journal.
  expect(existsSync(`${p.statePath()}.pending`)).toBe(false);
  expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
}, 60_000);
