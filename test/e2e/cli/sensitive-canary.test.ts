/**
 * Canary values in every place a secret can come from (sensitive variables inside a jobspec's Env,
 * its Datacenters, a namespace's meta; an auth method's config; a peering token; the provider token;
 * a server that echoes a secret in its error; a task's start_error), then every output a user or a
 * CI log sees is scanned for them: plan text, JSON and Markdown (create, update, no-change,
 * destroy), deploy, destroy, state show, output, errors, and the agent's log. The state file may
 * hold them, as Terraform's does; that they got there shows the canaries were really used.
 */
import { readFileSync } from 'node:fs';
import { createProject, withPath, type CliRun, type Project } from './helpers';

const CANARY = {
  apiKey: 'cnry-apikey-5d81c2e7',
  apiKeyNext: 'cnry-apikey-next-93b0aa41',
  metaOwner: 'cnry-owner-1f6e77d0',
  datacenter: 'cnry-dc-44a9be12',
  jwt: 'cnry-jwt-eyJhbGciOiJSUzI1NiJ9.c2VjcmV0',
  schedToken: 'cnry-schedtoken-0b7c3d5e',
  echoed: 'cnry-echo-6a2f90c4',
  startError: 'cnry-starterr-e18d4b6a',
  refused: 'cnry-refused-7e21c9f0',
};

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBdummy\n-----END CERTIFICATE-----\n';

const agentLog: string[] = [];
const seen: { what: string; text: string }[] = [];
let p: Project;

beforeAll(async () => {
  p = await createProject({ agent: { log: (line: string) => void agentLog.push(line) } });
  p.env['SCHED_TOKEN'] = CANARY.schedToken;
});
afterAll(async () => p.close());

/** Runs the CLI and keeps everything it printed for the scans. */
async function cli(what: string, args: string[]): Promise<CliRun> {
  const r = await p.cli(args);
  seen.push({ what, text: `${r.stdout}\n${r.stderr}` });
  return r;
}

/** The JSON document a plan printed (its stdout: the document, then a blank line). */
function textOf(what: string): string {
  return seen.find((x) => x.what === what)!.text.split('\n\n')[0]!;
}

function expectClean(secrets: string[]): void {
  for (const { what, text } of [...seen, { what: 'agent log', text: agentLog.join('\n') }]) {
    for (const s of secrets) {
      if (text.includes(s)) throw new Error(`${what} shows the secret ${s}:\n${text}`);
    }
  }
}

function jobspec(id: string, task: Record<string, unknown>, datacenters: string[]): string {
  return JSON.stringify({
    ID: id,
    Namespace: 'apps',
    Type: 'service',
    Datacenters: datacenters,
    TaskGroups: [
      {
        Name: 'g',
        Count: 1,
        Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 100, MemoryMB: 64 }, ...task }],
      },
    ],
  });
}

const variable = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'string',
  sensitive: true,
  ...extra,
});

