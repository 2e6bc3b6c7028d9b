/**
 * The engine benchmark at a small size, so `npm test` notices when the harness stops running, and so
 * the request budget it reports is held as behaviour: the agent counts the requests, they do not
 * depend on the machine's speed. Its timing figures are only checked to be there (timing targets
 * belong to `npm run bench`, not to tests on a shared machine).
 */
import { benchEngine } from '../../bench/engine';
import type { Figure } from '../../bench/lib';

jest.setTimeout(240_000);

let figures: Figure[];

beforeAll(async () => {
  figures = await benchEngine({ jobs: 20, big: 100, log: () => undefined });
});

function figure(prefix: string): Figure {
  const f = figures.find((x) => x.name.startsWith(prefix));
  if (!f) throw new Error(`no figure named "${prefix}...": ${figures.map((x) => x.name).join('; ')}`);
  return f;
}

test('unchanged jobs cost one listing in a refresh and plan, and no request of their own', () => {
  const f = figure('agent requests per unchanged job');
  expect(f.value).toBe('0.050');
  expect(f.pass).toBe(true);
  expect(f.comparison).toMatch(/^1 requests for 20 jobs, 0 jobs read on their own; GET \/v1\/jobs 1/);
});

test('a changed job costs two requests as JSON and three as HCL2', () => {
  expect(figure('HTTP requests per changed JSON job').value).toBe('2');
  const hcl = figure('HTTP requests per changed HCL2 job');
  expect(hcl.value).toBe('3');
  expect(hcl.comparison).toMatch(/POST \/v1\/jobs\/parse 5/);
});

test('every deployment of the deploy is counted and compared with the wall time', () => {
  const sum = figure('deploy 20 new jobs: wall / sum');
  expect(sum.comparison).toMatch(/deployments [\d.]+ s in all \(\d+ ms each\)/);
  expect(Number(sum.value)).toBeGreaterThan(0);
  const slots = figure('deploy 20 new jobs: wall / (that sum / 10 slots)');
  // Nothing can finish 20 one-second rollouts in 10 slots faster than the rollouts themselves.
  expect(Number(slots.value)).toBeGreaterThanOrEqual(1);
  expect(slots.target).toBe('< 1.05 (ours)');
});

test('the plan, destroy and memory figures are measured', () => {
  const plan = figure('plan 20 unchanged jobs');
  expect(plan.target).toBe('< 1.0 s');
  expect(plan.comparison).toMatch(/median of 3/);
  expect(figure('destroy 20 jobs').value).toMatch(/^\d+\.\d\d$/);
  const bigPlan = figure('plan of 100 unchanged resources');
  expect(bigPlan.target).toBe('< 3 s');
  expect(bigPlan.value).toMatch(/^\d+\.\d\d$/);
  expect(bigPlan.comparison).toMatch(/^median of 3 \(/);
  const rss = figure('engine peak RSS, plan of 100 resources');
  expect(rss.target).toBe('< 250 MB');
  expect(Number(rss.value)).toBeGreaterThan(10);
  expect(rss.comparison).toMatch(/^the highest of 3 runs/);
});
