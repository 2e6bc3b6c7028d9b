/**
 * Our plan JSON against terraform's, for one cdk.tf.json: `terraform plan -out` + `terraform show -json`
 * (with our plugins, against one dev agent) and `cdktf-sched plan --format json` (against another), after
 * the same deploy and the same change made outside the configuration. The sections policy tools read
 * (configuration, relevant_attributes, resource_drift, checks) must have terraform's keys and shapes.
 * Skipped without a terraform on PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { SchedClient } from '../../../src/api/sched/client';
import { createWorkspace, engineRun, findTerraform, type Workspace } from './harness';

const TERRAFORM = findTerraform();
if (!TERRAFORM) process.stderr.write('plan-json-parity: no terraform on PATH, comparison skipped\n');

export const PARITY_SECRET = 'parity-canary-7f3a9c';

/** `changed`: the configuration planned after the deploy, where `other` reads two of team's attributes. */
function stack(changed = false): Record<string, unknown> {
  return {
    terraform: {
      required_providers: { sched: { source: 'cdktf-sched/sched' } },
      backend: { local: { path: 'terraform.tfstate' } },
    },
    provider: { sched: [{}] },
    variable: {
      team: {
        type: 'string',
        default: 'parity-team',
        description: 'the team namespace',
        validation: [{ condition: '${length(var.team) > 3}', error_message: 'team: at least 4 characters' }],
      },
      token: { type: 'string', default: PARITY_SECRET, sensitive: true },
    },
    resource: {
      sched_namespace: {
        team: { name: '${var.team}', description: 'v1', meta: { owner: 'parity', token: '${var.token}' } },
        other: {
          name: 'parity-other',
          description: '${sched_namespace.team.description}',
          depends_on: ['sched_namespace.team'],
          lifecycle: {
            precondition: [{ condition: '${length(var.team) > 0}', error_message: 'a team is needed' }],
          },
          ...(changed ? { meta: { team: '${sched_namespace.team.id}' } } : {}),
        },
      },
    },
    output: {
      team_name: { value: '${sched_namespace.team.name}', description: 'the team' },
      token: { value: '${var.token}', sensitive: true },
    },
  };
}

type Obj = Record<string, unknown>;

/** terraform's value with what its sensitivity tree marks replaced by null, as our JSON writes it. */
function masked(value: unknown, marks: unknown): unknown {
  if (marks === true) return null;
  if (Array.isArray(value)) return value.map((v, i) => masked(v, (marks as unknown[] | undefined)?.[i]));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, masked(v, (marks as Obj | undefined)?.[k])]),
    );
  return value;
}

function maskedChange(rc: Obj): Obj {
  const change = rc['change'] as Obj;
  return {
    ...rc,
    change: {
      ...change,
      before: masked(change['before'], change['before_sensitive']),
      after: masked(change['after'], change['after_sensitive']),
    },
  };
}

