/** Reads the raw event stream line by line, so tests see heartbeats and exact wire messages. */
import { request, type IncomingMessage } from 'node:http';

export interface WireEvent {
  Topic: string;
  Type: string;
  Key: string;
  Namespace: string;
  FilterKeys: string[] | null;
  Index: number;
  Payload: Record<string, Record<string, unknown>>;
}

export interface WireMessage {
  Index?: number;
  Events?: WireEvent[];
}

export interface RawStream {
  status: number;
  /** Every line received so far, heartbeats included, parsed. */
  lines: WireMessage[];
  /** Messages with an Index (heartbeats left out). */
  messages(): Required<WireMessage>[];
  events(): WireEvent[];
  /** Resolves once `pred` holds over what was received, or rejects after `timeoutMs`. */
  until(pred: (s: RawStream) => boolean, timeoutMs?: number): Promise<void>;
  ended: Promise<void>;
  body: string;
  close(): void;
}

export function openStream(
  baseUrl: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<RawStream> {
  const url = new URL(`/v1/event/stream${query ? `?${query}` : ''}`, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res: IncomingMessage) => {
      let buf = '';
      let body = '';
      const waiters = new Set<() => void>();
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => (endResolve = r));
      const s: RawStream = {
        status: res.statusCode ?? 0,
        lines: [],
        messages: () => s.lines.filter((l): l is Required<WireMessage> => l.Index !== undefined),
        events: () => s.messages().flatMap((m) => m.Events),
        until(pred, timeoutMs = 10_000) {
          if (pred(s)) return Promise.resolve();
          return new Promise((res2, rej2) => {
            const check = (): void => {
              if (!pred(s)) return;
              clearTimeout(timer);
              waiters.delete(check);
              res2();
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rej2(
                new Error(
                  `stream condition not met in ${timeoutMs} ms; got ${JSON.stringify(s.events().map((e) => `${e.Topic}/${e.Type}`))}`,
                ),
              );
            }, timeoutMs);
            waiters.add(check);
          });
        },
        ended,
        get body() {
          return body;
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (s.status !== 200) return;
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) s.lines.push(JSON.parse(line) as WireMessage);
        }
        for (const w of [...waiters]) w();
      });
      res.on('end', endResolve);
      res.on('close', endResolve);
      resolve(s);
    });
    req.on('error', (e) => reject(e));
    req.end();
  });
}
