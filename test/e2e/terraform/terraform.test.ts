/**
 * The real `terraform` binary drives our plugins against dev agents: init from the filesystem mirror,
 * plan, apply (the job waits for its deployment), plan with no changes, a change, import of every
 * resource, and destroy. Every resource type is in one configuration, so each step is one terraform
 * command. Skipped, with a message, when no terraform is on PATH.
 */
import { readFileSync } from 'node:fs';
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { regProvider } from '../../../src/provider/reg/provider';
import { schedProvider } from '../../../src/provider/sched/provider';
import { providersSchemaJson } from '../../../src/provider/terraform-schema';
import { createWorkspace, findTerraform, terraformVersion, type Workspace } from './harness';

const TERRAFORM = findTerraform();
if (!TERRAFORM) {
  process.stderr.write('test/e2e/terraform: no terraform on PATH, skipping the Terraform end-to-end tests\n');
}

const CA = '-----BEGIN CERTIFICATE-----\\nMIIBdevca\\n-----END CERTIFICATE-----';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.e2e-service-account-jwt.c2lnbmF0dXJl';

interface Phase {
  count: number;
  appsDescription: string;
  owner: string;
  methodDescription: string;
  imports?: boolean;
}

function configuration(east: DevAgent, west: DevAgent, p: Phase): string {
  return `
terraform {
  required_providers {
    sched = { source = "cdktf-sched/sched", version = "0.1.0" }
    reg   = { source = "cdktf-sched/reg", version = "0.1.0" }
  }
}

provider "sched" { address = "${east.schedulerUrl}" }
provider "reg" { address = "${east.registryUrl}" }
provider "reg" {
  alias   = "west"
  address = "${west.registryUrl}"
}

resource "sched_namespace" "apps" {
  name        = "apps"
  description = "${p.appsDescription}"
}

resource "sched_job" "web" {
  jobspec = jsonencode({
    ID          = "web"
    Namespace   = sched_namespace.apps.name
    Type        = "service"
    Datacenters = ["east"]
    Update = {
      MaxParallel      = 1
      HealthCheck      = "task_states"
      MinHealthyTime   = 1000000000
      HealthyDeadline  = 30000000000
      ProgressDeadline = 60000000000
    }
    TaskGroups = [{
      Name  = "web"
      Count = ${p.count}
      Tasks = [{
        Name      = "server"
        Driver    = "mock"
        Config    = { run_for = "1h" }
        Resources = { CPU = 100, MemoryMB = 64 }
      }]
    }]
  })
}

resource "reg_namespace" "team" {
  name        = "team"
  description = "the team"
  meta        = { owner = "${p.owner}" }
}

resource "reg_acl_auth_method" "k8s" {
  name        = "k8s"
  type        = "kubernetes"
  description = "${p.methodDescription}"
  config = jsonencode({
    Host              = "https://k8s.example:8443"
    CACert            = "${CA}"
    ServiceAccountJWT = "${JWT}"
  })
  namespace_rule {
    selector       = "serviceaccount.namespace==\\"team\\""
    bind_namespace = reg_namespace.team.name
  }
}

resource "reg_peering_token" "west" {
  peer_name = "west"
  meta      = { env = "e2e" }
}

resource "reg_peering" "east" {
  provider      = reg.west
  peer_name     = "east"
  peering_token = reg_peering_token.west.peering_token
}

data "sched_job" "web" {
  job_id    = sched_job.web.id
  namespace = sched_namespace.apps.name
}

output "job_version" { value = sched_job.web.version }
output "deployment_status" { value = sched_job.web.deployment_status }
output "running" { value = data.sched_job.web.task_groups[0].running }
output "peering_state" { value = reg_peering.east.state }
${
  p.imports
    ? `
resource "reg_peering_token" "adopted" {
  peer_name = "west"
  meta      = { env = "e2e" }
}

import {
  to = sched_namespace.apps
  id = "apps"
}
import {
  to = sched_job.web
  id = "web@apps"
}
import {
  to = reg_namespace.team
  id = "team"
}
import {
  to = reg_acl_auth_method.k8s
  id = "k8s"
}
import {
  to = reg_peering.east
  id = "east"
}
import {
  to = reg_peering_token.adopted
  id = "west"
}
`
    : ''
}`;
}

