/**
 * `deploy --auto-approve` starts applying before the plan's text is rendered (src/cli/apply-early.ts):
 * the first registrations reach the scheduler before the plan is written, and the output still reads
 * plan first, then progress, then the summary. Without --auto-approve the plan comes first, as before.
 */
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/io';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

interface Line {
  stream: 'stdout' | 'stderr';
  text: string;
  at: number;
}

/** A stream that files every write in one log shared by stdout and stderr, with its time. */
function logged(stream: Line['stream'], log: Line[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      log.push({ stream, text: chunk.toString(), at: performance.now() });
      cb();
    },
  });
}

const slowRollout = { MaxParallel: 1, HealthCheck: 'task_states', MinHealthyTime: 30e9 };

test('the first registrations go out before the plan is written; the output keeps its order', async () => {
  const ids = ['early-a', 'early-b', 'early-c'];
  p.writeStack(
    'app',
    stackJson({
      resource: {
        sched_job: Object.fromEntries(
          ids.map((id) => [id, withPath('app', id, { jobspec: jobspec(id, { update: slowRollout }) })]),
        ),
      },
    }),
  );
  const log: Line[] = [];
  const io: CliIO = {
    stdout: logged('stdout', log),
    stderr: logged('stderr', log),
    env: p.env,
    cwd: p.dir,
  };
  const before = p.agent.agent.requests.length;
  const code = await runCli(['deploy', '--no-synth', '--auto-approve', '--parallelism', '3'], io);
  const text = log.map((l) => l.text).join('');
  expect(code).toBe(0);
  const planAt = log.find((l) => l.text.includes('will perform the following actions'))!.at;
  const registrations = p.agent.agent.requests
    .slice(before)
    .filter((r) => r.method === 'POST' && r.path === '/v1/jobs');
  expect(registrations).toHaveLength(3);
  expect(registrations.filter((r) => r.finishedAt < planAt)).toHaveLength(3);
  // Read in order: the plan, then every progress line, then the summary.
  const planEnd = text.indexOf('Plan: 3 to add');
  expect(planEnd).toBeGreaterThan(0);
  expect(text.indexOf('Creating...')).toBeGreaterThan(planEnd);
  expect(text.indexOf('Apply complete! Resources: 3 added')).toBeGreaterThan(
    text.lastIndexOf('Creation complete'),
  );
});
