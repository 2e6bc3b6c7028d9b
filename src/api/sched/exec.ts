/**
 * Exec in an allocation over a WebSocket (spec 4.3). Frames are JSON; byte data travels base64.
 * The socket is the only long-lived state: stdout/stderr are pull-based queues, `exited` settles once.
 */
import type WebSocket from 'ws';
import { lazyModule } from '../../common/lazy-module';
import { ConnectionError, RequestValidationError, ResponseSchemaError, errorForStatus } from '../errors';
import { type Transport } from '../transport';
import { formatIssuePath } from '../issue-path';
import { Channel } from './channel';
import { seg } from './paths';
import { ExecResponseFrameSchema, type ExecAuthFrame, type ExecRequestFrame } from './schemas';
import { requireNonEmpty } from './validate';

// ws loads https, tls and zlib at its top: the sched client is in every plan, exec in few.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const webSocket = lazyModule(() => require('ws') as typeof WebSocket);

export interface ExecOptions {
  /** Command and arguments; sent as a JSON array. */
  command: readonly string[];
  task: string;
  tty?: boolean;
  /** Send the token in a first `{version: 1, auth_token}` frame (as browsers must) instead of only as a header. */
  wsHandshake?: boolean;
  namespace?: string;
  region?: string;
  token?: string;
  signal?: AbortSignal;
  /** Interval of `{}` heartbeat frames (default 10 s). */
  heartbeatMs?: number;
  /** Called for each stdout chunk; when given, the chunks do not also queue on `stdout`. */
  onStdout?: (data: Uint8Array) => void;
  onStderr?: (data: Uint8Array) => void;
}

export interface ExecResult {
  exitCode: number;
}

export interface ExecSession {
  stdin: {
    write(data: Uint8Array | string): void;
    close(): void;
  };
  /** Tells the process the terminal size changed (characters). */
  resize(height: number, width: number): void;
  stdout: AsyncIterable<Uint8Array>;
  stderr: AsyncIterable<Uint8Array>;
  /** Settles when the process exits; rejects if the connection ends first. */
  exited: Promise<ExecResult>;
  /** Ends the session from the client side. */
  close(): void;
}

const NORMAL_CLOSE = 1000;
const POLICY_VIOLATION = 1008;
const INTERNAL_ERROR = 1011;

/**
 * Turns a close frame into the error the HTTP API would have raised. Nomad closes with 1011 for a
 * 500 and 1008 for any other coded error; codes 4000+status carry the exact HTTP status.
 */
function closeError(code: number, reason: string, path: string): Error {
  let status: number | undefined;
  if (code >= 4100 && code < 4600) status = code - 4000;
  else if (code === INTERNAL_ERROR) status = 500;
  else if (code === POLICY_VIOLATION) {
    if (/permission denied|forbidden|acl token/i.test(reason)) status = 403;
    else if (/not found|unknown (allocation|task)/i.test(reason)) status = 404;
    else status = 400;
  }
  if (status !== undefined) {
    return errorForStatus({ status, method: 'GET', path, serverMessage: reason });
  }
  return new ConnectionError(
    'GET',
    path,
    `exec connection closed (code ${code}${reason ? `: ${reason}` : ''}) before the process exited`,
  );
}

