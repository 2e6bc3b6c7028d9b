/**
 * Terraform's http backend against a small state server the test runs (GitLab's managed state
 * behaves so): GET/POST/DELETE on the address, LOCK/UNLOCK (or configured methods) on the lock
 * address with LockInfo bodies, 423 with the holder's LockInfo while locked, `?ID=` on writes made
 * under a lock, basic auth; the TF_HTTP_* variables fill in what the block leaves out.
 */
import { startTestServer, type Recorded, type TestServer } from '../../helpers/http-server';
import { StateFile } from '../../../src/engine/state';
import { createProject, jobspec, stackJson, withPath, type Project } from './helpers';

interface Lock {
  ID: string;
  Who: string;
}

/** A state server: one state, one lock, basic auth user "ci" / "s3cret". */
function stateServer(server: TestServer): { state: () => string | undefined; lock: () => Lock | undefined } {
  let state: string | undefined;
  let lock: Lock | undefined;
  server.handle((req: Recorded, res) => {
    const auth = req.headers['authorization'];
    if (auth !== `Basic ${Buffer.from('ci:s3cret').toString('base64')}`) {
      res.statusCode = 401;
      res.end();
      return;
    }
    const reply = (status: number, body = ''): void => {
      res.statusCode = status;
      res.end(body);
    };
    if (req.url.pathname === '/state') {
      if (req.method === 'GET') return state === undefined ? reply(404) : reply(200, state);
      if (req.method === 'POST') {
        if (lock && req.url.searchParams.get('ID') !== lock.ID) return reply(409, JSON.stringify(lock));
        state = req.body;
        return reply(200);
      }
      if (req.method === 'DELETE') return ((state = undefined), reply(200));
    }
    if (req.url.pathname === '/lock') {
      const info = JSON.parse(req.body) as Lock;
      if (req.method === 'PUT') {
        if (lock) return reply(423, JSON.stringify(lock));
        lock = info;
        return reply(200);
      }
      if (req.method === 'DELETE') {
        if (lock?.ID === info.ID) lock = undefined;
        return reply(200);
      }
    }
    reply(405);
  });
  return { state: () => state, lock: () => lock };
}

let p: Project;
let server: TestServer;
let remote: ReturnType<typeof stateServer>;
beforeAll(async () => {
  [p, server] = await Promise.all([createProject(), startTestServer()]);
  remote = stateServer(server);
  const base = stackJson({
    resource: { sched_job: { web: withPath('app', 'web', { jobspec: jobspec('http-web') }) } },
  });
  p.writeStack('app', {
    ...base,
    terraform: {
      ...(base['terraform'] as object),
      // Methods as GitLab wants them; the address and credentials come from TF_HTTP_*.
      backend: { http: { lock_method: 'PUT', unlock_method: 'DELETE' } },
    },
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await p?.close();
});

const env = (): Record<string, string> => ({
  TF_HTTP_ADDRESS: `${server.url}/state`,
  TF_HTTP_LOCK_ADDRESS: `${server.url}/lock`,
  TF_HTTP_UNLOCK_ADDRESS: `${server.url}/lock`,
  TF_HTTP_USERNAME: 'ci',
  TF_HTTP_PASSWORD: 's3cret',
});

test('deploy stores the state over HTTP under a lock; a re-plan is clean; a held lock refuses', async () => {
  const first = await p.cli(['deploy', '--no-synth', '--auto-approve'], { env: env() });
  expect(first.stderr).not.toMatch(/Error/);
  expect(first.code).toBe(0);
  expect(StateFile.parse(remote.state()!).addresses()).toEqual(['sched_job.web']);
  expect(remote.lock()).toBeUndefined();
  const locks = server.requests.filter((r) => r.url.pathname === '/lock').map((r) => r.method);
  expect(locks).toEqual(['PUT', 'DELETE']);
  const writes = server.requests.filter((r) => r.method === 'POST');
  expect(writes.length).toBeGreaterThan(0);
  for (const w of writes) {
    expect(w.url.searchParams.get('ID')).toBe((JSON.parse(server.requests[0]!.body) as Lock).ID);
    expect(w.headers['content-md5']).toBeDefined();
  }

  const plan = await p.cli(['plan', '--no-synth', '--detailed-exitcode'], { env: env() });
  expect(plan.code).toBe(0);

  // Someone else holds it: refused with who, nothing written.
  const held = {
    ID: 'held-by-ci',
    Who: 'runner@ci',
    Operation: 'OperationTypeApply',
    Info: '',
    Version: '',
    Created: '2024-01-01T00:00:00Z',
    Path: '',
  };
  await fetch(`${server.url}/lock`, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from('ci:s3cret').toString('base64')}` },
    body: JSON.stringify(held),
  });
  const refused = await p.cli(['plan', '--no-synth'], { env: env() });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /The state is locked \(http backend, http:\/\/127\.0\.0\.1:\d+\/lock\): ID=held-by-ci/,
  );
  expect(refused.stderr).toContain('runner@ci');
});

test('wrong credentials and workspaces are refused with what to do; the password is never shown', async () => {
  const bad = await p.cli(['plan', '--no-synth'], { env: { ...env(), TF_HTTP_PASSWORD: 'wrong-pass' } });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/authentication/);
  expect(bad.stderr).not.toContain('wrong-pass');
  const ws = await p.cli(['plan', '--no-synth', '--workspace', 'staging'], { env: env() });
  expect(ws.code).toBe(1);
  expect(ws.stderr).toMatch(/the http backend has no workspaces other than "default"/);
});
