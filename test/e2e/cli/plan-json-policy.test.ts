/**
 * A policy-style reader over our plan JSON, as conftest/OPA or tf-summarize read Terraform's: small
 * jq-like path queries with assertions, over `plan --format json` and `show --json PLANFILE`, for every
 * key such readers use (prior_state, configuration, relevant_attributes, timestamp, output_changes,
 * resource_drift, checks) and for several stacks (one document each, naming its stack). And a
 * saved plan given to the real `terraform show -json` is refused loudly (exit 1), not read as an
 * empty state (skipped with a message when terraform is not on PATH).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createProject, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

type Doc = Record<string, unknown>;

/** `.a.b[0].c` -> the value there (undefined where the path leaves the document), like jq. */
function q(doc: unknown, query: string): unknown {
  const steps = query.match(/\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]/g) ?? [];
  let cur = doc;
  for (const s of steps) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = s.startsWith('[') ? (cur as unknown[])[Number(s.slice(1, -1))] : (cur as Doc)[s.slice(1)];
  }
  return cur;
}

/** `[.resource_changes[] | select(.address == A)]` */
function changeOf(doc: Doc, address: string): Doc | undefined {
  return (q(doc, '.resource_changes') as Doc[]).find((rc) => rc['address'] === address);
}

function config(description: string): Record<string, unknown> {
  return stackJson({
    resource: { sched_namespace: { team: withPath('app', 'team', { name: 'pol-team', description }) } },
    output: { team_name: { value: '${sched_namespace.team.name}' } },
  });
}

test('policy checks over the plan JSON: format, versions, timestamp, prior_state, changes, output_changes, stack', async () => {
  p.writeStack('app', config('v1'));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  p.writeStack('app', config('v2'));
  const r = await p.cli(['plan', '--no-synth', '--format', 'json']);
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout) as Doc;

  expect(q(doc, '.format_version')).toBe('1.2');
  expect(q(doc, '.terraform_version')).toMatch(/^\d+\.\d+\.\d+/);
  expect(Date.parse(q(doc, '.timestamp') as string)).not.toBeNaN();
  expect(q(doc, '.applyable')).toBe(true);
  expect(q(doc, '.errored')).toBe(false);
  expect(q(doc, '.cdktf_sched.stack')).toBe('app');

  // deny[msg] { rc := input.resource_changes[_]; rc.change.actions[_] == "delete" }: nothing to deny.
  const team = changeOf(doc, 'sched_namespace.team')!;
  expect(q(team, '.change.actions')).toEqual(['update']);
  expect(q(team, '.change.before.description')).toBe('v1');
  expect(q(team, '.change.after.description')).toBe('v2');
  expect(q(team, '.provider_name')).toBe('registry.terraform.io/cdktf-sched/sched');

  // prior_state: what the plan was made against (the deployed v1).
  const prior = (q(doc, '.prior_state.values.root_module.resources') as Doc[]).find(
    (x) => x['address'] === 'sched_namespace.team',
  );
  expect(q(prior, '.values.description')).toBe('v1');
  expect(q(doc, '.prior_state.values.outputs.team_name.value')).toBe('pol-team');

  expect(q(doc, '.output_changes.team_name.actions')).toEqual(['no-op']);
  expect(q(doc, '.planned_values.root_module.resources[0].values.description')).toBe('v2');

  // configuration: what was written, with the references policies follow.
  const written = (q(doc, '.configuration.root_module.resources') as Doc[])[0]!;
  expect(written).toMatchObject({ address: 'sched_namespace.team', provider_config_key: 'sched' });
  expect(q(written, '.expressions.description.constant_value')).toBe('v2');
  expect(q(doc, '.configuration.root_module.outputs.team_name.expression.references')).toEqual([
    'sched_namespace.team.name',
    'sched_namespace.team',
  ]);
  expect(q(doc, '.configuration.provider_config.sched.full_name')).toBe(
    'registry.terraform.io/cdktf-sched/sched',
  );
  // Nothing drifted, nothing read drifted, nothing checkable: terraform leaves the keys out.
  expect(doc).not.toHaveProperty('resource_drift');
  expect(doc).not.toHaveProperty('relevant_attributes');
  expect(doc).not.toHaveProperty('checks');
});