/** The stack: every secret-bearing place at once; `failing` adds the two that make a deploy fail. */
function stack(opts: { failing?: boolean; leakyOutput?: boolean } = {}): Record<string, unknown> {
  const resource: Record<string, Record<string, unknown>> = {
    sched_namespace: {
      apps: withPath('app', 'apps', { name: 'apps', meta: { owner: '${var.meta_owner}' } }),
    },
    sched_job: {
      web: withPath('app', 'web', {
        depends_on: ['sched_namespace.apps'],
        jobspec: jobspec('web', { Config: { image: 'v1' }, Env: { API_KEY: '${var.api_key}' } }, [
          'dc1',
          '${var.datacenter}',
        ]),
      }),
    },
    reg_acl_auth_method: {
      k8s: withPath('app', 'k8s', {
        name: 'k8s',
        type: 'kubernetes',
        config: JSON.stringify({
          Host: 'https://k8s.example:8443',
          CACert: PEM,
          ServiceAccountJWT: CANARY.jwt,
        }),
      }),
    },
    reg_peering_token: { west: withPath('app', 'west', { peer_name: 'west' }) },
  };
  if (opts.failing) {
    resource['sched_job']!['broken'] = withPath('app', 'broken', {
      depends_on: ['sched_namespace.apps'],
      jobspec: jobspec('broken', { Config: { image: 'v1', start_error: '${var.start_error}' } }, ['dc1']),
    });
    resource['reg_acl_auth_method']!['echo'] = withPath('app', 'echo', {
      name: 'echo',
      type: 'kubernetes',
      config: JSON.stringify({ Host: 'https://k8s.example:8443', CACert: PEM, ServiceAccountJWT: 'y' }),
      namespace_rule: [{ selector: '', bind_namespace: 'k8s "${var.echoed}" $${' }],
    });
  }
  return {
    '//': { metadata: { backend: 'local', stackName: 'app', version: '0.21.0' } },
    provider: { sched: [{}], reg: [{}] },
    terraform: {
      required_providers: { sched: { source: 'cdktf-sched/sched' }, reg: { source: 'cdktf-sched/reg' } },
    },
    variable: {
      // A failed rule would print the value in its message; the plan JSON's checks must not.
      api_key: variable({
        validation: [
          {
            condition: '${!startswith(var.api_key, "cnry-refused")}',
            error_message: 'api_key ${var.api_key} is refused',
          },
        ],
      }),
      meta_owner: variable({ default: CANARY.metaOwner }),
      datacenter: variable({ default: CANARY.datacenter }),
      start_error: variable({ default: CANARY.startError }),
      echoed: variable({ default: CANARY.echoed }),
    },
    resource,
    output: {
      api_key: { value: '${var.api_key}', sensitive: true },
      ...(opts.leakyOutput ? { leaky: { value: 'key=${upper(var.api_key)}' } } : {}),
    },
  };
}

/** `plan` with these arguments in text, JSON and Markdown, each ending with `code`. */
async function planInEveryFormat(what: string, args: string[], code: number): Promise<void> {
  for (const format of ['text', 'json', 'markdown']) {
    const r = await cli(`${what} --format ${format}`, ['plan', '--no-synth', '--format', format, ...args]);
    expect(r.code).toBe(code);
  }
}

