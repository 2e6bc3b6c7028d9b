/** Calls from this registry to a peer's internal peering endpoints (the dev agent's stand-in for gRPC). */
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

/** POSTs JSON to the first address that answers; a 4xx/5xx answer is PeerRejected, no answer at all rethrows. */
export async function callPeer<T>(addresses: readonly string[], path: string, body: unknown): Promise<T> {
  let lastError: unknown = new Error('no server addresses');
  for (const addr of addresses) {
    let res: Response;
    try {
      res = await fetch(`http://${addr}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (err) {
      lastError = err;
      continue;
    }
    const text = await res.text();
    if (!res.ok) throw new PeerRejected(res.status, text.trim() || `status ${res.status}`);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
  throw lastError;
}

export function unreachable(addresses: readonly string[], err: unknown): HttpError {
  const why =
    err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return new HttpError(502, `PeeringToken: could not reach the peer at ${addresses.join(', ')}: ${why}`);
}
