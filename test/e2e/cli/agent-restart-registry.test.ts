/**
 * The registry's multi-step work in flight when `cdktf-sched dev --data-dir` is killed: a namespace
 * being deleted (its data goes a moment after the namespace is marked), and a peering being
 * terminated (the peer must be told, then the peering and its secrets go). Both finish after the
 * agent starts again on its data dir. Time scale 1 here, so the 2 s cleanup delays outlast the kill.
 */
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { RegClient } from '../../../src/api/reg';
import { NotFoundError } from '../../../src/api/errors';
import { eventually } from '../../helpers/agent';
import { newDataDir, startDev, stopDev, type DevProcess } from './dev-process';

jest.setTimeout(60_000);

const clients: RegClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

function reg(url: string): RegClient {
  const c = new RegClient({ address: url, env: {}, retries: { max: 0 } });
  clients.push(c);
  return c;
}

async function peeringState(c: RegClient, name: string): Promise<string | undefined> {
  try {
    return (await c.peering.read(name)).value.State;
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
}

test('a namespace deletion interrupted by SIGKILL finishes after the restart, its data with it', async () => {
  const dataDir = newDataDir();
  let dev: DevProcess = await startDev(dataDir, 1);
  try {
    const before = reg(dev.registryUrl);
    await before.namespaces.create({ Name: 'team' });
    const policy = await fetch(`${dev.registryUrl}/v1/acl/policy?ns=team`, {
      method: 'PUT',
      body: JSON.stringify({ Name: 'p' }),
    });
    expect(policy.status).toBe(200);
    const policyId = ((await policy.json()) as { ID: string }).ID;
    await before.namespaces.delete('team');
    await stopDev(dev, 'SIGKILL');

    dev = await startDev(dataDir, 1);
    const after = reg(dev.registryUrl);
    // Still marked (the purge waits 2 s), then gone with what it held.
    expect((await after.namespaces.read('team')).value.DeletedAt).toBeDefined();
    await eventually(async () => {
      await expect(after.namespaces.read('team')).rejects.toBeInstanceOf(NotFoundError);
    }, 15_000);
    expect((await fetch(`${dev.registryUrl}/v1/acl/policy/${policyId}`)).status).toBe(404);
    await after.namespaces.create({ Name: 'team' });
  } finally {
    await stopDev(dev, 'SIGTERM');
  }
});

test('a peering terminated while its peer was down and then SIGKILLed: the restarted agent tells the peer and cleans up', async () => {
  const eastDir = newDataDir();
  const westDir = newDataDir();
  let east: DevProcess = await startDev(eastDir, 1);
  const westOptions = { port: 0, datacenter: 'west', dataDir: westDir };
  let west: DevAgent = await startDevAgent({ ...westOptions, registryPort: 0 });
  try {
    const { PeeringToken } = await reg(east.registryUrl).peering.generateToken({ PeerName: 'west' });
    await reg(west.registryUrl!).peering.establish({ PeerName: 'east', PeeringToken });
    await eventually(async () => expect(await peeringState(reg(east.registryUrl), 'west')).toBe('ACTIVE'));

    // The peer is away when the peering is deleted; the agent is killed while it retries the notice.
    const westPort = Number(new URL(west.registryUrl!).port);
    await west.stop();
    await reg(east.registryUrl).peering.delete('west');
    await stopDev(east, 'SIGKILL');

    west = await startDevAgent({ ...westOptions, registryPort: westPort });
    expect(await peeringState(reg(west.registryUrl!), 'east')).toBe('ACTIVE');
    east = await startDev(eastDir, 1);
    await eventually(
      async () => expect(await peeringState(reg(west.registryUrl!), 'east')).toBe('TERMINATED'),
      15_000,
    );
    await eventually(
      async () => expect(await peeringState(reg(east.registryUrl), 'west')).toBeUndefined(),
      15_000,
    );
    // The name is free again once its secrets are gone.
    await reg(east.registryUrl).peering.generateToken({ PeerName: 'west' });
  } finally {
    await stopDev(east, 'SIGTERM');
    await west.stop();
  }
});
