/**
 * The dev agent over HTTPS, as a TLS-enabled cluster serves it: the clients trust exactly the CA they
 * are given (HTTP requests and the exec WebSocket alike), mutual TLS refuses clients without a
 * certificate, and two TLS registries peer by the CA their tokens carry.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevAgentOptionsError, startDevAgent, type DevAgent } from '../../../src/agent';
import { ConnectionError } from '../../../src/api/errors';
import { RegClient } from '../../../src/api/reg';
import { SchedClient } from '../../../src/api/sched/client';
import type { TlsOptions } from '../../../src/api/transport';
import { generateCertificate, type PluginCertificate } from '../../../src/plugin/certificate';
import { eventually } from '../../helpers/agent';
import { mockJob } from '../../helpers/jobs';

const server = generateCertificate({ commonName: 'localhost' });
const other = generateCertificate({ commonName: 'localhost' });
const client = generateCertificate({ commonName: 'operator' });

function tlsAgent(cert: PluginCertificate, extra: { ca?: string; verifyIncoming?: boolean } = {}) {
  return startDevAgent({
    port: 0,
    registryPort: 0,
    timeScale: 0.01,
    tls: { cert: cert.certPem, key: cert.keyPem, ...extra },
  });
}

async function collect(it: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of it) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

describe('dev agent with TLS', () => {
  let agent: DevAgent;
  const clients: Array<{ close(): Promise<void> }> = [];
  const sched = (tls: TlsOptions | undefined): SchedClient => {
    const c = new SchedClient({ address: agent.schedulerUrl, env: {}, retries: { max: 0 }, tls });
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    agent = await tlsAgent(server);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await agent.stop();
  });

  test('serves both APIs on https URLs', () => {
    expect(agent.schedulerUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(agent.registryUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  test('a client given the CA (as PEM text or as a file) registers and reads a job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tls-'));
    try {
      const caFile = join(dir, 'ca.pem');
      writeFileSync(caFile, server.certPem);
      await sched({ ca: server.certPem }).jobs.register(mockJob('over-tls'));
      const { value } = await sched({ ca: caFile }).jobs.read('over-tls');
      expect(value.ID).toBe('over-tls');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a client that does not trust the certificate is refused with a connection error', async () => {
    const err = await sched(undefined)
      .jobs.list()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(String((err as Error).message)).toMatch(/certificate/i);
    // Trusting another certificate is no better.
    await expect(sched({ ca: other.certPem }).jobs.list()).rejects.toBeInstanceOf(ConnectionError);
    // Unless verification is turned off, as SCHED_SKIP_VERIFY does.
    await expect(sched({ insecureSkipVerify: true }).jobs.list()).resolves.toBeDefined();
  });

  test('exec runs over wss with the same trust as the HTTP requests', async () => {
    const s = sched({ ca: server.certPem });
    await s.jobs.register(mockJob('shell', { count: 1 }));
    const allocId = await eventually(async () => {
      const { value } = await s.jobs.allocations('shell');
      expect(value[0]?.TaskStates?.['server']?.State).toBe('running');
      return value[0]!.ID!;
    });
    const session = await s.allocations.exec(allocId, {
      command: ['echo', 'secure'],
      task: 'server',
      heartbeatMs: 60_000,
    });
    const [out, exit] = await Promise.all([collect(session.stdout), session.exited]);
    expect(out).toBe('secure\n');
    expect(exit.exitCode).toBe(0);
    await expect(
      sched(undefined).allocations.exec(allocId, { command: ['true'], task: 'server' }),
    ).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('dev agent with mutual TLS', () => {
  let agent: DevAgent;
  beforeAll(async () => {
    agent = await tlsAgent(server, { ca: client.certPem, verifyIncoming: true });
  });
  afterAll(() => agent.stop());

  test('refuses a client without a certificate and serves one that has it, on both services', async () => {
    const bare = new SchedClient({
      address: agent.schedulerUrl,
      env: {},
      retries: { max: 0 },
      tls: { ca: server.certPem },
    });
    const withCert = new SchedClient({
      address: agent.schedulerUrl,
      env: {},
      retries: { max: 0 },
      tls: { ca: server.certPem, cert: client.certPem, key: client.keyPem },
    });
    const reg = new RegClient({
      address: agent.registryUrl,
      env: {},
      retries: { max: 0 },
      tls: { ca: server.certPem, cert: client.certPem, key: client.keyPem },
    });
    try {
      await expect(bare.jobs.list()).rejects.toBeInstanceOf(ConnectionError);
      await expect(withCert.jobs.list()).resolves.toBeDefined();
      await expect(reg.namespaces.list()).resolves.toBeDefined();
    } finally {
      await Promise.all([bare.close(), withCert.close(), reg.close()]);
    }
  });
});

describe('peering between two TLS registries', () => {
  let east: DevAgent;
  let west: DevAgent;
  let eastReg: RegClient;
  let westReg: RegClient;
  beforeAll(async () => {
    east = await tlsAgent(server);
    west = await tlsAgent(other);
    eastReg = new RegClient({ address: east.registryUrl, env: {}, tls: { ca: server.certPem } });
    westReg = new RegClient({ address: west.registryUrl, env: {}, tls: { ca: other.certPem } });
  });
  afterAll(async () => {
    await Promise.all([eastReg.close(), westReg.close()]);
    await Promise.all([east.stop(), west.stop()]);
  });

  test('the token carries the CA, both sides go ACTIVE, and a deletion reaches the other side over TLS', async () => {
    const { PeeringToken } = await eastReg.peering.generateToken({ PeerName: 'west' });
    const token = JSON.parse(Buffer.from(PeeringToken, 'base64').toString('utf8')) as { CA: string[] };
    expect(token.CA).toEqual([server.certPem]);

    await westReg.peering.establish({ PeerName: 'east', PeeringToken });
    const dialer = (await westReg.peering.read('east')).value as Record<string, unknown>;
    const acceptor = (await eastReg.peering.read('west')).value as Record<string, unknown>;
    expect(dialer).toMatchObject({ State: 'ACTIVE', PeerCAPems: [server.certPem] });
    expect(acceptor).toMatchObject({ State: 'ACTIVE', PeerCAPems: [other.certPem] });

    // The acceptor tells the dialer over HTTPS, trusting the CA the dialer gave at exchange.
    await eastReg.peering.delete('west');
    await eventually(async () => {
      expect((await westReg.peering.read('east')).value.State).toBe('TERMINATED');
    });
  });
});

describe('dev agent TLS options', () => {
  test('mutual TLS without a CA is refused, naming the option', async () => {
    await expect(
      startDevAgent({
        port: 0,
        registry: false,
        tls: { cert: server.certPem, key: server.keyPem, verifyIncoming: true },
      }),
    ).rejects.toThrow(/tls\.ca: verifyIncoming needs ca/);
  });

  test('an unreadable certificate file is refused, naming the option and never echoing the key', async () => {
    const err = await startDevAgent({
      port: 0,
      registry: false,
      tls: { cert: '/nonexistent/cert.pem', key: '/nonexistent/key.pem' },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DevAgentOptionsError);
    expect((err as Error).message).toMatch(
      /^dev agent option tls\.cert: cannot read "\/nonexistent\/cert\.pem" \(ENOENT\)/,
    );
    const keyErr = await startDevAgent({
      port: 0,
      registry: false,
      tls: { cert: server.certPem, key: 'not-a-pem-and-not-a-file' },
    }).catch((e: unknown) => e);
    expect((keyErr as Error).message).toMatch(/^dev agent option tls\.key: cannot read the file given/);
    expect((keyErr as Error).message).not.toContain('not-a-pem-and-not-a-file');
  });

  test('a key that does not belong to the certificate is refused before anything listens', async () => {
    const err = await startDevAgent({
      port: 0,
      registry: false,
      tls: { cert: server.certPem, key: other.keyPem },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DevAgentOptionsError);
    expect((err as Error).message).toMatch(
      /^dev agent option tls: the certificate, key and CA are not usable together/,
    );
    expect((err as Error).message).not.toContain('PRIVATE KEY');
  });
});
