/**
 * `GET /v1/client/allocation/<id>/exec` as a WebSocket (spec 4.3). Malformed query parameters are
 * refused with a plain HTTP 400 before the upgrade. Everything after it follows Nomad: the token
 * (from the headers, or with `ws_handshake=true` from the first frame `{version: 1, auth_token}`)
 * is checked, then the allocation and task; failures close the socket with 1008 and the reason
 * (1011 for internal errors), which clients map back to 403/404/400.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { ExecAuthFrameSchema } from '../../../api/sched/schemas';
import { headerToken } from '../../http/token';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors';
import type { SchedAuthorizer } from '../acl/authorize';
import type { SchedContext } from '../context';
import type { AllocRecord } from '../model';
import { checkRegion, requireUuid } from '../routes/common';
import { findGroup } from '../scheduler/resources';
import { isTerminalAlloc } from '../state';
import { T } from '../tables';
import type { ExecManager } from './manager';
import { CLOSE_INTERNAL, CLOSE_POLICY, closeWith } from './session';

const EXEC_PATH = /^\/v1\/client\/allocation\/([^/]+)\/exec\/?$/;
const HANDSHAKE_TIMEOUT_MS = 30_000;

interface ExecQuery {
  allocId: string;
  command: string[];
  task: string;
  tty: boolean;
  handshake: boolean;
  namespace: string;
}

function boolValue(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null) return false;
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw badRequest(`${name}: must be true or false, got "${v}"`);
}

function parseQuery(allocId: string, q: URLSearchParams): ExecQuery {
  const raw = q.get('command');
  if (!raw) throw badRequest('command: the command to run is required (a JSON array)');
  let command: unknown;
  try {
    command = JSON.parse(raw);
  } catch {
    throw badRequest('command: must be a JSON-encoded array of strings');
  }
  if (!Array.isArray(command) || command.length === 0 || command.some((c) => typeof c !== 'string'))
    throw badRequest('command: must be a non-empty JSON array of strings');
  if (command[0] === '') throw badRequest('command: the program name must not be empty');
  const task = q.get('task');
  if (!task) throw badRequest('task: the task name is required');
  return {
    allocId,
    command: command as string[],
    task,
    tty: boolValue(q, 'tty'),
    handshake: boolValue(q, 'ws_handshake'),
    namespace: q.get('namespace') || 'default',
  };
}

function refuse(socket: Duplex, status: number, message: string): void {
  const reason = status === 400 ? 'Bad Request' : status === 404 ? 'Not Found' : 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`,
  );
}

/**
 * Holds the frames that arrive before the session exists: the handshake frame (first, when asked
 * for) and anything the client sends right behind it, which the session replays in order.
 */
class EarlyFrames {
  readonly queued: string[] = [];
  private waiting: { resolve: (t: string) => void; reject: (e: unknown) => void } | undefined;
  private first: string | undefined;
  private closed = false;
  private readonly onMessage = (raw: WebSocket.RawData): void => {
    const text = raw.toString();
    if (this.waiting && this.first === undefined) {
      this.first = text;
      this.waiting.resolve(text);
    } else this.queued.push(text);
  };
  private readonly onClose = (): void => {
    this.closed = true;
    this.waiting?.reject(new HttpError(499, 'client closed the connection'));
  };

  constructor(private readonly ws: WebSocket) {
    ws.on('message', this.onMessage);
    ws.on('close', this.onClose);
  }

  /** The token of the `{version: 1, auth_token}` frame. */
  async handshake(): Promise<string> {
    if (this.closed) throw new HttpError(499, 'client closed the connection');
    let timer: NodeJS.Timeout | undefined;
    const text =
      this.queued.length > 0
        ? this.queued.shift()!
        : await new Promise<string>((resolve, reject) => {
            this.waiting = { resolve, reject };
            timer = setTimeout(
              () => reject(badRequest('ws_handshake: no authentication frame received')),
              HANDSHAKE_TIMEOUT_MS,
            );
          }).finally(() => clearTimeout(timer));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest('ws_handshake: the first frame is not JSON');
    }
    const r = ExecAuthFrameSchema.safeParse(parsed);
    if (!r.success)
      throw badRequest('ws_handshake: the first frame must be {"version": 1, "auth_token": "..."}');
    return r.data.auth_token;
  }

  release(): string[] {
    this.ws.off('message', this.onMessage);
    this.ws.off('close', this.onClose);
    return this.queued;
  }
}

export interface ExecUpgrade {
  /** The scheduler server's `upgrade` handler. */
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every open exec socket (agent shutdown). */
  close(): void;
}

export function createExecUpgrade(
  sc: SchedContext,
  auth: SchedAuthorizer,
  manager: ExecManager,
): ExecUpgrade {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });

  /** Checks made after the upgrade; throws HttpError. */
  const admit = (q: ExecQuery, token: string | undefined): AllocRecord => {
    const { acl } = auth.identifySecret(token);
    const ns = q.namespace;
    const need = ['namespace:alloc-exec'];
    if (!auth.allows(acl, need[0]!, ns)) throw forbidden();
    requireUuid(q.allocId, 'alloc_id');
    const key = sc.state.keyOf(q.allocId);
    const alloc = key ? sc.store.get<AllocRecord>(T.allocs, key) : undefined;
    if (!alloc) throw notFound('alloc not found');
    const task = (findGroup(alloc.Job, alloc.TaskGroup)?.Tasks ?? []).find((t) => t.Name === q.task);
    // Tasks of the raw_exec driver run on the host itself, which Nomad guards with one more capability.
    if (task?.Driver === 'raw_exec') need.push('namespace:alloc-node-exec');
    if (!need.every((c) => auth.allows(acl, c, alloc.Namespace))) {
      if (alloc.Namespace !== ns) throw notFound('alloc not found');
      throw forbidden();
    }
    if (!task) throw notFound(`unknown task name "${q.task}"`);
    if (isTerminalAlloc(alloc))
      throw badRequest(`allocation ${alloc.ID} is not running (client status "${alloc.ClientStatus}")`);
    if (alloc.TaskStates[q.task]?.State !== 'running') throw badRequest(`task "${q.task}" is not running`);
    return alloc;
  };

  const accept = async (ws: WebSocket, q: ExecQuery, header: string | undefined): Promise<void> => {
    const early = new EarlyFrames(ws);
    try {
      const token = q.handshake ? await early.handshake() : header;
      const alloc = admit(q, token || header);
      const frames = early.release();
      const session = manager.open(ws, { alloc, task: q.task, command: q.command, tty: q.tty });
      for (const f of frames) session.deliver(f);
    } catch (err) {
      early.release();
      if (err instanceof HttpError) {
        if (err.status !== 499) closeWith(ws, err.status >= 500 ? CLOSE_INTERNAL : CLOSE_POLICY, err.message);
        return;
      }
      sc.log(`exec: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      closeWith(ws, CLOSE_INTERNAL, 'internal error');
    }
  };

  return {
    handle(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://agent');
      const m = EXEC_PATH.exec(url.pathname);
      if (!m) return refuse(socket, 404, `Invalid URL path: ${url.pathname}`);
      let q: ExecQuery;
      try {
        checkRegion(sc, { query: url.searchParams } as Parameters<typeof checkRegion>[1]);
        q = parseQuery(decodeURIComponent(m[1]!), url.searchParams);
      } catch (err) {
        if (err instanceof HttpError) return refuse(socket, err.status, err.message);
        throw err;
      }
      wss.handleUpgrade(
        req,
        socket,
        head,
        (ws) => void accept(ws, q, headerToken(req.headers, 'x-sched-token')),
      );
    },
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
