/**
 * Terraform's pg backend, on the same tables and the same locks so that terraform and cdktf-sched
 * share one state: schema `terraform_remote_state` (or schema_name), table `states(id, name, data)`
 * with one row per workspace (`default` for the default one), ids from `public.global_states_id_seq`.
 *
 * Locking is a PostgreSQL session advisory lock on the row's id, taken with the creation lock -1 as
 * terraform takes them (internal/backend/remote-state/pg/client.go): so a lock held by either tool
 * refuses the other, and a holder that dies releases it with its connection. Each locked store keeps
 * its own connection for the run for that reason.
 */
import type { Client, ClientConfig } from 'pg';
import { lazyModule } from '../../../common/lazy-module';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pgModule = lazyModule(() => require('pg') as typeof import('pg'));
import type { PgBackendConfig } from './config';
import { SerialGuard } from './serial-guard';
import { StateFile } from '../state-file';
import { newLockInfo, type LockInfo } from '../lock';
import {
  BackendError,
  DEFAULT_WORKSPACE,
  type OpenStoreOptions,
  type StateBackend,
  type StateStore,
} from './types';

type Env = Readonly<Record<string, string | undefined>>;

/** PostgreSQL's identifier quoting, as lib/pq's QuoteIdentifier does it. */
function quoteIdent(name: string): string {
  return `"${name.replace(/\0/g, '').replace(/"/g, '""')}"`;
}

/** The connection settings: conn_str (or PG_CONN_STR), else libpq's PG* variables of `env`. */
function clientConfig(cfg: PgBackendConfig, env: Env): ClientConfig {
  const base: ClientConfig = { application_name: 'cdktf-sched' };
  if (cfg.connStr) return { ...base, connectionString: cfg.connStr };
  const port = env['PGPORT'] ? Number(env['PGPORT']) : undefined;
  return {
    ...base,
    ...(env['PGHOST'] ? { host: env['PGHOST'] } : {}),
    ...(port ? { port } : {}),
    ...(env['PGUSER'] ? { user: env['PGUSER'] } : {}),
    ...(env['PGPASSWORD'] ? { password: env['PGPASSWORD'] } : {}),
    ...(env['PGDATABASE'] ? { database: env['PGDATABASE'] } : {}),
  };
}

/** A connection error without the connection string (it may carry a password). */
function connectError(e: unknown, cfg: PgBackendConfig): BackendError {
  let msg = e instanceof Error ? e.message : String(e);
  if (cfg.connStr) msg = msg.split(cfg.connStr).join('<conn_str>');
  return new BackendError(`pg backend: cannot connect to PostgreSQL: ${msg}`);
}

async function connect(cfg: PgBackendConfig, env: Env): Promise<Client> {
  const client = new (pgModule().Client)(clientConfig(cfg, env));
  // A server that goes away mid-run surfaces on the next query; an unhandled 'error' would crash.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw connectError(e, cfg);
  }
  return client;
}

/** Creates the schema, the id sequence, the table and the index, each unless skipped (as terraform). */
async function prepareTables(db: Client, cfg: PgBackendConfig, schema: string): Promise<void> {
  if (!cfg.skipSchemaCreation) {
    const r = await db.query<{ count: string }>(
      'select count(1) as count from information_schema.schemata where schema_name = $1',
      [cfg.schemaName],
    );
    // CREATE SCHEMA needs a privilege a state user may lack, so it only runs when the schema is missing.
    if (Number(r.rows[0]?.count ?? 0) < 1) await db.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  }
  if (!cfg.skipTableCreation) {
    await db.query('CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint');
    await db.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.states (
        id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY,
        name text UNIQUE,
        data text
      )`,
    );
  }
  if (!cfg.skipIndexCreation)
    await db.query(`CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON ${schema}.states (name)`);
}

interface Sql {
  schema: string;
  select: string;
  upsert: string;
  lockRow: string;
}

function sqlFor(schema: string): Sql {
  return {
    schema,
    select: `SELECT data FROM ${schema}.states WHERE name = $1`,
    upsert: `INSERT INTO ${schema}.states (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE states.name = $1`,
    lockRow: `SELECT states.id, pg_try_advisory_lock(states.id) AS did_lock, pg_try_advisory_lock(-1) AS did_lock_create FROM ${schema}.states WHERE states.name = $1`,
  };
}

function lockedError(workspace: string, schemaName: string, why: string): BackendError {
  return new BackendError(
    [
      `The state is locked: ${why} (pg backend, schema "${schemaName}", workspace "${workspace}").`,
      'Another terraform or cdktf-sched run holds it. Wait for it to finish; a PostgreSQL advisory lock',
      'goes away by itself when its holder exits or loses its connection (there is nothing to force-unlock).',
    ].join('\n'),
  );
}

/**
 * Takes the row's advisory lock as terraform does: the row id and -1 together; -1 released at once
 * unless someone is creating a workspace. Returns the advisory key to release.
 */
async function lockRow(db: Client, sql: Sql, workspace: string, schemaName: string): Promise<string> {
  const r = await db.query<{ id: string; did_lock: boolean; did_lock_create: boolean }>(sql.lockRow, [
    workspace,
  ]);
  const row = r.rows[0];
  if (!row) throw new BackendError(`pg backend: workspace "${workspace}" vanished while being locked`);
  if (!row.did_lock) {
    if (row.did_lock_create) await db.query('SELECT pg_advisory_unlock(-1)');
    throw lockedError(workspace, schemaName, `workspace "${workspace}" is already locked`);
  }
  if (!row.did_lock_create) {
    await db.query('SELECT pg_advisory_unlock($1::bigint)', [row.id]);
    throw lockedError(workspace, schemaName, 'a workspace is being created');
  }
  await db.query('SELECT pg_advisory_unlock(-1)');
  return row.id;
}

/** A workspace without a row gets one with an empty state under the creation lock, as terraform's StateMgr does. */
async function ensureRow(db: Client, sql: Sql, workspace: string, schemaName: string): Promise<void> {
  const exists = await db.query(sql.select, [workspace]);
  if (exists.rows.length > 0) return;
  const got = await db.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(-1) AS ok');
  if (!got.rows[0]?.ok) throw lockedError(workspace, schemaName, 'a workspace is being created');
  try {
    const empty = StateFile.empty();
    await db.query(
      `INSERT INTO ${sql.schema}.states (name, data) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      [workspace, empty.serialize()],
    );
  } finally {
    await db.query('SELECT pg_advisory_unlock(-1)');
  }
}

