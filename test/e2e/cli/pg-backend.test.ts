/**
 * State in PostgreSQL (terraform's pg backend) against a real server the test starts: a deploy
 * leaves nothing on the local disk; a fresh copy of the app (no local files at all) plans no
 * changes; two deploys at once from two processes, one refused by the lock and the state whole;
 * workspaces as rows; a deploy killed with -9 releases its lock with its connection, and the next
 * deploy converges. Skipped with the reason where initdb/pg_ctl are missing.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { StateFile } from '../../../src/engine/state';
import { postgresMissing, startPostgres, type PostgresServer } from '../../helpers/postgres';
import {
  createProject,
  onCluster as isOnCluster,
  jobspec,
  spawnCli,
  stackJson,
  until,
  withPath,
  type Project,
} from './helpers';

const missing = postgresMissing();
if (missing) console.warn(`skipping the pg backend tests: ${missing}`);
const maybe = missing ? describe.skip : describe;

maybe('pg backend', () => {
  let pg: PostgresServer;
  let p: Project;
  let db: Client;
  beforeAll(async () => {
    [pg, p] = await Promise.all([startPostgres(), createProject()]);
    db = new Client({ connectionString: pg.connStr });
    await db.connect();
  }, 90_000);
  afterAll(async () => {
    await db?.end();
    await p?.close();
    await pg?.stop();
  });

  const backend = (): Record<string, unknown> => ({ pg: { conn_str: pg.connStr } });

  /** A stack whose jobs are named after the workspace, with its state in PostgreSQL. */
  function writeApp(ids: string[], slow: Record<string, unknown> = {}): void {
    const jobs: Record<string, unknown> = {};
    for (const id of ids) {
      const spec =
        id in slow
          ? // Deadlines long enough for the slow start (the agent's 5 min default is 3 s at its time scale).
            jobspec(`${id}-\${terraform.workspace}`, {
              driverConfig: { start_block_for: slow[id] },
              update: { HealthyDeadline: 3600e9, ProgressDeadline: 7200e9 },
            })
          : jobspec(`${id}-\${terraform.workspace}`);
      jobs[id] = withPath('app', id, { jobspec: spec });
    }
    const config = stackJson({
      resource: { sched_job: jobs },
      output: { ws: { value: '${terraform.workspace}' } },
    });
    p.writeStack('app', { ...config, terraform: { ...(config['terraform'] as object), backend: backend() } });
  }

  async function rows(): Promise<Map<string, StateFile>> {
    const r = await db.query<{ name: string; data: string }>(
      'SELECT name, data FROM terraform_remote_state.states',
    );
    return new Map(r.rows.map((x) => [x.name, StateFile.parse(x.data)]));
  }

  const onCluster = (id: string): Promise<boolean> => isOnCluster(p.agent, id);

  test('deploy keeps the state in PostgreSQL only; a fresh copy of the app plans no changes', async () => {
    writeApp(['web']);
    const first = await p.cli(['deploy', '--no-synth', '--auto-approve']);
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.code).toBe(0);
    expect(readdirSync(p.dir).filter((f) => f.includes('tfstate'))).toEqual([]);
    const state = (await rows()).get('default')!;
    expect(state.addresses()).toEqual(['sched_job.web']);
    expect(state.getOutput('ws')?.value).toBe('default');
    expect(await onCluster('web-default')).toBe(true);

    // A CI runner that starts empty: only the synthesized app, none of this directory's files.
    const fresh = mkdtempSync(path.join(tmpdir(), 'pg-fresh-'));
    try {
      cpSync(path.join(p.dir, 'cdktf.json'), path.join(fresh, 'cdktf.json'));
      cpSync(path.join(p.dir, 'cdktf.out'), path.join(fresh, 'cdktf.out'), { recursive: true });
      const again = await p.cli(['plan', '--no-synth', '--detailed-exitcode', '--app', fresh]);
      expect(again.stderr).toBe('');
      expect(again.stdout).toContain('No changes.');
      expect(again.code).toBe(0);
      expect(readdirSync(fresh).sort()).toEqual(['cdktf.json', 'cdktf.out']);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 60_000);

  test('two deploys at once from two processes: one is refused by the lock, the state stays whole', async () => {
    // The slow job's allocation takes ~6 s to start (600 s at the agent's time scale of 0.01).
    writeApp(['web', 'slow'], { slow: '600s' });
    const runs = [0, 1].map(() => spawnCli(p, ['deploy', '--no-synth', '--auto-approve']));
    const codes = await Promise.all(runs.map((r) => r.exited));
    expect([...codes].sort()).toEqual([0, 1]);
    const loser = runs[codes.indexOf(1)]!;
    expect(loser.out()).toMatch(/The state is locked: workspace "default" is already locked \(pg backend/);
    expect(loser.out()).not.toMatch(/Creating/);
    const state = (await rows()).get('default')!;
    expect(state.addresses().sort()).toEqual(['sched_job.slow', 'sched_job.web']);
    const plan = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
  }, 90_000);

  test('workspaces are rows; terraform.workspace names them; list, select, delete', async () => {
    writeApp(['web']);
    const staging = await p.cli(['deploy', '--no-synth', '--auto-approve'], {
      env: { TF_WORKSPACE: 'staging' },
    });
    expect(staging.stderr).not.toMatch(/Error/);
    expect(staging.code).toBe(0);
    expect(staging.stdout).toContain('ws = "staging"');
    expect(await onCluster('web-staging')).toBe(true);
    const byName = await rows();
    expect([...byName.keys()].sort()).toEqual(['default', 'staging']);
    expect(byName.get('staging')!.addresses()).toEqual(['sched_job.web']);

    const list = await p.cli(['workspace', 'list']);
    expect(list.stdout).toBe('* default\n  staging\n');
    expect((await p.cli(['workspace', 'select', 'staging'])).code).toBe(0);
    expect((await p.cli(['workspace', 'show'])).stdout).toBe('staging\n');
    expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
    expect((await p.cli(['workspace', 'select', 'nope'])).stderr).toMatch(/workspace "nope" does not exist/);
    expect((await p.cli(['workspace', 'select', 'default'])).code).toBe(0);
    const refused = await p.cli(['workspace', 'delete', 'staging']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/still tracks 1 resource instance\(s\) in "staging"/);
    expect((await p.cli(['destroy', '--no-synth', '--auto-approve', '--workspace', 'staging'])).code).toBe(0);
    expect((await p.cli(['workspace', 'delete', 'staging'])).stdout).toContain(
      'Deleted workspace "staging"!',
    );
    expect([...(await rows()).keys()]).toEqual(['default']);
    expect(await onCluster('web-default')).toBe(true);
  }, 90_000);

  test('kill -9 during a deploy: the lock goes with the connection, the next deploy converges', async () => {
    const ids = ['k1', 'k2', 'k3', 'k4'];
    writeApp(ids, { k1: '100s', k2: '100s', k3: '100s', k4: '100s' });
    const run = spawnCli(p, ['deploy', '--no-synth', '--auto-approve', '--parallelism', '2']);
    await until(async () => (await onCluster('k1-default')) || (await onCluster('k2-default')), 30_000);
    run.child.kill('SIGKILL');
    expect(await run.exited).toBeNull();
    // Whatever was written is a whole state.
    expect((await rows()).get('default')).toBeDefined();
    const again = await p.cli(['deploy', '--no-synth', '--auto-approve']);
    expect(again.stderr).not.toMatch(/locked/);
    expect(again.code).toBe(0);
    const state = (await rows()).get('default')!;
    for (const id of ids) {
      expect(state.get(`sched_job.${id}`)?.status).toBeUndefined();
      const { value } = await p.agent.sched.jobs.read(`${id}-default`, { namespace: 'default' });
      expect(value.Version).toBe(0); // registered once, not twice
    }
    expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
  }, 90_000);

  test('an unsupported backend fails before anything runs and names itself', async () => {
    p.writeStack('app', {
      ...stackJson({
        resource: { sched_job: { other: withPath('app', 'other', { jobspec: jobspec('other') }) } },
      }),
      terraform: { backend: { s3: { bucket: 'b', key: 'k', region: 'us-east-1' } } },
    });
    const r = await p.cli(['deploy', '--no-synth', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/backend "s3" is not supported by cdktf-sched: state in Amazon S3/);
    expect(r.stderr).toMatch(/Nothing was run/);
    expect(await onCluster('other')).toBe(false);
    expect(existsSync(p.statePath())).toBe(false);
  }, 30_000);
});