test('a saved plan: show --json prints the plan JSON; terraform show -json refuses the file', async () => {
  p.writeStack('app', config('v3'));
  const file = path.join(p.dir, 'pol.plan');
  expect((await p.cli(['plan', '--no-synth', '--out', file])).code).toBe(0);

  const shown = await p.cli(['show', file, '--json']);
  expect(shown.code).toBe(0);
  const doc = JSON.parse(shown.stdout) as Doc;
  expect(q(changeOf(doc, 'sched_namespace.team'), '.change.after.description')).toBe('v3');
  expect(q(doc, '.cdktf_sched.stack')).toBe('app');
  const text = await p.cli(['show', file]);
  expect(text.stdout).toContain('# sched_namespace.team will be updated in-place');

  const tf = spawnSync('terraform', ['show', '-json', file], {
    env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' },
    encoding: 'utf8',
  });
  if (tf.error) {
    console.warn(`terraform not on PATH (${tf.error.message}): terraform show -json check skipped`);
    return;
  }
  expect(tf.status).toBe(1);
  expect(tf.stdout).not.toContain('"format_version"');
  expect(tf.stderr).toContain("couldn't load the provided path as either a local plan");
});

const SECRET = 'pol-canary-5d1e';

/** A stack with a checked variable, a secret, two namespaces (one reading the other) and a third to lose. */
function driftConfig(otherMeta: Record<string, string>): Record<string, unknown> {
  return stackJson({
    variable: {
      team: {
        type: 'string',
        default: 'drift-team',
        validation: [{ condition: '${length(var.team) > 3}', error_message: 'team: at least 4 characters' }],
      },
      token: { type: 'string', default: SECRET, sensitive: true },
    },
    resource: {
      sched_namespace: {
        team: { name: '${var.team}', description: 'v1', meta: { token: '${var.token}' } },
        other: {
          name: 'drift-other',
          description: '${sched_namespace.team.description}',
          meta: otherMeta,
          lifecycle: {
            precondition: [
              { condition: '${var.team != "blocked-team"}', error_message: 'that team is blocked' },
            ],
          },
        },
        lost: { name: 'drift-lost' },
      },
    },
    output: { team_name: { value: '${sched_namespace.team.name}' } },
  });
}

function documents(stdout: string): Doc[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Doc);
}

function driftOf(doc: Doc, address: string): Doc | undefined {
  return ((q(doc, '.resource_drift') as Doc[] | undefined) ?? []).find((d) => d['address'] === address);
}

/** The policy: drift, what the changes read of it, and the checks, as a reviewer's rules would ask. */
function expectDriftPolicy(doc: Doc): void {
  // deny[msg] { d := input.resource_drift[_]; d.change.actions[_] == "update" }
  const team = driftOf(doc, 'sched_namespace.team')!;
  expect(q(team, '.change.actions')).toEqual(['update']);
  expect(q(team, '.change.before.description')).toBe('v1');
  expect(q(team, '.change.after.description')).toBe('edited by hand');
  expect(q(team, '.change.before_sensitive.meta.token')).toBe(true);
  expect(q(team, '.change.before.meta.token')).toBeNull();
  expect(q(driftOf(doc, 'sched_namespace.lost'), '.change.actions')).toEqual(['delete']);
  expect(q(driftOf(doc, 'sched_namespace.lost'), '.change.after')).toBeNull();
  expect(driftOf(doc, 'sched_namespace.other')).toBeUndefined();

  // The change to `other` reads team's description and id: terraform's relevant_attributes.
  expect(q(doc, '.relevant_attributes')).toEqual([
    { resource: 'sched_namespace.team', attribute: ['description'] },
    { resource: 'sched_namespace.team', attribute: ['id'] },
  ]);
  expect(q(doc, '.checks')).toEqual([
    {
      address: {
        kind: 'resource',
        mode: 'managed',
        type: 'sched_namespace',
        name: 'other',
        to_display: 'sched_namespace.other',
      },
      status: 'pass',
      instances: [{ address: { to_display: 'sched_namespace.other' }, status: 'pass' }],
    },
    {
      address: { kind: 'var', name: 'team', to_display: 'var.team' },
      status: 'pass',
      instances: [{ address: { to_display: 'var.team' }, status: 'pass' }],
    },
  ]);
  expect(q(doc, '.configuration.root_module.variables.token')).toEqual({ sensitive: true });
  expect(q(doc, '.variables')).toEqual({ team: { value: 'drift-team' }, token: { value: null } });
  expect(q(doc, '.configuration.root_module.variables.team.default')).toBe('drift-team');
  expect(JSON.stringify(doc)).not.toContain(SECRET);
}

