/** Calls from this registry to a peer's internal peering endpoints (the dev agent's stand-in for gRPC). */
import type { request } from 'undici';
import { undici } from '../../../api/undici';
import { HttpError } from '../../http/errors';

const CALL_TIMEOUT_MS = 5000;

export class PeerRejected extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PeerRejected';
  }
}

/** Where a peer answers: `host:port` addresses and, for a peer that serves TLS, the CAs to trust. */
export interface PeerTarget {
  addresses: readonly string[];
  caPems?: readonly string[] | null | undefined;
}

/** This registry's own TLS identity, presented to peers that verify their clients. */
export interface OwnTls {
  cert: string;
  key: string;
}

/** POSTs JSON to the first address that answers; a 4xx/5xx answer is PeerRejected, no answer at all rethrows. */
export async function callPeer<T>(target: PeerTarget, path: string, body: unknown, own?: OwnTls): Promise<T> {
  const tls = target.caPems && target.caPems.length > 0;
  const dispatcher = tls
    ? new (undici().Agent)({ connect: { ca: [...target.caPems!], cert: own?.cert, key: own?.key } })
    : undefined;
  let lastError: unknown = new Error('no server addresses');
  try {
    for (const addr of target.addresses) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await undici().request(`${tls ? 'https' : 'http'}://${addr}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
          ...(dispatcher ? { dispatcher } : {}),
        });
      } catch (err) {
        lastError = err;
        continue;
      }
      const text = await res.body.text();
      if (res.statusCode >= 400)
        throw new PeerRejected(res.statusCode, text.trim() || `status ${res.statusCode}`);
      return (text === '' ? {} : JSON.parse(text)) as T;
    }
    throw lastError;
  } finally {
    await dispatcher?.close();
  }
}

export function unreachable(addresses: readonly string[], err: unknown): HttpError {
  const why =
    err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return new HttpError(502, `PeeringToken: could not reach the peer at ${addresses.join(', ')}: ${why}`);
}
