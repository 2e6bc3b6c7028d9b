/**
 * Input variables from every source Terraform reads, through the CLI against a dev agent:
 * terraform.tfvars, terraform.tfvars.json and *.auto.tfvars[.json] from the app directory, TF_VAR_*,
 * --var and --var-file in command-line order; validation rules, constant-only files, reserved names.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProject, stackJson, type Project } from './helpers';

let p: Project;

beforeAll(async () => {
  p = await createProject();
  p.writeStack(
    'app',
    stackJson({
      variable: {
        name: { type: 'string', default: 'default' },
        port: { type: 'number' },
        tags: { type: 'list(string)', default: [] },
        region: {
          type: 'string',
          default: 'eu-west',
          validation: [
            {
              condition: '${length(var.region) > 2}',
              error_message: 'The region must be longer than 2 characters.',
            },
          ],
        },
      },
      output: {
        name: { value: '${var.name}' },
        port: { value: '${var.port}' },
        tags: { value: '${var.tags}' },
        region: { value: '${var.region}' },
      },
    }),
  );
});

afterAll(async () => {
  await p.close();
});

async function outputs(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const r = await p.cli(['deploy', '--no-synth', '--auto-approve', ...args], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const json = JSON.parse((await p.cli(['output', '--json'])).stdout) as Record<string, { value: unknown }>;
  return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, v.value]));
}

const file = (name: string, text: string): string => {
  const f = path.join(p.dir, name);
  writeFileSync(f, text);
  return f;
};

test('files in the app directory, the environment and the command line, in terraform precedence', async () => {
  file(
    'terraform.tfvars',
    '# defaults for the team\nname = "from-tfvars"\nport = 80\ntags = [\n  "a",\n  "b",\n]\n',
  );
  expect(await outputs([], { TF_VAR_port: '1' })).toEqual({
    name: 'from-tfvars',
    port: 80,
    tags: ['a', 'b'],
    region: 'eu-west',
  });
  // *.auto.tfvars[.json] load after terraform.tfvars, in lexical order.
  file('a.auto.tfvars', 'name = "from-a-auto"\n');
  file('b.auto.tfvars.json', JSON.stringify({ name: 'from-b-auto-json', tags: ['json'] }));
  expect(await outputs([])).toMatchObject({ name: 'from-b-auto-json', tags: ['json'], port: 80 });

  // --var and --var-file: the later one on the command line wins.
  const extra = file('extra.tfvars', 'name = "from-var-file"\nport = 8080\n');
  expect(await outputs(['--var-file', extra, '--var', 'name=from-cli'])).toMatchObject({
    name: 'from-cli',
    port: 8080,
  });
  expect(await outputs(['--var', 'name=from-cli', '--var-file', extra])).toMatchObject({
    name: 'from-var-file',
  });
  for (const f of ['terraform.tfvars', 'a.auto.tfvars', 'b.auto.tfvars.json']) rmSync(path.join(p.dir, f));
  // Without the files the environment is what is left.
  expect(await outputs([], { TF_VAR_port: '3' })).toMatchObject({ port: 3, name: 'default' });
});

test('bad definitions files and failed validations are refused with their reason', async () => {
  const calls = file('calls.tfvars', 'name = upper("x")\nport = 1\n');
  const r1 = await p.cli(['plan', '--no-synth', '--var-file', calls]);
  expect(r1.code).toBe(1);
  expect(r1.stderr).toContain('Function calls not allowed: Functions may not be called here.');
  expect(r1.stderr).toContain('calls.tfvars');

  const refs = file('refs.tfvars', 'name = var.port\n');
  expect((await p.cli(['plan', '--no-synth', '--var-file', refs])).stderr).toContain('Variables not allowed');

  const dup = file('dup.tfvars', 'port = 1\nport = 2\n');
  expect((await p.cli(['plan', '--no-synth', '--var-file', dup])).stderr).toContain(
    'Duplicate argument: The argument "port" was already set.',
  );

  const missing = await p.cli(['plan', '--no-synth', '--var-file', path.join(p.dir, 'nope.tfvars')]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(
    /Failed to read variables file: Given variables file .*nope\.tfvars does not exist/,
  );

  const invalid = await p.cli(['plan', '--no-synth', '--var', 'port=1', '--var', 'region=ab']);
  expect(invalid.code).toBe(1);
  expect(invalid.stderr).toContain('Invalid value for variable: The region must be longer than 2 characters');
});

test('reserved variable names are refused as terraform refuses them', async () => {
  p.writeStack('app', stackJson({ variable: { count: { type: 'number', default: 1 } } }));
  const r = await p.cli(['plan', '--no-synth']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'Invalid variable name: The variable name "count" is reserved due to its special meaning inside module blocks',
  );
});
