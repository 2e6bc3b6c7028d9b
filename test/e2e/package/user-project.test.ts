/**
 * cdktf-sched used from a user's own repository (issue 15): the packed tarball installed into a new
 * project outside this repository, its stack deployed, re-planned to no changes, destroyed and deployed
 * again with the installed `cdktf-sched` bin; the same for a cdktn App; and the real cdktf CLI 0.21
 * (deploy, diff, destroy, deploy again) with Terraform and our providers from a local mirror, skipped
 * only when no terraform is on PATH. One install serves every case; the times are printed.
 */
import path from 'node:path';
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { NotFoundError } from '../../../src/api/errors';
import { SchedClient } from '../../../src/api/sched/client';
import { findTerraform } from '../../../src/plugin/terraform-env';
import {
  NAMES,
  REPO_ROOT,
  createUserProject,
  sh,
  type AppName,
  type Cmd,
  type UserProject,
} from './user-project';

const TERRAFORM = findTerraform();
if (!TERRAFORM) {
  process.stderr.write('test/e2e/package: no terraform on PATH, skipping the cdktf CLI end-to-end test\n');
}

const SLOW = 180_000;

describe('cdktf-sched installed into a project of its own', () => {
  let project: UserProject;
  let agent: DevAgent;
  let sched: SchedClient;
  const times: string[] = [];

  beforeAll(async () => {
    project = await createUserProject();
    times.push(`install ${project.installMs} ms`, `tsc ${project.compileMs} ms`);
    agent = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 });
    sched = new SchedClient({ address: agent.schedulerUrl });
  }, SLOW);

  afterAll(async () => {
    process.stderr.write(`test/e2e/package: ${times.join(', ')}\n`);
    await agent?.stop();
    project?.remove();
  });

  /** Only what a user's shell would have: no SCHED_/REG_ settings of the test run but the agent's. */
  function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !/^(SCHED|REG|NOMAD|CONSUL|TF)_/.test(k) && k !== 'NODE_OPTIONS',
      ),
    );
    return { ...base, CHECKPOINT_DISABLE: '1', SCHED_ADDR: agent.schedulerUrl, ...extra };
  }

  async function cdktfSched(app: AppName, args: string[]): Promise<Cmd> {
    return sh(project.bin('cdktf-sched'), args, { cwd: project.appDir(app), env: env() });
  }

  async function jobStopped(app: AppName): Promise<boolean | undefined> {
    const { job, namespace } = NAMES[app];
    try {
      return (await sched.jobs.read(job, { namespace })).value.Stop === true;
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }

  function expectOk(r: Cmd): void {
    if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  }

  it('every entry point resolves with types (tsc passed) and at run time', async () => {
    const r = await sh(process.execPath, ['entry-points.js'], { cwd: project.dir, env: env() });
    expectOk(r);
    const found = JSON.parse(r.stdout) as Record<string, boolean>;
    expect(Object.entries(found).filter(([, v]) => !v)).toEqual([]);
    expect(Object.keys(found).length).toBe(13);
    for (const plugin of ['terraform-provider-sched', 'terraform-provider-reg']) {
      // Started by hand, without Terraform's handshake, the plugin says what it is and exits 1.
      const p = await sh(project.bin(plugin), [], { cwd: project.dir, env: env() });
      expect({ plugin, code: p.code, stderr: p.stderr }).toMatchObject({
        plugin,
        code: 1,
        stderr: expect.stringContaining('This binary is a Terraform provider plugin'),
      });
    }
  });

  it(
    'cdktf App: deploy, plan no changes, destroy, deploy again, destroy with the installed bin',
    async () => {
      const t0 = Date.now();
      const deploy = await cdktfSched('cdktf-app', ['deploy', '--auto-approve']);
      times.push(`first deploy ${Date.now() - t0} ms`);
      expectOk(deploy);
      expect(deploy.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
      expect(deploy.stdout).toMatch(/deployment_status = "successful"/);
      expect(await jobStopped('cdktf-app')).toBe(false);

      expect((await cdktfSched('cdktf-app', ['plan', '--detailed-exitcode'])).code).toBe(0);

      expectOk(await cdktfSched('cdktf-app', ['destroy', '--auto-approve']));
      expect(await jobStopped('cdktf-app')).toBe(true);

      const again = await cdktfSched('cdktf-app', ['deploy', '--auto-approve']);
      expectOk(again);
      expect(again.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
      expect(await jobStopped('cdktf-app')).toBe(false);
      expectOk(await cdktfSched('cdktf-app', ['destroy', '--auto-approve']));
      expect(await jobStopped('cdktf-app')).toBe(true);
    },
    SLOW,
  );

  it(
    'cdktn App: synth in cdktn, deploy, plan no changes, destroy',
    async () => {
      const synth = await cdktfSched('cdktn-app', ['synth']);
      expectOk(synth);
      const deploy = await cdktfSched('cdktn-app', ['deploy', '--auto-approve']);
      expectOk(deploy);
      expect(deploy.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
      expect(await jobStopped('cdktn-app')).toBe(false);
      expect((await cdktfSched('cdktn-app', ['plan', '--detailed-exitcode'])).code).toBe(0);
      expectOk(await cdktfSched('cdktn-app', ['destroy', '--auto-approve']));
      expect(await jobStopped('cdktn-app')).toBe(true);
    },
    SLOW,
  );

  (TERRAFORM ? it : it.skip)(
    'the real cdktf CLI: deploy, diff (no changes), destroy, deploy again',
    async () => {
      const mirror = path.join(project.dir, 'mirror');
      expectOk(
        await sh(project.bin('cdktf-sched'), ['terraform-mirror', mirror], { cwd: project.dir, env: env() }),
      );
      const cdktf = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdktf');
      const cliEnv = env({
        TF_CLI_CONFIG_FILE: path.join(mirror, 'cli.tfrc'),
        TF_IN_AUTOMATION: '1',
        CI: '1',
      });
      const cli = (args: string[]): Promise<Cmd> =>
        sh(cdktf, args, { cwd: project.appDir('cli-app'), env: cliEnv });

      const t0 = Date.now();
      const deploy = await cli(['deploy', '--auto-approve', '--skip-provider-lock']);
      times.push(`cdktf deploy ${Date.now() - t0} ms`);
      expectOk(deploy);
      expect(deploy.stdout).toMatch(/Apply complete! Resources: 2 added, 0 changed, 0 destroyed/);
      // The apply returned after the deployment finished: the output says so.
      expect(deploy.stdout).toMatch(/deployment_status = "?successful"?/);
      expect(await jobStopped('cli-app')).toBe(false);

      const diff = await cli(['diff', '--skip-provider-lock']);
      expectOk(diff);
      expect(diff.stdout).toMatch(/No changes/);

      const destroy = await cli(['destroy', '--auto-approve', '--skip-provider-lock']);
      expectOk(destroy);
      expect(destroy.stdout).toMatch(/Destroy complete! Resources: 2 destroyed/);
      expect(await jobStopped('cli-app')).toBe(true);

      const again = await cli(['deploy', '--auto-approve', '--skip-provider-lock']);
      expectOk(again);
      expect(again.stdout).toMatch(/Apply complete! Resources: 2 added/);
      expect(await jobStopped('cli-app')).toBe(false);
    },
    // Each cdktf command synthesizes, runs terraform init and starts the plugins: about 10 s on an idle
    // machine, several times that on a busy one.
    2 * SLOW,
  );
});
