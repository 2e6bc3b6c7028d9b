/**
 * examples/registry: a namespace with policy defaults, a Kubernetes auth method with a sensitive
 * config, and a peering between two registries (two dev agents); deploy, no-op re-plan, destroy.
 */
import { REG_FLAVOR, TEST_DIALECT } from '../helpers/dialect';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startDevAgent, type DevAgent } from '../../src/agent';
import { NotFoundError } from '../../src/api/errors';
import { RegClient } from '../../src/api/reg/client';
import { ensureDefaultPolicy } from '../../examples/registry/create-policy';
import { DEFAULT_POLICY } from '../../examples/registry/policy';
import { agentEnv, exampleProject, expectExit, startExampleAgent, type ExampleProject } from './harness';

const CA_CERT = readFileSync(path.join(__dirname, 'fixtures', 'k8s-ca.pem'), 'utf8');
const REVIEWER_JWT = 'eyJhbGciOiJSUzI1NiJ9.reviewer-secret-do-not-print.c2lnbmF0dXJl';

/** Deleted: absent, or (as the registry keeps it while it cleans up) marked deleted. */
async function peeringGone(client: RegClient, name: string): Promise<boolean> {
  try {
    const { value } = await client.peering.read(name);
    return Boolean(value.DeletedAt) || value.State === 'DELETING' || value.State === 'TERMINATED';
  } catch (err) {
    if (err instanceof NotFoundError) return true;
    throw err;
  }
}

describe('examples/registry', () => {
  let here: DevAgent;
  let peer: DevAgent;
  let project: ExampleProject;
  let reg: RegClient;
  let peerReg: RegClient;

  beforeAll(async () => {
    [here, peer] = await Promise.all([
      startExampleAgent(),
      startDevAgent({
        port: 0,
        registryPort: 0,
        timeScale: 0.01,
        datacenter: 'dc2',
        nodes: 0,
        dialect: TEST_DIALECT,
      }),
    ]);
    project = exampleProject('registry');
    reg = new RegClient({ address: here.registryUrl!, env: {}, flavor: REG_FLAVOR });
    peerReg = new RegClient({ address: peer.registryUrl!, env: {}, flavor: REG_FLAVOR });
  });

  afterAll(async () => {
    await Promise.all([reg?.close(), peerReg?.close()]);
    await Promise.all([here?.stop(), peer?.stop()]);
    project?.remove();
  });

  it('deploys to two registries, re-plans to no changes and destroys; the reviewer JWT never shows', async () => {
    const env = agentEnv(here);
    const vars = [
      '--var',
      `peer_address=${peer.registryUrl!}`,
      '--var',
      `k8s_ca_cert=${CA_CERT}`,
      '--var',
      `k8s_reviewer_jwt=${REVIEWER_JWT}`,
    ];
    const policy = await ensureDefaultPolicy(reg);
    expect(policy.created).toBe(true);
    expect(await ensureDefaultPolicy(reg)).toEqual({ id: policy.id, created: false });

    const deploy = expectExit(await project.cli(['deploy', ...vars, '--auto-approve'], env), 0);
    expect(deploy.stdout).toMatch(/Apply complete! Resources: 4 added, 0 changed, 0 destroyed/);
    expect(deploy.stdout).toMatch(/peering_state = "ACTIVE"/);
    expect(deploy.stdout).toMatch(/peering_token = <sensitive>/);
    expect(deploy.stdout + deploy.stderr).not.toContain(REVIEWER_JWT);
    expect(deploy.stdout + deploy.stderr).not.toContain('reviewer-secret');

    // This registry: the namespace links the policy, the auth method holds the whole config.
    const { value: ns } = await reg.namespaces.read('apps');
    expect(ns.ACLs?.PolicyDefaults).toEqual([{ ID: policy.id, Name: DEFAULT_POLICY }]);
    const { value: method } = await reg.authMethods.read('kubernetes');
    expect(method).toMatchObject({ Type: 'kubernetes', MaxTokenTTL: '1h0m0s', TokenLocality: 'local' });
    expect(method.Config).toMatchObject({
      Host: 'https://kubernetes.default.svc:443',
      CACert: CA_CERT,
      ServiceAccountJWT: REVIEWER_JWT,
    });

    // Both sides of the peering are active, each naming the other.
    const { value: accepting } = await reg.peering.read('cluster-b');
    const { value: dialing } = await peerReg.peering.read('cluster-a');
    expect(accepting.State).toBe('ACTIVE');
    expect(dialing.State).toBe('ACTIVE');
    expect(dialing.PeerID).toBe(accepting.ID);

    const plan = expectExit(
      await project.cli(['plan', '--no-synth', ...vars, '--detailed-exitcode'], env),
      0,
    );
    expect(plan.stdout + plan.stderr).not.toContain(REVIEWER_JWT);

    const destroy = expectExit(
      await project.cli(['destroy', '--no-synth', ...vars, '--auto-approve'], env),
      0,
    );
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: .*4 destroyed/);
    await expect(reg.namespaces.read('apps')).rejects.toBeInstanceOf(NotFoundError);
    await expect(reg.authMethods.read('kubernetes')).rejects.toBeInstanceOf(NotFoundError);
    expect(await peeringGone(reg, 'cluster-b')).toBe(true);
    expect(await peeringGone(peerReg, 'cluster-a')).toBe(true);
  });
});
