/**
 * The plugin as a process, as go-plugin starts it: the magic cookie, protocol negotiation, the
 * handshake line with the AutoMTLS certificate, mutual TLS with the host's certificate, and a graceful
 * exit on the controller's Shutdown. Also the certificate itself.
 */
import { X509Certificate } from 'node:crypto';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { generateCertificate, verifySelfSigned } from '../../../src/plugin/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, readHandshakeEnv } from '../../../src/plugin/handshake';
import { compilePlugin } from './helpers/compile';
import { connect } from './helpers/client';

function startPlugin(
  entry: string,
  env: Record<string, string>,
): {
  child: ChildProcessWithoutNullStreams;
  firstLine: Promise<string>;
  exit: Promise<number | null>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [entry], { env: { PATH: process.env['PATH'] ?? '', ...env } });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', () => reject(new Error(`exited before the handshake: ${err}`)));
  });
  // Awaited only by the tests that expect a handshake.
  firstLine.catch(() => undefined);
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, firstLine, exit, stderr: () => err };
}

describe('certificate', () => {
  it('is a self-signed ECDSA certificate for localhost that works as its own CA', () => {
    const c = generateCertificate({ now: new Date('2030-01-01T00:00:00Z') });
    expect(verifySelfSigned(c.certPem, c.keyPem)).toBe(true);
    const x = new X509Certificate(c.certPem);
    expect(x.subject).toContain('CN=localhost');
    expect(x.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(x.ca).toBe(true);
    expect(x.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
    expect(x.checkHost('localhost')).toBe('localhost');
    expect(new Date(x.validFrom).getTime()).toBeLessThan(Date.parse('2030-01-01T00:00:00Z'));
    expect(x.raw.equals(c.certDer)).toBe(true);
    // Another key does not match, and a fresh certificate is fresh.
    expect(verifySelfSigned(c.certPem, generateCertificate().keyPem)).toBe(false);
    expect(generateCertificate().certDer.equals(c.certDer)).toBe(false);
  });
});

describe('handshake environment', () => {
  it('needs the magic cookie and protocol version 6, and takes the client certificate', () => {
    expect(() => readHandshakeEnv({})).toThrow(/not meant to be run directly/);
    const base = { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE };
    expect(() => readHandshakeEnv({ ...base, PLUGIN_PROTOCOL_VERSIONS: '4,5' })).toThrow(/speaks version 6/);
    expect(readHandshakeEnv({ ...base, PLUGIN_PROTOCOL_VERSIONS: '5,6' })).toEqual({
      clientCertPem: undefined,
    });
    expect(readHandshakeEnv({ ...base, PLUGIN_CLIENT_CERT: 'PEM' })).toEqual({ clientCertPem: 'PEM' });
  });
});

describe('plugin process', () => {
  const { entries } = compilePlugin();

  it('refuses to run without the magic cookie', async () => {
    const p = startPlugin(entries.sched, {});
    expect(await p.exit).toBe(1);
    expect(p.stderr()).toMatch(/Terraform provider plugin/);
  });

  it('prints the handshake line, serves mutual TLS with its own certificate and exits on Shutdown', async () => {
    const host = generateCertificate();
    const p = startPlugin(entries.reg, {
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '5,6',
      PLUGIN_CLIENT_CERT: host.certPem,
    });
    const line = await p.firstLine;
    const [core, proto, network, address, kind, cert] = line.split('|');
    expect([core, proto, network, kind]).toEqual(['1', '6', 'tcp', 'grpc']);
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
    // go-plugin decodes the certificate with base64.RawStdEncoding: no padding.
    expect(cert).toMatch(/^[A-Za-z0-9+/]+$/);
    const der = Buffer.from(cert!, 'base64');
    const serverCert = new X509Certificate(der);
    expect(serverCert.checkHost('localhost')).toBe('localhost');

    const client = connect(address!, {
      serverCertPem: serverCert.toString(),
      certPem: host.certPem,
      keyPem: host.keyPem,
    });
    expect(await client.health()).toEqual({ status: 'SERVING' });
    const schema = await client.call('GetProviderSchema');
    expect(Object.keys(schema['resource_schemas'] as object)).toContain('reg_namespace');
    await client.shutdown();
    client.close();
    expect(await p.exit).toBe(0);
  });

  it('ignores SIGINT (Terraform stops it through StopProvider) until shut down', async () => {
    const p = startPlugin(entries.sched, { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE });
    const line = await p.firstLine;
    expect(line).toMatch(/\|grpc\|$/);
    p.child.kill('SIGINT');
    const client = connect(line.split('|')[3]!);
    expect(await client.call('StopProvider')).toEqual({ Error: '' });
    expect(await client.health()).toEqual({ status: 'SERVING' });
    await client.shutdown();
    client.close();
    expect(await p.exit).toBe(0);
  });
});