test('no canary reaches any output of plan, deploy, destroy, state show, output, errors or the agent log', async () => {
  p.writeStack('app', stack());
  const key = (v: string): string[] => ['--var', `api_key=${v}`];

  await planInEveryFormat('plan', [...key(CANARY.apiKey)], 0);
  const json = JSON.parse(seen[1]!.text.split('\n\n')[0]!) as {
    resource_changes: { address: string; change: { after_sensitive: Record<string, unknown> } }[];
  };
  const web = json.resource_changes.find((c) => c.address === 'sched_job.web')!;
  expect(web.change.after_sensitive['jobspec']).toBe(true);
  const ns = json.resource_changes.find((c) => c.address === 'sched_namespace.apps')!;
  expect(ns.change.after_sensitive['meta']).toEqual({ owner: true });
  expect(seen[0]!.text).toMatch(/jobspec\s+= \(sensitive value\)/);

  const deploy = await cli('deploy', ['deploy', '--no-synth', '--auto-approve', ...key(CANARY.apiKey)]);
  expect(deploy.code).toBe(0);
  expect(deploy.stdout).toMatch(/api_key = <sensitive>/);
  // The secrets really went to the cluster and into the state (which may hold them).
  const { value: job } = await p.agent.sched.jobs.read('web', { namespace: 'apps' });
  expect(job.TaskGroups?.[0]?.Tasks?.[0]?.Env?.['API_KEY']).toBe(CANARY.apiKey);
  expect(job.Datacenters).toContain(CANARY.datacenter);
  const state = readFileSync(p.statePath(), 'utf8');
  for (const c of [CANARY.apiKey, CANARY.metaOwner, CANARY.datacenter, CANARY.jwt])
    expect(state).toContain(c);
  const peering = p.readState().resources.find((r) => r.type === 'reg_peering_token')!.instances[0]!
    .attributes['peering_token'] as string;
  expect(peering.length).toBeGreaterThan(20);

  await planInEveryFormat('no-change plan', ['--detailed-exitcode', ...key(CANARY.apiKey)], 0);
  for (const address of [
    'sched_job.web',
    'sched_namespace.apps',
    'reg_acl_auth_method.k8s',
    'reg_peering_token.west',
  ]) {
    const r = await cli(`state show ${address}`, ['state', 'show', address]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(sensitive value)');
  }
  expect((await cli('output', ['output'])).stdout).toMatch(/api_key = <sensitive>/);

  // The plan JSON's configuration is scanned too: the sensitive defaults are left out of it.
  const unchanged = JSON.parse(textOf('no-change plan --format json')) as {
    configuration: { root_module: { variables: Record<string, unknown> } };
  };
  expect(unchanged.configuration.root_module.variables['meta_owner']).toEqual({ sensitive: true });

  // A failed validation of a sensitive variable: the JSON's checks say it failed, not with what.
  await planInEveryFormat('refused plan', [...key(CANARY.refused)], 1);
  const refused = JSON.parse(textOf('refused plan --format json')) as {
    checks: { address: { to_display: string }; status: string; instances: { problems?: unknown[] }[] }[];
  };
  const check = refused.checks.find((c) => c.address.to_display === 'var.api_key')!;
  expect(check.status).toBe('fail');
  expect(check.instances[0]!.problems).toHaveLength(1);

  // Drift of a secret-bearing attribute: resource_drift's before is the state's (secret) meta.
  await p.agent.sched.namespaces.upsert({ Name: 'apps', Meta: { owner: 'edited-by-hand' } });
  // An update shows neither the old nor the new value ("old" -> "new").
  await planInEveryFormat('update plan', ['--detailed-exitcode', ...key(CANARY.apiKeyNext)], 2);
  const drifted = JSON.parse(textOf('update plan --format json')) as {
    resource_drift: { address: string; change: { before_sensitive: Record<string, unknown> } }[];
  };
  const apps = drifted.resource_drift.find((d) => d.address === 'sched_namespace.apps')!;
  expect(apps.change.before_sensitive['meta']).toEqual({ owner: true });
  expect(
    (await cli('update deploy', ['deploy', '--no-synth', '--auto-approve', ...key(CANARY.apiKeyNext)])).code,
  ).toBe(0);

  // An output that carries a sensitive value without sensitive = true is refused, as Terraform does.
  p.writeStack('app', stack({ leakyOutput: true }));
  const leaky = await cli('leaky output plan', ['plan', '--no-synth', ...key(CANARY.apiKeyNext)]);
  expect(leaky.code).toBe(1);
  expect(leaky.stderr).toMatch(/Output refers to sensitive values/);

  // A server echoing a secret in its error (JSON-quoted: `got "k8s \"...\" ${"`), and a task
  // failing with a secret as its error.
  p.writeStack('app', stack({ failing: true }));
  const failed = await cli('failing deploy', [
    'deploy',
    '--no-synth',
    '--auto-approve',
    ...key(CANARY.apiKeyNext),
  ]);
  expect(failed.code).toBe(1);
  // Both failures are reported, with the secret masked where the server and the task put it.
  expect(failed.stderr).toMatch(/Error: reg_acl_auth_method\.echo[^]*BindNamespace[^]*\(sensitive value\)/);
  expect(failed.stderr).toMatch(/Error: sched_job\.broken[^]*Driver Failure: \(sensitive value\)/);

  await planInEveryFormat('plan --destroy', ['--destroy', ...key(CANARY.apiKeyNext)], 0);
  const destroyed = await cli('destroy', [
    'destroy',
    '--no-synth',
    '--auto-approve',
    ...key(CANARY.apiKeyNext),
  ]);
  expect(destroyed.code).toBe(0);

  expectClean([...Object.values(CANARY), peering]);
}, 180_000);