type Obj = Record<string, unknown>;

/** Terraform prints description_kind on every block, described or not; the generator's JSON only on described ones. */
function withoutEmptyKinds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutEmptyKinds);
  if (!v || typeof v !== 'object') return v;
  const o = v as Obj;
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => !(k === 'description_kind' && o['description'] === undefined))
      .map(([k, x]) => [k, withoutEmptyKinds(x)]),
  );
}

async function get(url: string): Promise<{ status: number; body: Obj }> {
  const res = await fetch(url);
  const text = await res.text();
  // Errors (404) come as plain text.
  const json = res.ok && text ? (JSON.parse(text) as Obj) : {};
  return { status: res.status, body: json };
}

(TERRAFORM ? describe : describe.skip)('terraform with the cdktf-sched providers', () => {
  jest.setTimeout(90_000);
  let east: DevAgent;
  let west: DevAgent;
  let ws: Workspace;
  const first: Phase = {
    count: 2,
    appsDescription: 'applications',
    owner: 'ops',
    methodDescription: 'cluster',
  };
  const second: Phase = {
    count: 3,
    appsDescription: 'apps, changed',
    owner: 'dev',
    methodDescription: 'cluster, changed',
  };

  beforeAll(async () => {
    [east, west] = await Promise.all([
      startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01, datacenter: 'east' }),
      startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01, datacenter: 'west', nodes: 0 }),
    ]);
    ws = createWorkspace(TERRAFORM!);
    process.stderr.write(`test/e2e/terraform: ${terraformVersion(TERRAFORM!)}\n`);
  });

  afterAll(async () => {
    ws?.remove();
    await Promise.all([east?.stop(), west?.stop()]);
  });

  const job = () => get(`${east.schedulerUrl}/v1/job/web?namespace=apps`);

  test('init installs both providers from the mirror, offline, and locks them', async () => {
    ws.write(configuration(east, west, first));
    const { stdout } = await ws.run(['init', '-input=false', '-no-color']);
    expect(stdout).toMatch(/Installing cdktf-sched\/sched v0\.1\.0/);
    expect(stdout).toMatch(/Installing cdktf-sched\/reg v0\.1\.0/);
    expect(stdout).toContain('Terraform has been successfully initialized');
    const lock = readFileSync(`${ws.dir}/.terraform.lock.hcl`, 'utf8');
    expect(lock).toMatch(/provider "registry.terraform.io\/cdktf-sched\/sched" \{\s+version\s+= "0.1.0"/);
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/=]+"/);
    // A second init checks the installed providers against the lock file.
    await ws.run(['init', '-input=false', '-no-color']);
  });

  test('terraform sees the schema the constructs are generated from', async () => {
    const { stdout } = await ws.run(['providers', 'schema', '-json']);
    const expected = providersSchemaJson([schedProvider, regProvider]);
    expect(withoutEmptyKinds(JSON.parse(stdout))).toEqual(withoutEmptyKinds(expected));
  });

  test('plan, then apply the saved plan: everything created, the job waited for', async () => {
    const plan = await ws.run(['plan', '-input=false', '-no-color', '-out=tfplan']);
    expect(plan.stdout).toContain('Plan: 6 to add, 0 to change, 0 to destroy.');
    expect(plan.stdout).toMatch(/# sched_job.web will be created/);
    // The auth method's config and the peering token are sensitive.
    expect(plan.stdout).not.toContain(JWT);
    expect(plan.stdout).toMatch(/config\s+= \(sensitive value\)/);

    const apply = await ws.run(['apply', '-input=false', '-no-color', 'tfplan']);
    expect(apply.stdout).toContain('Apply complete! Resources: 6 added, 0 changed, 0 destroyed.');
    expect(apply.stdout + apply.stderr).not.toContain(JWT);
    expect(await ws.outputs()).toEqual({
      job_version: 0,
      deployment_status: 'successful',
      running: 2,
      peering_state: 'ACTIVE',
    });

    const { body } = await job();
    expect(body).toMatchObject({ ID: 'web', Namespace: 'apps', Version: 0, Status: 'running' });
    expect((await get(`${east.schedulerUrl}/v1/namespace/apps`)).body).toMatchObject({
      Description: 'applications',
    });
    expect((await get(`${east.registryUrl}/v1/namespace/team`)).body).toMatchObject({
      Meta: { owner: 'ops' },
    });
    expect((await get(`${east.registryUrl}/v1/acl/auth-method/k8s`)).body).toMatchObject({
      Description: 'cluster',
      NamespaceRules: [{ BindNamespace: 'team' }],
    });
    expect((await get(`${west.registryUrl}/v1/peering/east`)).body).toMatchObject({ State: 'ACTIVE' });
  });

  test('plan again: no changes', async () => {
    const { code, stdout } = await ws.run(['plan', '-input=false', '-no-color', '-detailed-exitcode'], [0]);
    expect(code).toBe(0);
    expect(stdout).toContain('No changes.');
  });

  test('a change updates in place and waits for the new deployment', async () => {
    ws.write(configuration(east, west, second));
    const { stdout } = await ws.run(['apply', '-input=false', '-no-color', '-auto-approve']);
    expect(stdout).toContain('Plan: 0 to add, 4 to change, 0 to destroy.');
    // The scheduler's dry run shows in the plan as a warning, one per job under one summary, so
    // Terraform folds a large plan's into one block.
    expect(stdout).toMatch(/Warning: Scheduler dry run\n/);
    expect(stdout).toMatch(/job "web"\ntask group "web": 1 to place/);
    expect(stdout).toContain('Apply complete! Resources: 0 added, 4 changed, 0 destroyed.');
    expect(await ws.outputs()).toMatchObject({ job_version: 1, deployment_status: 'successful', running: 3 });
    expect((await job()).body).toMatchObject({ Version: 1 });
    expect((await get(`${east.schedulerUrl}/v1/namespace/apps`)).body).toMatchObject({
      Description: 'apps, changed',
    });
    expect((await get(`${east.registryUrl}/v1/namespace/team`)).body).toMatchObject({
      Meta: { owner: 'dev' },
    });
    expect((await get(`${east.registryUrl}/v1/acl/auth-method/k8s`)).body).toMatchObject({
      Description: 'cluster, changed',
    });
  });

  test('import: every resource type, then no changes', async () => {
    await ws.run([
      'state',
      'rm',
      '-no-color',
      'sched_namespace.apps',
      'sched_job.web',
      'reg_namespace.team',
      'reg_acl_auth_method.k8s',
      'reg_peering.east',
    ]);
    ws.write(configuration(east, west, { ...second, imports: true }));
    const { stdout } = await ws.run(['apply', '-input=false', '-no-color', '-auto-approve']);
    expect(stdout).toMatch(/Plan: 6 to import, 0 to add, \d+ to change, 0 to destroy\./);
    expect(stdout).toMatch(/Apply complete! Resources: 6 imported, 0 added, \d+ changed, 0 destroyed\./);
    // Adopting the imported objects changed nothing on the cluster.
    expect((await job()).body).toMatchObject({ Version: 1 });
    const again = await ws.run(['plan', '-input=false', '-no-color', '-detailed-exitcode'], [0]);
    expect(again.stdout).toContain('No changes.');
  });

  test('destroy removes everything', async () => {
    const { stdout } = await ws.run(['destroy', '-input=false', '-no-color', '-auto-approve']);
    expect(stdout).toContain('Destroy complete! Resources: 7 destroyed.');
    expect((await job()).body).toMatchObject({ Stop: true });
    expect((await get(`${east.schedulerUrl}/v1/namespace/apps`)).status).toBe(404);
    expect((await get(`${east.registryUrl}/v1/namespace/team`)).status).toBe(404);
    expect((await get(`${east.registryUrl}/v1/acl/auth-method/k8s`)).status).toBe(404);
    const peering = await get(`${west.registryUrl}/v1/peering/east`);
    expect(peering.status === 404 || typeof peering.body['DeletedAt'] === 'string').toBe(true);
  });
});
