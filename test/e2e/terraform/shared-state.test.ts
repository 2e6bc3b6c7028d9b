/**
 * One state used in turn by terraform (through the terraform-mirror plugins) and by cdktf-sched, with
 * the local backend and with the pg backend: each plans no changes after the other applied, and each
 * is refused while the other holds the lock (terraform's fcntl lock on a local state file, the
 * PostgreSQL advisory lock for pg). Skipped without terraform, and the pg half without PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
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
} from '../cli/helpers';
import { createWorkspace, findTerraform, type Workspace } from './harness';

const TERRAFORM = findTerraform();
const PG_MISSING = postgresMissing();
if (!TERRAFORM) console.warn('skipping terraform/cdktf-sched shared state tests: no terraform on PATH');
else if (PG_MISSING) console.warn(`skipping the pg half of the shared state tests: ${PG_MISSING}`);

/** A job that takes ~3 s to start (at the agent's time scale), with deadlines long enough for it. */
const SLOW = {
  driverConfig: { start_block_for: '300s' },
  update: { HealthyDeadline: 3600e9, ProgressDeadline: 7200e9 },
};

(TERRAFORM ? describe : describe.skip)('terraform and cdktf-sched on one state', () => {
  let p: Project;
  let tf: Workspace;
  let pg: PostgresServer | undefined;
  beforeAll(async () => {
    [p, pg] = await Promise.all([createProject(), PG_MISSING ? undefined : startPostgres()]);
    tf = createWorkspace(TERRAFORM!);
    Object.assign(tf.env, { SCHED_ADDR: p.env['SCHED_ADDR'] });
  }, 120_000);
  afterAll(async () => {
    tf?.remove();
    await p?.close();
    await pg?.stop();
  });

  /** The same configuration for both tools: our stack and terraform's main.tf.json. */
  function writeBoth(
    backend: Record<string, unknown>,
    jobs: Record<string, ReturnType<typeof jobspec>>,
  ): void {
    const resources: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(jobs))
      resources[name] = withPath('app', name, { jobspec: spec });
    const base = stackJson({ resource: { sched_job: resources } });
    const config = { ...base, terraform: { ...(base['terraform'] as object), backend } };
    p.writeStack('app', config);
    // terraform has no use for cdktf's metadata block.
    const forTerraform: Record<string, unknown> = { ...config };
    delete forTerraform['//'];
    fs.writeFileSync(path.join(tf.dir, 'main.tf.json'), JSON.stringify(forTerraform, null, 2));
  }

  const onCluster = (id: string): Promise<boolean> => isOnCluster(p.agent, id);

  /** Each tool after the other plans no changes, each is refused while the other holds the lock. */
  async function roundTrip(backend: Record<string, unknown>, tag: string): Promise<void> {
    writeBoth(backend, { a: jobspec(`${tag}-a`) });
    const ours = await p.cli(['deploy', '--no-synth', '--auto-approve']);
    expect(ours.code).toBe(0);
    await tf.run(['init', '-input=false', '-no-color', '-reconfigure']);
    // terraform after us: nothing to do.
    await tf.run(['plan', '-input=false', '-no-color', '-detailed-exitcode'], [0]);

    // terraform adds a job that takes a while to start: while it holds the lock, we are refused.
    writeBoth(backend, { a: jobspec(`${tag}-a`), b: jobspec(`${tag}-b`, SLOW) });
    const tfApply = tf.run(['apply', '-input=false', '-no-color', '-auto-approve']);
    await until(() => onCluster(`${tag}-b`), 60_000);
    const refused = await p.cli(['plan', '--no-synth']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/locked/);
    await tfApply;
    // We after terraform: nothing to do.
    const plan = await p.cli(['plan', '--no-synth', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);

    // We add a job that takes a while to start: while we hold the lock, terraform is refused.
    writeBoth(backend, {
      a: jobspec(`${tag}-a`),
      b: jobspec(`${tag}-b`, SLOW),
      // ~8 s: long enough for terraform to start and meet our lock.
      c: jobspec(`${tag}-c`, { ...SLOW, driverConfig: { start_block_for: '800s' } }),
    });
    const ourApply = spawnCli(p, ['deploy', '--no-synth', '--auto-approve']);
    await until(() => onCluster(`${tag}-c`), 60_000);
    const tfRefused = await tf.run(['plan', '-input=false', '-no-color', '-lock-timeout=0s'], [1]);
    expect(tfRefused.stderr).toMatch(/Error acquiring the state lock/);
    expect(await ourApply.exited).toBe(0);
    expect((await p.cli(['plan', '--no-synth', '--detailed-exitcode'])).code).toBe(0);
  }

  test('local backend: terraform and cdktf-sched take turns on one state file and lock each other out', async () => {
    await roundTrip({ local: { path: path.join(p.dir, 'shared', 'terraform.app.tfstate') } }, 'loc');
    // Terraform's lock info file is where terraform looks for it, and gone after the runs.
    expect(fs.existsSync(path.join(p.dir, 'shared', '.terraform.app.tfstate.lock.info'))).toBe(false);
  }, 150_000);

  (PG_MISSING ? test.skip : test)(
    'pg backend: the same, on one row',
    async () => {
      await roundTrip({ pg: { conn_str: pg!.connStr } }, 'pgs');
    },
    150_000,
  );
});
