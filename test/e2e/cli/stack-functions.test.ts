/**
 * Functions that depend on where and when they run, through the CLI: file functions read relative to
 * the stack's directory (cdktf.out/stacks/<stack>, where cdktf copies assets, and where terraform
 * runs), and impure functions are unknown while planning and known once applied.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProject, stackJson, type Project } from './helpers';

let p: Project;

beforeAll(async () => {
  p = await createProject();
});

afterAll(async () => {
  await p.close();
});

test('file, fileset and templatefile read from the stack directory; timestamp and uuid are known after apply', async () => {
  p.writeStack(
    'app',
    stackJson({
      output: {
        text: { value: '${file("assets/motd.txt")}' },
        hash: { value: '${filesha256("${path.module}/assets/motd.txt")}' },
        files: { value: '${fileset(path.module, "assets/*")}' },
        rendered: { value: '${templatefile("assets/hello.tftpl", { who = "ops" })}' },
        stamp: { value: '${timestamp()}' },
        id: { value: '${uuid()}' },
      },
    }),
  );
  const assets = path.join(p.dir, 'cdktf.out', 'stacks', 'app', 'assets');
  mkdirSync(assets, { recursive: true });
  writeFileSync(path.join(assets, 'motd.txt'), 'hello\n');
  writeFileSync(path.join(assets, 'hello.tftpl'), 'Hi ${who}!');
  // A file of the same name in the app directory must not be the one read.
  writeFileSync(path.join(p.dir, 'motd.txt'), 'wrong\n');

  const plan = await p.cli(['plan', '--no-synth']);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toMatch(/stamp\s+= \(known after apply\)/);
  expect(plan.stdout).toMatch(/id\s+= \(known after apply\)/);

  const before = Date.now();
  const deploy = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(deploy.stderr).toBe('');
  expect(deploy.code).toBe(0);
  const out = JSON.parse((await p.cli(['output', '--json'])).stdout) as Record<string, { value: unknown }>;
  expect(out['text']!.value).toBe('hello\n');
  expect(out['hash']!.value).toBe('5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03');
  expect(out['files']!.value).toEqual(['assets/hello.tftpl', 'assets/motd.txt']);
  expect(out['rendered']!.value).toBe('Hi ops!');
  const stamp = out['stamp']!.value as string;
  expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(Date.parse(stamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  expect(out['id']!.value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('a missing file is refused with terraform message, naming the path', async () => {
  p.writeStack('app', stackJson({ output: { text: { value: '${file("assets/none.txt")}' } } }));
  const r = await p.cli(['plan', '--no-synth']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Invalid value for "path" parameter: no file exists at "assets/none.txt"');
});