function pgStore(
  db: Client,
  sql: Sql,
  workspace: string,
  description: string,
  lock: LockInfo | undefined,
): StateStore {
  const guard = new SerialGuard(description);
  let closed = false;
  return {
    description,
    ...(lock ? { lock } : {}),
    async read() {
      const r = await db.query<{ data: string | null }>(sql.select, [workspace]);
      const data = r.rows[0]?.data ?? undefined;
      const found = data === undefined || data.trim() === '' ? undefined : data;
      guard.observe(found);
      return found;
    },
    async write(text, meta) {
      guard.check(meta);
      await db.query(sql.upsert, [workspace, text]);
      guard.wrote(meta);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (lock) await db.query('SELECT pg_advisory_unlock($1::bigint)', [lock.Path]).catch(() => undefined);
      await db.end().catch(() => undefined);
    },
  };
}

export function pgBackend(cfg: PgBackendConfig, env: Env): StateBackend {
  const schema = quoteIdent(cfg.schemaName);
  const sql = sqlFor(schema);
  let prepared = false;
  const open = async (): Promise<Client> => {
    const db = await connect(cfg, env);
    try {
      if (!prepared) await prepareTables(db, cfg, schema);
      prepared = true;
      return db;
    } catch (e) {
      await db.end().catch(() => undefined);
      throw e instanceof BackendError ? e : new BackendError(`pg backend: ${(e as Error).message}`);
    }
  };
  const withDb = async <T>(fn: (db: Client) => Promise<T>): Promise<T> => {
    const db = await open();
    try {
      return await fn(db);
    } finally {
      await db.end().catch(() => undefined);
    }
  };
  const where = (ws: string): string => `pg schema "${cfg.schemaName}", workspace "${ws}"`;
  return {
    type: 'pg',
    workspaces: () =>
      withDb(async (db) => {
        const r = await db.query<{ name: string }>(
          `SELECT name FROM ${schema}.states WHERE name != 'default' ORDER BY name`,
        );
        return [DEFAULT_WORKSPACE, ...r.rows.map((x) => x.name)];
      }),
    createWorkspace: (name) => withDb((db) => ensureRow(db, sql, name, cfg.schemaName)),
    deleteWorkspace: (name) =>
      withDb(async (db) => {
        if (name === DEFAULT_WORKSPACE) throw new BackendError("can't delete default state");
        await db.query(`DELETE FROM ${schema}.states WHERE name = $1`, [name]);
      }),
    async open(workspace: string, opts: OpenStoreOptions) {
      const db = await open();
      try {
        if (!opts.lock) return pgStore(db, sql, workspace, where(workspace), undefined);
        await ensureRow(db, sql, workspace, cfg.schemaName);
        const key = await lockRow(db, sql, workspace, cfg.schemaName);
        return pgStore(db, sql, workspace, where(workspace), newLockInfo(opts.lock, key));
      } catch (e) {
        await db.end().catch(() => undefined);
        throw e;
      }
    },
    close: async () => undefined,
  };
}