function toBytes(data: Uint8Array | string): Buffer {
  return typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

export function execAllocation(t: Transport, allocId: string, opts: ExecOptions): Promise<ExecSession> {
  if (!Array.isArray(opts.command) || opts.command.length === 0) {
    throw new RequestValidationError('command', 'must be a non-empty array of strings');
  }
  if (opts.command.some((c) => typeof c !== 'string')) {
    throw new RequestValidationError('command', 'must contain only strings');
  }
  requireNonEmpty('task', opts.task);
  const path = `/v1/client/allocation/${seg(allocId)}/exec`;
  const target = t.websocketTarget(
    path,
    {
      command: JSON.stringify(opts.command),
      task: opts.task,
      tty: opts.tty ?? false,
      ws_handshake: opts.wsHandshake ? true : undefined,
    },
    { token: opts.token, namespace: opts.namespace, region: opts.region },
  );
  const shownPath = path;

  return new Promise<ExecSession>((resolveOpen, rejectOpen) => {
    if (opts.signal?.aborted) return rejectOpen(opts.signal.reason);
    const ws = new (webSocket())(target.url, { headers: target.headers, ...target.tls });
    const stdout = new Channel<Uint8Array>();
    const stderr = new Channel<Uint8Array>();
    let opened = false;
    let stdinClosed = false;
    let settled = false;
    let heartbeat: NodeJS.Timeout | undefined;
    let resolveExit!: (r: ExecResult) => void;
    let rejectExit!: (e: unknown) => void;
    const exited = new Promise<ExecResult>((res, rej) => {
      resolveExit = res;
      rejectExit = rej;
    });
    // The caller may only iterate output and never await `exited`; that must not crash the process.
    exited.catch(() => undefined);

    const finish = (error: unknown, result?: ExecResult): void => {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
      opts.signal?.removeEventListener('abort', onAbort);
      if (settled) return;
      settled = true;
      if (result) {
        stdout.end();
        stderr.end();
        resolveExit(result);
      } else {
        stdout.fail(error);
        stderr.fail(error);
        rejectExit(error);
      }
    };

    const onAbort = (): void => {
      const reason = opts.signal?.reason;
      if (!opened) rejectOpen(reason);
      finish(reason);
      ws.terminate();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const send = (frame: ExecRequestFrame | ExecAuthFrame): void => {
      if (ws.readyState !== ws.OPEN) {
        throw new ConnectionError('GET', shownPath, 'exec connection is not open');
      }
      ws.send(JSON.stringify(frame));
    };

    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const err = errorForStatus({
          status: res.statusCode ?? 500,
          method: 'GET',
          path: shownPath,
          serverMessage: Buffer.concat(chunks).toString('utf8').trim().slice(0, 2000),
        });
        rejectOpen(err);
        finish(err);
        ws.terminate();
      });
    });

    ws.on('error', (err) => {
      const error = new ConnectionError('GET', shownPath, err.message, (err as { code?: string }).code);
      if (!opened) rejectOpen(error);
      finish(error);
    });

    ws.on('open', () => {
      opened = true;
      if (opts.wsHandshake) send({ version: 1, auth_token: t.tokenFor(opts.token) ?? '' });
      heartbeat = setInterval(() => {
        if (ws.readyState === ws.OPEN) ws.send('{}');
      }, opts.heartbeatMs ?? 10_000);
      heartbeat.unref();
      resolveOpen(session);
    });

    ws.on('message', (raw: WebSocket.RawData) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString());
      } catch {
        finish(new ResponseSchemaError('GET', shownPath, '', 'exec frame is not JSON'));
        ws.close(NORMAL_CLOSE);
        return;
      }
      const result = ExecResponseFrameSchema.safeParse(parsed);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        finish(new ResponseSchemaError('GET', shownPath, formatIssuePath(issue.path), issue.message));
        ws.close(NORMAL_CLOSE);
        return;
      }
      const frame = result.data;
      if (frame.stdout?.data) {
        const bytes = Buffer.from(frame.stdout.data, 'base64');
        if (opts.onStdout) opts.onStdout(bytes);
        else stdout.push(bytes);
      }
      if (frame.stdout?.close) stdout.end();
      if (frame.stderr?.data) {
        const bytes = Buffer.from(frame.stderr.data, 'base64');
        if (opts.onStderr) opts.onStderr(bytes);
        else stderr.push(bytes);
      }
      if (frame.stderr?.close) stderr.end();
      if (frame.exited) {
        finish(undefined, { exitCode: frame.result?.exit_code ?? 0 });
        ws.close(NORMAL_CLOSE);
      }
    });

    ws.on('close', (code: number, reason: Buffer) => {
      finish(closeError(code, reason.toString('utf8'), shownPath));
    });

    const session: ExecSession = {
      stdin: {
        write(data: Uint8Array | string): void {
          if (stdinClosed) throw new RequestValidationError('stdin', 'is closed');
          send({ stdin: { data: toBytes(data).toString('base64') } });
        },
        close(): void {
          if (stdinClosed) return;
          stdinClosed = true;
          send({ stdin: { close: true } });
        },
      },
      resize(height: number, width: number): void {
        if (!Number.isInteger(height) || !Number.isInteger(width) || height < 0 || width < 0) {
          throw new RequestValidationError('tty_size', 'height and width must be non-negative integers');
        }
        send({ tty_size: { height, width } });
      },
      stdout,
      stderr,
      exited,
      close(): void {
        finish(new ConnectionError('GET', shownPath, 'exec session closed by the client'));
        if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(NORMAL_CLOSE);
      },
    };
  });
}
