/**
 * A policy-style reader over our plan JSON, as conftest/OPA or tf-summarize read Terraform's: small
 * jq-like path queries with assertions, over `plan --format json` and `show --json PLANFILE`. And a
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
