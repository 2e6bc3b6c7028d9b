/**
 * One state file used by both engines: a stack whose optional arguments are left unset, deployed by
 * our engine then planned by the real terraform (and the reverse), must plan no changes either way.
 * Terraform records an unset optional argument as null; the engine used to record "" (or {}), which
 * terraform then planned to change back to null. A state written that way is upgraded when the engine
 * next deploys. Skipped without a terraform on PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { startDevAgent, type DevAgent } from '../../../src/agent';
import {
  AuthMethod,
  Job,
  PeeringToken,
  RegNamespace,
  RegProvider,
  SchedNamespace,
  SchedProvider,
} from '../../../constructs';
import type { StateJson } from '../cli/helpers';
import { createWorkspace, engineRun, findTerraform, type Workspace } from './harness';

const TERRAFORM = findTerraform();

/** Every resource type with only its required arguments (the job's spec is required). */
function synth(project: string, statePath: string): string {
  const app = new App({ outdir: path.join(project, 'cdktf.out') });
  const stack = new TerraformStack(app, 'interop');
  new LocalBackend(stack, { path: statePath });
  new SchedProvider(stack, 'sched', {});
  new RegProvider(stack, 'reg', {});
  new SchedNamespace(stack, 'apps', { name: 'apps' });
  new Job(stack, 'batch', {
    spec: {
      ID: 'batch',
      Type: 'batch',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1s' } }] }],
    },
  });
  new RegNamespace(stack, 'team', { name: 'team' });
  new AuthMethod(stack, 'k8s', {
    name: 'k8s',
    type: 'kubernetes',
    config: {
      Host: 'https://k8s.example:8443',
      CACert: '-----BEGIN CERTIFICATE-----\nMIIBdevca\n-----END CERTIFICATE-----',
      ServiceAccountJWT: 'eyJhbGciOiJSUzI1NiJ9.interop-jwt.c2lnbmF0dXJl',
    },
  });
  new PeeringToken(stack, 'token', { peerName: 'other' });
  app.synth();
  return path.join(project, 'cdktf.out', 'stacks', 'interop', 'cdk.tf.json');
}

(TERRAFORM ? describe : describe.skip)('unset optional arguments: one state, both engines', () => {
  // Generous for a loaded machine: each terraform run starts both plugins.
  jest.setTimeout(120_000);
  let agent: DevAgent;
  let project: string;
  let statePath: string;
  let ws: Workspace;

  beforeAll(async () => {
    agent = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 });
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-sched-interop-'));
    fs.writeFileSync(
      path.join(project, 'cdktf.json'),
      JSON.stringify({ language: 'typescript', app: 'true' }),
    );
    statePath = path.join(project, 'terraform.interop.tfstate');
    const stackFile = synth(project, statePath);
    ws = createWorkspace(TERRAFORM!);
    ws.env['SCHED_ADDR'] = agent.schedulerUrl;
    ws.env['REG_HTTP_ADDR'] = agent.registryUrl!;
    fs.copyFileSync(stackFile, path.join(ws.dir, 'cdk.tf.json'));
    await ws.run(['init', '-input=false', '-no-color']);
  });

  afterAll(async () => {
    ws?.remove();
    if (project) fs.rmSync(project, { recursive: true, force: true });
    await agent?.stop();
  });

  const engine = (argv: string[]): Promise<string> => engineRun(project, [...argv, '--no-synth'], agent);

  /** terraform plan -detailed-exitcode: 0 when it plans no changes (its output otherwise, for the failure). */
  async function terraformPlan(): Promise<{ code: number | null; stdout: string }> {
    return ws.run(['plan', '-input=false', '-no-color', '-detailed-exitcode'], [0, 2]);
  }

  test('deployed by our engine: terraform plans no changes', async () => {
    await engine(['deploy', '--auto-approve']);
    const state = JSON.parse(fs.readFileSync(statePath, 'utf8')) as StateJson;
    const ns = state.resources.find((r) => r.type === 'sched_namespace')!.instances[0]!.attributes;
    expect(ns['description']).toBeNull();
    const plan = await terraformPlan();
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  test('applied again by terraform: our engine plans no changes', async () => {
    await ws.run(['apply', '-input=false', '-no-color', '-auto-approve', '-refresh-only']);
    await engine(['plan', '--detailed-exitcode']);
  });

  test('a state written with "" for unset arguments plans no changes under either engine after an engine deploy', async () => {
    const state = JSON.parse(fs.readFileSync(statePath, 'utf8')) as StateJson;
    // What the engine wrote before: "" for the unset descriptions.
    for (const r of state.resources) {
      const a = r.instances[0]!.attributes;
      if ('description' in a && a['description'] === null) a['description'] = '';
    }
    state.serial += 1;
    fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
    const before = await terraformPlan();
    // The control: terraform plans to change "" to null (an update it shows with nothing in it).
    expect(before.code).toBe(2);
    expect(before.stdout).toContain('Plan: 0 to add, 3 to change, 0 to destroy.');
    await engine(['deploy', '--auto-approve']);
    const after = await terraformPlan();
    expect(after.stdout).toContain('No changes.');
  });
});