(TERRAFORM ? describe : describe.skip)('plan JSON: our engine and terraform', () => {
  jest.setTimeout(120_000);
  let ours: DevAgent;
  let theirs: DevAgent;
  let project: string;
  let ws: Workspace;
  let tfDoc: Obj;
  let ourDoc: Obj;

  beforeAll(async () => {
    [ours, theirs] = await Promise.all([
      startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 }),
      startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01 }),
    ]);
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-sched-planjson-'));
    const stackDir = path.join(project, 'cdktf.out', 'stacks', 'parity');
    fs.mkdirSync(stackDir, { recursive: true });
    fs.writeFileSync(
      path.join(project, 'cdktf.json'),
      JSON.stringify({ language: 'typescript', app: 'true' }),
    );
    fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify(stack()));
    const entry = {
      name: 'parity',
      synthesizedStackPath: 'stacks/parity/cdk.tf.json',
      workingDirectory: 'stacks/parity',
      dependencies: [],
    };
    fs.writeFileSync(
      path.join(project, 'cdktf.out', 'manifest.json'),
      JSON.stringify({ version: '0.21.0', stacks: { parity: entry } }),
    );
    ws = createWorkspace(TERRAFORM!);
    ws.env['SCHED_ADDR'] = theirs.schedulerUrl;
    fs.writeFileSync(path.join(ws.dir, 'cdk.tf.json'), JSON.stringify(stack()));
    await ws.run(['init', '-input=false', '-no-color']);
    await Promise.all([
      ws.run(['apply', '-input=false', '-no-color', '-auto-approve']),
      engineRun(project, ['deploy', '--no-synth', '--auto-approve'], { schedulerUrl: ours.schedulerUrl }),
    ]);
    // The same edit by hand on both clusters: drift.
    await Promise.all(
      [ours, theirs].map(async (a) => {
        const client = new SchedClient({ address: a.schedulerUrl, env: {}, retries: { max: 0 } });
        await client.namespaces.upsert({ Name: 'parity-team', Description: 'edited by hand' });
        await client.close();
      }),
    );
    fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify(stack(true)));
    fs.writeFileSync(path.join(ws.dir, 'cdk.tf.json'), JSON.stringify(stack(true)));
    await ws.run(['plan', '-input=false', '-no-color', '-out', 'tf.plan'], [0]);
    tfDoc = JSON.parse((await ws.run(['show', '-json', 'tf.plan'])).stdout) as Obj;
    const out = await engineRun(project, ['plan', '--no-synth', '--format', 'json'], {
      schedulerUrl: ours.schedulerUrl,
    });
    ourDoc = JSON.parse(out) as Obj;
  });

  afterAll(async () => {
    ws?.remove();
    if (project) fs.rmSync(project, { recursive: true, force: true });
    await Promise.all([ours?.stop(), theirs?.stop()]);
  });

  test('the same top-level keys, and no secret in ours', () => {
    const theirs = Object.keys(tfDoc);
    expect(Object.keys(ourDoc)).toEqual(expect.arrayContaining(theirs));
    expect(theirs).toEqual(
      expect.arrayContaining(['configuration', 'relevant_attributes', 'resource_drift', 'checks']),
    );
    expect(JSON.stringify(ourDoc)).not.toContain(PARITY_SECRET);
    // variables: terraform's, the sensitive one's value nulled.
    expect(tfDoc['variables']).toEqual({ team: { value: 'parity-team' }, token: { value: PARITY_SECRET } });
    expect(ourDoc['variables']).toEqual({ team: { value: 'parity-team' }, token: { value: null } });
  });

  test('configuration: as terraform writes it, less the default of the sensitive variable', () => {
    const expected = structuredClone(tfDoc['configuration']) as {
      root_module: { variables: Record<string, Obj> };
    };
    expect(expected.root_module.variables['token']!['default']).toBe(PARITY_SECRET);
    delete expected.root_module.variables['token']!['default'];
    expect(ourDoc['configuration']).toEqual(expected);
  });

  test('resource_drift: as terraform writes it, sensitive values nulled', () => {
    const drift = tfDoc['resource_drift'] as Obj[];
    expect(drift.map((d) => d['address'])).toEqual(['sched_namespace.team']);
    expect(ourDoc['resource_drift']).toEqual(drift.map(maskedChange));
  });

  test('relevant_attributes and checks: exactly as terraform writes them', () => {
    expect(tfDoc['relevant_attributes']).toEqual([
      { resource: 'sched_namespace.team', attribute: ['description'] },
      { resource: 'sched_namespace.team', attribute: ['id'] },
    ]);
    expect(ourDoc['relevant_attributes']).toEqual(tfDoc['relevant_attributes']);
    expect((tfDoc['checks'] as Obj[]).length).toBe(2);
    expect(ourDoc['checks']).toEqual(tfDoc['checks']);
  });

  test('resource_changes and output_changes: as terraform writes them, sensitive values nulled', () => {
    expect(ourDoc['resource_changes']).toEqual((tfDoc['resource_changes'] as Obj[]).map(maskedChange));
    const outputs = tfDoc['output_changes'] as Record<string, Obj>;
    const token = outputs['token']!;
    expect(ourDoc['output_changes']).toEqual({ ...outputs, token: { ...token, before: null, after: null } });
  });
});
