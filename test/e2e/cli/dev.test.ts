/** `cdktf-sched dev` as a real process: TLS flags, the https URLs it prints, and a clean stop on SIGTERM. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchedClient } from '../../../src/api/sched/client';
import { generateCertificate } from '../../../src/plugin/certificate';
import { spawnCli, until } from './helpers';

jest.setTimeout(60_000);

let dir: string;
const cert = generateCertificate();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dev-cli-'));
  writeFileSync(join(dir, 'cert.pem'), cert.certPem);
  writeFileSync(join(dir, 'key.pem'), cert.keyPem, { mode: 0o600 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ports = ['--port', '0', '--registry-port', '0'];

test('--tls-cert and --tls-key serve both APIs over HTTPS until SIGTERM', async () => {
  const run = spawnCli({ dir, env: {} }, ['dev', ...ports, '--tls-cert', 'cert.pem', '--tls-key', 'key.pem']);
  try {
    await until(() => /registry: \S+/.test(run.out()));
    const url = /scheduler: (\S+)/.exec(run.out())![1]!;
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(run.out()).toMatch(/registry: https:\/\/127\.0\.0\.1:\d+/);
    const sched = new SchedClient({ address: url, env: {}, tls: { ca: join(dir, 'cert.pem') } });
    try {
      expect((await sched.jobs.list()).value).toEqual([]);
    } finally {
      await sched.close();
    }
  } finally {
    run.child.kill('SIGTERM');
  }
  expect(await run.exited).toBe(0);
  expect(run.out()).not.toContain('PRIVATE KEY');
});

test('a certificate without its key is refused before anything listens', async () => {
  const run = spawnCli({ dir, env: {} }, ['dev', ...ports, '--tls-cert', 'cert.pem']);
  expect(await run.exited).toBe(1);
  expect(run.out()).toContain('--tls-cert and --tls-key go together');
  expect(run.out()).not.toMatch(/scheduler: /);
});
