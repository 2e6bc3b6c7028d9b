/**
 * Terraform's http backend (GitLab's managed state speaks it): GET the state, POST it back (or
 * update_method), DELETE it; locking by LOCK/UNLOCK (or lock_method/unlock_method) to
 * lock_address/unlock_address with Terraform's LockInfo as the body, 423 or 409 meaning "held".
 * While locked, writes carry `?ID=<lock id>` as terraform's do. No workspaces: only `default`.
 */
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { undici } from '../../../api/undici';
import { LockInfoSchema, newLockInfo, type LockInfo } from '../lock';
import type { HttpBackendConfig } from './config';
import { SerialGuard } from './serial-guard';
import {
  BackendError,
  DEFAULT_WORKSPACE,
  type LockRequest,
  type OpenStoreOptions,
  type StateBackend,
  type StateStore,
} from './types';

interface Reply {
  status: number;
  body: string;
}

/** A URL for messages: credentials and the query (tokens travel there) left out. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<address>';
  }
}

class HttpClient {
  private readonly dispatcher: Dispatcher | undefined;

  constructor(private readonly cfg: HttpBackendConfig) {
    this.dispatcher = cfg.skipCertVerification
      ? new (undici().Agent)({ connect: { rejectUnauthorized: false } })
      : undefined;
  }

  /** One request, retried on connection errors and 5xx as terraform's retrying client does. */
  async send(method: string, url: string, body: string | undefined, what: string): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.cfg.username !== undefined && this.cfg.username !== '')
      headers['authorization'] =
        `Basic ${Buffer.from(`${this.cfg.username}:${this.cfg.password ?? ''}`).toString('base64')}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-md5'] = createHash('md5').update(body).digest('base64');
    }
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.cfg.retryMax; attempt++) {
      if (attempt > 0)
        await new Promise((r) => setTimeout(r, this.cfg.retryWaitMinS * 1000 * 2 ** (attempt - 1)));
      try {
        const res = await undici().request(url, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
        });
        const text = await res.body.text();
        if (res.statusCode >= 500 && attempt < this.cfg.retryMax) continue;
        return { status: res.statusCode, body: text };
      } catch (e) {
        lastError = e;
      }
    }
    throw new BackendError(
      `http backend: failed to ${what} at ${shown(url)}: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
    );
  }

  close(): Promise<void> {
    return this.dispatcher?.close() ?? Promise.resolve();
  }
}

function statusError(what: string, url: string, status: number): BackendError {
  const why =
    status === 401
      ? 'the endpoint requires authentication (username/password or TF_HTTP_USERNAME/TF_HTTP_PASSWORD)'
      : status === 403
        ? 'the credentials were refused'
        : `unexpected HTTP status ${status}`;
  return new BackendError(`http backend: ${what} at ${shown(url)}: ${why}`);
}

async function takeLock(
  client: HttpClient,
  cfg: HttpBackendConfig,
  req: LockRequest,
): Promise<LockInfo | undefined> {
  if (!cfg.lockAddress) return undefined;
  const info = newLockInfo(req, '');
  const r = await client.send(cfg.lockMethod, cfg.lockAddress, JSON.stringify(info), 'lock the state');
  if (r.status === 200) return info;
  if (r.status === 409 || r.status === 423) {
    let held: LockInfo | undefined;
    try {
      const parsed = LockInfoSchema.safeParse(JSON.parse(r.body));
      if (parsed.success) held = parsed.data;
    } catch {
      held = undefined;
    }
    throw new BackendError(
      [
        `The state is locked (http backend, ${shown(cfg.lockAddress)})${held ? `: ID=${held.ID}` : ''}.`,
        ...(held
          ? [`  Who: ${held.Who}`, `  Operation: ${held.Operation}`, `  Created: ${held.Created}`]
          : []),
        'Wait for that run to finish.',
      ].join('\n'),
    );
  }
  throw statusError('lock the state', cfg.lockAddress, r.status);
}

function httpStore(client: HttpClient, cfg: HttpBackendConfig, lock: LockInfo | undefined): StateStore {
  const description = `http state ${shown(cfg.address)}`;
  const guard = new SerialGuard(description);
  let closed = false;
  const writeUrl = (): string => {
    if (!lock) return cfg.address;
    const u = new URL(cfg.address);
    u.searchParams.set('ID', lock.ID);
    return u.toString();
  };
  return {
    description,
    ...(lock ? { lock } : {}),
    async read() {
      const r = await client.send('GET', cfg.address, undefined, 'read the state');
      if (r.status === 204 || r.status === 404) return undefined;
      if (r.status !== 200) throw statusError('read the state', cfg.address, r.status);
      const found = r.body.trim() === '' ? undefined : r.body;
      guard.observe(found);
      return found;
    },
    async write(text, meta) {
      guard.check(meta);
      const r = await client.send(cfg.updateMethod, writeUrl(), text, 'write the state');
      if (r.status !== 200 && r.status !== 201 && r.status !== 204)
        throw statusError('write the state', cfg.address, r.status);
      guard.wrote(meta);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (lock && cfg.unlockAddress) {
          const r = await client.send(
            cfg.unlockMethod,
            cfg.unlockAddress,
            JSON.stringify(lock),
            'unlock the state',
          );
          if (r.status !== 200) throw statusError('unlock the state', cfg.unlockAddress, r.status);
        }
      } finally {
        await client.close();
      }
    },
  };
}

function noWorkspaces(): BackendError {
  return new BackendError('the http backend has no workspaces other than "default" (as in terraform)');
}

export function httpBackend(cfg: HttpBackendConfig): StateBackend {
  return {
    type: 'http',
    workspaces: async () => [DEFAULT_WORKSPACE],
    createWorkspace: async () => {
      throw noWorkspaces();
    },
    deleteWorkspace: async () => {
      throw noWorkspaces();
    },
    async open(workspace: string, opts: OpenStoreOptions) {
      if (workspace !== DEFAULT_WORKSPACE) throw noWorkspaces();
      const client = new HttpClient(cfg);
      try {
        const lock = opts.lock ? await takeLock(client, cfg, opts.lock) : undefined;
        return httpStore(client, cfg, lock);
      } catch (e) {
        await client.close();
        throw e;
      }
    },
    close: async () => undefined,
  };
}
