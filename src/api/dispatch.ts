/**
 * One request whose whole response body is wanted at once (every JSON call), sent with undici's
 * `dispatch` and a handler that keeps the body's chunks. undici's `request()` costs several times as
 * much per call for what it offers and the transport does not use: a body stream, an async resource, a
 * parsed copy of every header and an abort listener per request.
 *
 * The handler implements undici's original handler methods (`onConnect`, `onHeaders`, ...). They are
 * what undici's HTTP/1 client calls itself; the newer ones are adapted onto them per request, with a
 * controller object and the headers parsed again.
 */
import type { Dispatcher } from 'undici';

export interface DispatchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  headersTimeout: number;
  bodyTimeout: number;
  signal: AbortSignal | undefined;
}

export interface CollectedResponse {
  statusCode: number;
  /**
   * The headers the transport reads (`x-*`, `content-encoding`, `retry-after`) by lower-cased name; a
   * repeated header is an array of its values, as undici's `request()` gives.
   */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Sends a request and resolves with its status, headers and whole body; rejects as undici's request() would. */
export function dispatchCollect(dispatcher: Dispatcher, req: DispatchRequest): Promise<CollectedResponse> {
  return new Promise((resolve, reject) => {
    const handler = new Collector(resolve, reject, req.signal);
    if (req.signal) {
      if (req.signal.aborted) return reject(abortReason(req.signal));
      follow(req.signal, handler);
    }
    dispatcher.dispatch(
      {
        method: req.method as Dispatcher.HttpMethod,
        path: req.path,
        headers: req.headers,
        body: req.body,
        headersTimeout: req.headersTimeout,
        bodyTimeout: req.bodyTimeout,
      },
      handler,
    );
  });
}

/** What a request stopped by `signal` rejects with: the signal's reason, or an AbortError without one. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/**
 * The requests in flight under each signal. A signal gets one abort listener for all its requests (an
 * operation's signal serves several in a row, a run's signal all of them) instead of one per request.
 */
const inFlight = new WeakMap<AbortSignal, Set<Collector>>();

function follow(signal: AbortSignal, handler: Collector): void {
  let set = inFlight.get(signal);
  if (!set) {
    const requests = new Set<Collector>();
    signal.addEventListener(
      'abort',
      () => {
        for (const r of requests) r.cancel(abortReason(signal));
        requests.clear();
      },
      { once: true },
    );
    inFlight.set(signal, requests);
    set = requests;
  }
  set.add(handler);
}

class Collector implements Dispatcher.DispatchHandler {
  private abortRequest: ((err?: Error) => void) | undefined;
  private statusCode = 0;
  private headers: Record<string, string | string[]> = {};
  private chunks: Buffer[] = [];
  private settled = false;

  constructor(
    private readonly resolve: (res: CollectedResponse) => void,
    private readonly reject: (err: unknown) => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Called again if undici sends the request anew on another connection: what came before is void. */
  onConnect(abort: (err?: Error) => void): void {
    if (this.settled) return abort();
    this.abortRequest = abort;
    this.chunks = [];
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.statusCode = statusCode;
    this.headers = headersOf(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (!this.settle()) return;
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body });
  }

  onError(err: Error): void {
    if (this.settle()) this.reject(err);
  }

  /** The caller's signal fired: settle now, and stop the request if it was sent. */
  cancel(reason: unknown): void {
    if (!this.settle()) return;
    this.reject(reason);
    this.abortRequest?.(reason instanceof Error ? reason : undefined);
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.signal) inFlight.get(this.signal)?.delete(this);
    return true;
  }
}

/**
 * Whether a header name may be one the transport reads: `x-*`, or of the first letter and length of
 * `content-encoding` or `retry-after`. The others (date, connection, ...) are not decoded at all.
 */
function mayKeep(name: Buffer): boolean {
  const c = name[0]! | 0x20; // lower case
  return c === 0x78 || (c === 0x63 && name.length === 16) || (c === 0x72 && name.length === 11);
}

function headersOf(raw: Buffer[]): Record<string, string | string[]> {
  // No prototype: a header named `__proto__` is a header like any other.
  const headers = Object.create(null) as Record<string, string | string[]>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!mayKeep(raw[i]!)) continue;
    // A name is a token (llhttp refuses any other byte), so UTF-8 reads it as Latin-1 does, by
    // toString's shortest path.
    const name = raw[i]!.toString().toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    const seen = headers[name];
    if (seen === undefined) headers[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else headers[name] = [seen, value];
  }
  return headers;
}
