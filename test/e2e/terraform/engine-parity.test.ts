/**
 * One cdktf stack deployed twice: by our engine (`cdktf-sched deploy`) onto one dev agent, and by the
 * real terraform, in a copy of the synthesized cdktf.out/stacks/<stack>, onto another. Both must leave
 * the same objects on their cluster, after the first deploy and after a change. Skipped without a
 * terraform on PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, LocalBackend, TerraformOutput, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { startDevAgent, type DevAgent } from '../../../src/agent';
import {
  AuthMethod,
  Job,
  RegNamespace,
  RegProvider,
  SchedNamespace,
  SchedProvider,
} from '../../../constructs';
import { createWorkspace, engineRun, findTerraform, type Workspace } from './harness';

const TERRAFORM = findTerraform();

interface Settings {
  count: number;
  description: string;
}

class ParityStack extends TerraformStack {
  constructor(scope: Construct, id: string, s: Settings) {
    super(scope, id);
    new LocalBackend(this, { path: 'terraform.parity.tfstate' });
    // Addresses come from SCHED_ADDR and REG_HTTP_ADDR, so one synthesized stack serves both clusters.
    new SchedProvider(this, 'sched', {});
    new RegProvider(this, 'reg', {});
    const ns = new SchedNamespace(this, 'apps', { name: 'apps', description: s.description });
    const web = new Job(this, 'web', {
      spec: {
        ID: 'web',
        Namespace: ns.name,
        Type: 'service',
        Datacenters: ['dc1'],
        Meta: { owner: 'parity' },
        Update: {
          MaxParallel: 1,
          HealthCheck: 'task_states',
          MinHealthyTime: '1s',
          HealthyDeadline: '30s',
          ProgressDeadline: '1m',
        },
        TaskGroups: [
          {
            Name: 'web',
            Count: s.count,
            Tasks: [
              {
                Name: 'server',
                Driver: 'mock',
                Config: { run_for: '1h' },
                Resources: { CPU: 100, MemoryMB: 64 },
              },
            ],
          },
        ],
      },
    });
    const team = new RegNamespace(this, 'team', {
      name: 'team',
      description: s.description,
      meta: { a: 'b' },
    });
    new AuthMethod(this, 'k8s', {
      name: 'k8s',
      type: 'kubernetes',
      description: s.description,
      config: {
        Host: 'https://k8s.example:8443',
        CACert: '-----BEGIN CERTIFICATE-----\nMIIBdevca\n-----END CERTIFICATE-----',
        ServiceAccountJWT: 'eyJhbGciOiJSUzI1NiJ9.parity-jwt.c2lnbmF0dXJl',
      },
      namespaceRule: [{ selector: 'serviceaccount.namespace=="team"', bindNamespace: team.name }],
    });
    new TerraformOutput(this, 'job_version', { value: web.version });
  }
}

function synth(dir: string, s: Settings): string {
  const app = new App({ outdir: path.join(dir, 'cdktf.out') });
  new ParityStack(app, 'parity', s);
  app.synth();
  return path.join(dir, 'cdktf.out', 'stacks', 'parity', 'cdk.tf.json');
}

type Obj = Record<string, unknown>;

async function get(base: string, p: string): Promise<unknown> {
  const res = await fetch(`${base}${p}`);
  if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** What differs between two clusters for reasons other than the deploy: indexes, times, generated IDs. */
const VOLATILE = new Set(['CreateIndex', 'ModifyIndex', 'JobModifyIndex', 'SubmitTime', 'Hash']);

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, x]) => [k, stable(x)]),
    );
  }
  return v;
}

/** The objects a deploy of the stack manages, as the cluster has them. */
async function clusterView(agent: DevAgent): Promise<Obj> {
  const sched = agent.schedulerUrl;
  const reg = agent.registryUrl!;
  const job = (await get(sched, '/v1/job/web?namespace=apps')) as Obj;
  const allocs = (await get(sched, '/v1/job/web/allocations?namespace=apps')) as Obj[];
  const deployment = (await get(sched, '/v1/job/web/deployment?namespace=apps')) as Obj | null;
  return stable({
    schedNamespaces: await get(sched, '/v1/namespaces'),
    job,
    running: allocs.filter((a) => a['ClientStatus'] === 'running' && a['DesiredStatus'] === 'run').length,
    deployment: deployment && { Status: deployment['Status'], JobVersion: deployment['JobVersion'] },
    regNamespace: await get(reg, '/v1/namespace/team'),
    authMethod: await get(reg, '/v1/acl/auth-method/k8s'),
  }) as Obj;
}

(TERRAFORM ? describe : describe.skip)('our engine and terraform leave the same cluster', () => {
  jest.setTimeout(90_000);
  let engineAgent: DevAgent;
  let tfAgent: DevAgent;
  let project: string;
  let ws: Workspace;

  beforeAll(async () => {
    [engineAgent, tfAgent] = await Promise.all([
      startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 }),
      startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 }),
    ]);
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-sched-parity-'));
    fs.writeFileSync(
      path.join(project, 'cdktf.json'),
      JSON.stringify({ language: 'typescript', app: 'true' }),
    );
    ws = createWorkspace(TERRAFORM!);
    ws.env['SCHED_ADDR'] = tfAgent.schedulerUrl;
    ws.env['REG_HTTP_ADDR'] = tfAgent.registryUrl!;
  });

  afterAll(async () => {
    ws?.remove();
    if (project) fs.rmSync(project, { recursive: true, force: true });
    await Promise.all([engineAgent?.stop(), tfAgent?.stop()]);
  });

  async function engineDeploy(): Promise<void> {
    await engineRun(project, ['deploy', '--no-synth', '--auto-approve'], engineAgent);
  }

  async function terraformDeploy(stackFile: string, init: boolean): Promise<string> {
    fs.copyFileSync(stackFile, path.join(ws.dir, 'cdk.tf.json'));
    if (init) await ws.run(['init', '-input=false', '-no-color']);
    const { stdout } = await ws.run(['apply', '-input=false', '-no-color', '-auto-approve']);
    return stdout;
  }

  test('first deploy', async () => {
    const stackFile = synth(project, { count: 2, description: 'first' });
    const [, tfOut] = await Promise.all([engineDeploy(), terraformDeploy(stackFile, true)]);
    expect(tfOut).toContain('Apply complete! Resources: 4 added, 0 changed, 0 destroyed.');
    const [ours, theirs] = await Promise.all([clusterView(engineAgent), clusterView(tfAgent)]);
    expect(ours).toMatchObject({ running: 2, deployment: { Status: 'successful', JobVersion: 0 } });
    expect(theirs).toEqual(ours);
  });

  test('a change', async () => {
    const stackFile = synth(project, { count: 3, description: 'second' });
    const [, tfOut] = await Promise.all([engineDeploy(), terraformDeploy(stackFile, false)]);
    expect(tfOut).toContain('Apply complete! Resources: 0 added, 4 changed, 0 destroyed.');
    const [ours, theirs] = await Promise.all([clusterView(engineAgent), clusterView(tfAgent)]);
    expect(ours).toMatchObject({ running: 3, deployment: { Status: 'successful', JobVersion: 1 } });
    expect((ours['job'] as Obj)['Version']).toBe(1);
    expect(theirs).toEqual(ours);
  });
});