test('drift made through the agent: resource_drift, relevant_attributes and checks, also from a saved plan', async () => {
  p.writeStack('app', driftConfig({}));
  expect((await p.cli(['deploy', '--no-synth', '--auto-approve'])).code).toBe(0);
  await p.agent.sched.namespaces.upsert({ Name: 'drift-team', Description: 'edited by hand' });
  await p.agent.sched.namespaces.delete('drift-lost');
  p.writeStack('app', driftConfig({ team: '${sched_namespace.team.id}' }));

  const r = await p.cli(['plan', '--no-synth', '--format', 'json']);
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout) as Doc;
  expectDriftPolicy(doc);
  expect(Date.parse(q(doc, '.timestamp') as string)).not.toBeNaN();

  const file = path.join(p.dir, 'drift.plan');
  expect((await p.cli(['plan', '--no-synth', '--out', file])).code).toBe(0);
  const shown = await p.cli(['show', file, '--json']);
  expect(shown.code).toBe(0);
  const saved = JSON.parse(shown.stdout) as Doc;
  expectDriftPolicy(saved);
  for (const key of ['prior_state', 'configuration', 'timestamp', 'output_changes', 'resource_changes'])
    expect(saved).toHaveProperty(key);
  const prior = (q(saved, '.prior_state.values.root_module.resources') as Doc[]).map((x) => x['address']);
  expect(prior).toEqual(expect.arrayContaining(['sched_namespace.team', 'sched_namespace.lost']));
  expect(q(saved, '.output_changes.team_name.actions')).toEqual(['no-op']);
});

test('a failing validation or precondition: the plan errs, its JSON says which check failed and why', async () => {
  p.writeStack('app', driftConfig({}));
  const r = await p.cli(['plan', '--no-synth', '--format', 'json', '--var', 'team=ab']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Invalid value for variable: team: at least 4 characters');
  const doc = JSON.parse(r.stdout) as Doc;
  expect(q(doc, '.errored')).toBe(true);
  expect(q(doc, '.applyable')).toBe(false);
  // deny[msg] { c := input.checks[_]; c.status == "fail"; msg := c.instances[_].problems[_].message }
  const failed = (q(doc, '.checks') as Doc[]).filter((c) => c['status'] === 'fail');
  expect(failed.map((c) => q(c, '.address.to_display'))).toEqual(['var.team']);
  expect(q(failed[0], '.instances[0].problems')).toEqual([{ message: 'team: at least 4 characters' }]);
  expect(q(doc, '.configuration.root_module.variables.team.default')).toBe('drift-team');

  // A valid value that a resource's precondition refuses: the resource's check fails.
  const blocked = await p.cli(['plan', '--no-synth', '--format', 'json', '--var', 'team=blocked-team']);
  expect(blocked.code).toBe(1);
  const refused = JSON.parse(blocked.stdout) as Doc;
  const byStatus = (q(refused, '.checks') as Doc[]).map((c) => [q(c, '.address.to_display'), c['status']]);
  expect(byStatus).toEqual([
    ['sched_namespace.other', 'fail'],
    ['var.team', 'pass'],
  ]);
  expect(q((q(refused, '.checks') as Doc[])[0], '.instances[0].problems')).toEqual([
    { message: 'that team is blocked' },
  ]);
});

test('several stacks: one document per stack, each naming it, each with its own prior_state', async () => {
  p.writeStack('app', config('multi'));
  p.writeStack('side', stackJson({ resource: { sched_namespace: { side: { name: 'pol-side' } } } }));
  const r = await p.cli(['plan', '--no-synth', '--format', 'json']);
  expect(r.code).toBe(0);
  const docs = documents(r.stdout);
  expect(docs.map((d) => q(d, '.cdktf_sched.stack'))).toEqual(['app', 'side']);
  for (const d of docs) {
    expect(q(d, '.format_version')).toBe('1.2');
    expect(d).toHaveProperty('prior_state');
    expect(d).toHaveProperty('configuration');
  }
  expect(q(docs[1], '.configuration.root_module.resources[0].address')).toBe('sched_namespace.side');
  expect(q(changeOf(docs[1]!, 'sched_namespace.side'), '.change.actions')).toEqual(['create']);
});
