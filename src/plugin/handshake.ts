/**
 * go-plugin's handshake, as Terraform runs a provider: the host sets a magic cookie (so a plugin run by
 * hand says what it is instead of waiting forever), the protocol versions it speaks, and its client
 * certificate for AutoMTLS; the plugin answers with one line on stdout:
 *
 *   CORE-PROTOCOL-VERSION | APP-PROTOCOL-VERSION | NETWORK | ADDRESS | PROTOCOL | SERVER-CERT
 *   1|6|tcp|127.0.0.1:43210|grpc|MIIB...   (the certificate's DER, base64 without padding)
 */
export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
export const CORE_PROTOCOL_VERSION = 1;
export const PROTOCOL_VERSION = 6;

export class HandshakeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandshakeError';
  }
}

export interface HandshakeEnv {
  /** The host's client certificate (PEM) when it wants mutual TLS. */
  clientCertPem: string | undefined;
}

/** Reads what the host said through the environment; throws when this is no host we can serve. */
export function readHandshakeEnv(env: Readonly<Record<string, string | undefined>>): HandshakeEnv {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new HandshakeError(
      'This binary is a Terraform provider plugin. It is not meant to be run directly: Terraform or ' +
        'OpenTofu start it (see `cdktf-sched terraform-mirror`).',
    );
  }
  const versions = env['PLUGIN_PROTOCOL_VERSIONS'];
  if (versions) {
    const offered = versions.split(',').map((v) => Number(v.trim()));
    if (!offered.includes(PROTOCOL_VERSION)) {
      throw new HandshakeError(
        `Incompatible plugin protocol: this provider speaks version ${PROTOCOL_VERSION}, the host offers ${versions} (Terraform 1.0 or later speaks 6)`,
      );
    }
  }
  const cert = env['PLUGIN_CLIENT_CERT'];
  return { clientCertPem: cert && cert.trim() !== '' ? cert : undefined };
}

export function handshakeLine(address: string, certDer?: Buffer): string {
  const cert = certDer ? certDer.toString('base64').replace(/=+$/, '') : '';
  return `${CORE_PROTOCOL_VERSION}|${PROTOCOL_VERSION}|tcp|${address}|grpc|${cert}`;
}
