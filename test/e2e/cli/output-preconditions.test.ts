/**
 * An output's preconditions, as terraform runs them: checked at plan when their values are known (a
 * failure stops the plan with its message and shows in the plan JSON's checks as an `output_value`),
 * deferred when unknown, and checked again at apply, where a failure fails the deploy and the output
 * is not written.
 */
import { createProject, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

const stack = (condition: string): Record<string, unknown> =>
  stackJson({
    resource: {
      sched_namespace: { team: withPath('app', 'team', { name: 'team-out', description: 'ours' }) },
    },
    output: {
      team: {
        value: '${sched_namespace.team.name}',
        precondition: [{ condition, error_message: 'the team namespace is not the expected one' }],
      },
    },
  });

interface CheckJson {
  address: { kind: string; to_display: string };
  status: string;
  instances: { problems?: { message: string }[] }[];
}

async function outputCheck(): Promise<{ code: number; check: CheckJson | undefined }> {
  const r = await p.cli(['plan', '--no-synth', '--format', 'json']);
  const doc = JSON.parse(r.stdout.trim().split('\n')[0]!) as { checks?: CheckJson[] };
  return { code: r.code, check: doc.checks?.find((c) => c.address.to_display === 'output.team') };
}

test('a known failing precondition fails the plan with its message, before anything changes', async () => {
  p.writeStack('app', stack('${sched_namespace.team.description == "theirs"}'));
  const plan = await p.cli(['plan', '--no-synth']);
  expect(plan.code).toBe(1);
  expect(plan.stdout + plan.stderr).toContain('the team namespace is not the expected one');
  const { check } = await outputCheck();
  expect(check?.address.kind).toBe('output_value');
  expect(check?.status).toBe('fail');
  expect(check?.instances[0]?.problems?.[0]?.message).toBe('the team namespace is not the expected one');

  const deploy = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(deploy.code).toBe(1);
  const state = await p.cli(['state', 'list']);
  expect(state.stdout).not.toContain('sched_namespace.team');
});

test('an unknown precondition waits for the apply, where it fails the deploy and the output is not written', async () => {
  p.writeStack('app', stack('${timestamp() == "never" && sched_namespace.team.name != ""}'));
  const { code, check } = await outputCheck();
  expect(code).toBe(0);
  expect(check?.status).toBe('unknown');

  const deploy = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(deploy.code).toBe(1);
  expect(deploy.stdout + deploy.stderr).toContain('the team namespace is not the expected one');
  const out = await p.cli(['output', '--json']);
  expect(out.stdout).not.toContain('team-out');
});

test('a holding precondition passes at plan and writes the output at apply', async () => {
  p.writeStack('app', stack('${sched_namespace.team.description == "ours"}'));
  const { check } = await outputCheck();
  expect(check?.status).toBe('pass');
  const deploy = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(deploy.code).toBe(0);
  const out = await p.cli(['output', '--json']);
  expect(out.stdout).toContain('team-out');
});
