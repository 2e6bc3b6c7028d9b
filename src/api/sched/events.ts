/**
 * The event stream (spec section 6): newline-delimited `{Index, Events[]}` messages over a long GET.
 * A dropped connection is resumed from the index after the last message delivered, so a consumer sees
 * every message once even across reconnects (as long as the server's buffer still holds them).
 */
import {
  ConnectionError,
  RequestTimeoutError,
  RequestValidationError,
  ResponseSchemaError,
  ServerError,
} from '../errors';
import { type Transport } from '../transport';
import { formatIssuePath } from '../issue-path';
import type { Dialect } from '../dialect';
import { EventStreamMessageSchema, type EventStreamMessage } from './schemas';

export interface ReconnectOptions {
  /** First pause after a drop (default 250 ms); doubles up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Consecutive failed reconnects before giving up (default 10). */
  maxAttempts?: number;
}

export interface EventStreamOptions {
  /** Topic to filter keys, e.g. `{Job: ['*'], Deployment: ['web']}`; an empty list means the whole topic. Omitted: all topics (management token). */
  topics?: Record<string, readonly string[]>;
  namespace?: string;
  region?: string;
  token?: string;
  /** Start from this index (0: the whole buffer). */
  index?: number;
  signal?: AbortSignal;
  /** `false` ends the iteration (or throws) on the first drop instead of reconnecting. */
  reconnect?: ReconnectOptions | false;
  /** Longest silence tolerated between chunks; the server sends a heartbeat every 10 s (default 60 s). */
  idleTimeoutMs?: number;
}

const PATH = '/v1/event/stream';

function topicParams(topics: Record<string, readonly string[]> | undefined): string[] | undefined {
  if (!topics) return undefined;
  const out: string[] = [];
  for (const [topic, keys] of Object.entries(topics)) {
    if (!topic || topic.includes(':')) {
      throw new RequestValidationError(
        'topics',
        `topic name ${JSON.stringify(topic)} must be non-empty without ':'`,
      );
    }
    if (keys.length === 0) out.push(topic);
    for (const key of keys) {
      if (!key) throw new RequestValidationError(`topics.${topic}`, 'filter keys must be non-empty');
      out.push(`${topic}:${key}`);
    }
  }
  return out;
}

/** Drops and server hiccups are worth another try; refusals (4xx) and garbage are not. */
function isTransient(err: unknown): boolean {
  return err instanceof ConnectionError || err instanceof RequestTimeoutError || err instanceof ServerError;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function parseLine(line: string, dialect: Dialect): EventStreamMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new ResponseSchemaError('GET', PATH, '', `event stream line is not JSON (${line.slice(0, 80)})`);
  }
  // A heartbeat is an object without an Index (`{}`).
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && !('Index' in parsed)) {
    return undefined;
  }
  const result = EventStreamMessageSchema.safeParse(dialect.fromWire(parsed));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ResponseSchemaError('GET', PATH, formatIssuePath(issue.path), issue.message);
  }
  return result.data;
}

export class EventsApi {
  constructor(private readonly t: Transport) {}

  /** Messages of the event stream, heartbeats skipped, reconnecting on drops. Ends quietly on abort. */
  stream(opts: EventStreamOptions = {}): AsyncIterable<EventStreamMessage> {
    const topic = topicParams(opts.topics);
    if (opts.index !== undefined && (!Number.isInteger(opts.index) || opts.index < 0)) {
      throw new RequestValidationError('index', 'must be a non-negative integer');
    }
    return this.run(opts, topic);
  }

  private async *run(
    opts: EventStreamOptions,
    topic: string[] | undefined,
  ): AsyncGenerator<EventStreamMessage> {
    const reconnect = opts.reconnect === false ? undefined : (opts.reconnect ?? {});
    const base = reconnect?.baseDelayMs ?? 250;
    const max = reconnect?.maxDelayMs ?? 10_000;
    const maxAttempts = reconnect?.maxAttempts ?? 10;
    let nextIndex = opts.index ?? 0;
    let lastDelivered = -1;
    let failures = 0;
    for (;;) {
      if (opts.signal?.aborted) return;
      let lastError: unknown;
      try {
        const { lines } = await this.t.openStream(PATH, {
          namespace: opts.namespace,
          region: opts.region,
          token: opts.token,
          signal: opts.signal,
          index: nextIndex,
          idleTimeoutMs: opts.idleTimeoutMs,
          params: { topic },
        });
        for await (const line of lines) {
          const msg = parseLine(line, this.t.dialect);
          if (!msg) continue;
          failures = 0;
          // The server may repeat the message at the resume index; each index is delivered once.
          if (msg.Index <= lastDelivered) continue;
          lastDelivered = msg.Index;
          nextIndex = msg.Index + 1;
          yield msg;
        }
        lastError = new ConnectionError('GET', PATH, 'the server closed the event stream');
      } catch (err) {
        if (opts.signal?.aborted) return;
        if (!isTransient(err)) throw err;
        lastError = err;
      }
      if (!reconnect) {
        if (lastError instanceof ConnectionError && /closed the event stream/.test(lastError.message)) return;
        throw lastError;
      }
      failures++;
      if (failures > maxAttempts) throw lastError;
      const delay = Math.min(max, base * 2 ** (failures - 1));
      // Jitter keeps many watchers from reconnecting in lockstep after a server restart.
      if (!(await sleep(Math.round(delay / 2 + (Math.random() * delay) / 2), opts.signal))) return;
    }
  }
}
