/**
 * The plugin's own TLS certificate for go-plugin's AutoMTLS: a fresh ECDSA P-256 key and a self-signed
 * X.509 v3 certificate for "localhost", made at every start. Node can sign but not build certificates,
 * so the few DER structures a certificate needs are written here (faster at startup than a pure-JS
 * RSA library, and no dependency). The host trusts exactly this certificate, which it receives in the
 * handshake line, so it is its own CA, as go-plugin's are.
 */
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const seq = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = p >>> 7; v > 0; v >>>= 7) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bits = (b: Buffer, unused = 0): Buffer => tlv(0x03, Buffer.from([unused]), b);

function time(d: Date): Buffer {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const body = `${pad(d.getUTCFullYear() % 100)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
  // UTCTime holds years up to 2049; GeneralizedTime after that.
  if (d.getUTCFullYear() < 2050) return tlv(0x17, Buffer.from(body));
  return tlv(0x18, Buffer.from(`${d.getUTCFullYear()}${body.slice(2)}`));
}

function name(commonName: string, organization: string): Buffer {
  return seq(set(seq(oid('2.5.4.10'), utf8(organization))), set(seq(oid('2.5.4.3'), utf8(commonName))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface PluginCertificate {
  certPem: string;
  keyPem: string;
  /** DER bytes: go-plugin sends them, base64 without padding, in the handshake line. */
  certDer: Buffer;
}

export interface CertificateOptions {
  commonName?: string;
  organization?: string;
  validForMs?: number;
  now?: Date;
}

export function generateCertificate(opts: CertificateOptions = {}): PluginCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const now = opts.now ?? new Date();
  // A little slack for clocks that disagree by a few seconds between host and plugin.
  const notBefore = new Date(now.getTime() - 30_000);
  const notAfter = new Date(now.getTime() + (opts.validForMs ?? 30 * 24 * 3600_000));
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const subject = name(opts.commonName ?? 'localhost', opts.organization ?? 'cdktf-sched');
  const extensions = seq(
    // digitalSignature and keyCertSign: it signs TLS handshakes and, as its own CA, itself.
    extension('2.5.29.15', true, bits(Buffer.from([0x84]), 2)),
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))),
    extension('2.5.29.19', true, seq(bool(true))),
    extension(
      '2.5.29.17',
      false,
      seq(tlv(0x82, Buffer.from('localhost')), tlv(0x87, Buffer.from([127, 0, 0, 1]))),
    ),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ECDSA_WITH_SHA256,
    subject,
    seq(time(notBefore), time(notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certDer = seq(tbs, ECDSA_WITH_SHA256, bits(signature));
  const b64 = certDer.toString('base64').replace(/(.{64})/g, '$1\n');
  return {
    certDer,
    certPem: `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Checks that a PEM certificate parses and its signature verifies with its own key. */
export function verifySelfSigned(certPem: string, keyPem?: string): boolean {
  const cert = new X509Certificate(certPem);
  if (keyPem && !cert.checkPrivateKey(createPrivateKey(keyPem))) return false;
  return cert.verify(cert.publicKey);
}
