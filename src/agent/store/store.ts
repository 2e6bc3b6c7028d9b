import { DurableDir, type Recovered } from './durable-dir';
import { encodeLogLine, type ChangeToLog } from './log-file';
import { deepFreeze } from './stored-copy';
import { Table } from './table';
import { TxnImpl, type Txn } from './txn';
import type { Change, Commit, StoreOptions, WatchSpec } from './types';
import { abortReason, WatchRegistry } from './watchers';

/** Index of a new store, before any write (spec 8: "initial value of the blocking index on a new cluster: 1"). */
const INITIAL_INDEX = 1;
const DEFAULT_COMPACT_EVERY = 1000;

/**
 * The dev agent's state: tables of records under one monotonically increasing index, as raft + memdb give
 * Nomad and Consul. Every write is one transaction at index+1, all-or-nothing, durable before it returns when
 * a data dir is set, and then announced to blocking-query waiters and commit listeners.
 */
export class Store {
  private readonly tables = new Map<string, Table>();
  private current = INITIAL_INDEX;
  private writing = false;
  private closed = false;
  private commitsSinceCompaction = 0;
  private readonly watchers = new WatchRegistry();
  private readonly listeners = new Set<(c: Commit) => void>();
  private readonly undelivered: Commit[] = [];
  private delivering = false;
  private readonly compactEvery: number;
  private readonly reportError: (err: unknown) => void;
  private durable: DurableDir | undefined;

  private constructor(opts: StoreOptions) {
    const every = opts.compactEvery ?? DEFAULT_COMPACT_EVERY;
    if (!Number.isSafeInteger(every) || every < 1) {
      throw new RangeError(
        `store: compactEvery must be a positive integer, got ${String(opts.compactEvery)}`,
      );
    }
    this.compactEvery = every;
    this.reportError = opts.onError ?? ((err) => console.error('store:', err));
  }

  /** Opens a store; with `dataDir`, takes its lock and recovers the snapshot and log found there. */
  static open(opts: StoreOptions = {}): Store {
    const store = new Store(opts);
    if (opts.dataDir !== undefined) {
      const { durable, recovered } = DurableDir.open(opts.dataDir, INITIAL_INDEX);
      try {
        store.recover(recovered);
      } catch (err) {
        durable.close();
        throw err;
      }
      store.durable = durable;
      store.commitsSinceCompaction = durable.logEntries;
    }
    return store;
  }

  /** The index of the last commit (1 on a new store). */
  get index(): number {
    return this.current;
  }

  /** The stored record (frozen: copy it before changing it), or undefined. */
  get<T>(table: string, key: string): T | undefined {
    return this.tables.get(table)?.get(key)?.value as T | undefined;
  }

  /** Records in key order (string order), optionally those whose key starts with `prefix`. Frozen. */
  list<T>(table: string, opts?: { prefix?: string }): T[] {
    const t = this.tables.get(table);
    if (!t) return [];
    const keys = t.keys(opts?.prefix);
    const out = new Array<T>(keys.length);
    for (let n = 0; n < keys.length; n++) out[n] = t.rows.get(keys[n]!)!.value as T;
    return out;
  }

  count(table: string): number {
    return this.tables.get(table)?.rows.size ?? 0;
  }

  /**
   * Highest index that wrote to the table. A table never written answers 1, never 0: clients treat index 0 as
   * "do not block", so handing it out would turn their next query into a busy loop.
   */
  tableIndex(table: string): number {
    return Math.max(INITIAL_INDEX, this.tables.get(table)?.index ?? 0);
  }

  /** Index of the last write to the key (a delete too, until compaction); otherwise the table's index. */
  keyIndex(table: string, key: string): number {
    const t = this.tables.get(table);
    return t?.get(key)?.version ?? t?.tombstones.get(key) ?? this.tableIndex(table);
  }

  /**
   * Runs `fn` as one transaction. If it throws, nothing is applied and no index is used; if it changed nothing,
   * the index stays. Otherwise the changes commit at index+1: logged and fsync'ed first (with a data dir), then
   * made visible at once, then waiters and listeners are told.
   */
  write<R>(fn: (tx: Txn) => R): { result: R; index: number } {
    if (this.closed) throw new Error('store: write on a closed store');
    if (this.writing)
      throw new Error('store: write() called inside another write(); use the transaction you have');
    const tx = new TxnImpl(this.current + 1, (name) => this.tables.get(name));
    let result: R;
    this.writing = true;
    try {
      result = fn(tx);
      if (isThenable(result)) {
        throw new TypeError('store: write() callbacks must be synchronous; the transaction was not applied');
      }
    } finally {
      tx.close();
      this.writing = false;
    }

    const changes: Change[] = [];
    // JSON text is only made for a log to write.
    const toLog: ChangeToLog[] | undefined = this.durable ? [] : undefined;
    for (const [table, pending] of tx.overlay) {
      for (const [key, p] of pending) {
        if (p === null) {
          const prev = this.tables.get(table)?.get(key);
          if (!prev) continue; // created and deleted inside this transaction: nothing happened
          changes.push(Object.freeze({ table, key, op: 'delete' as const, value: prev.value }));
          toLog?.push({ table, key, json: null });
        } else {
          changes.push(Object.freeze({ table, key, op: 'put' as const, value: p.value }));
          toLog?.push({ table, key, json: p.json() });
        }
      }
    }
    if (changes.length === 0) return { result, index: this.current };

    const index = tx.index;
    // Durable before visible: if the append fails, this throws and memory is untouched.
    if (this.durable && toLog) this.durable.append(encodeLogLine(index, toLog));

    const touched = new Map<string, string[]>();
    for (const c of changes) {
      const t = this.tableFor(c.table);
      if (c.op === 'put') t.set(c.key, c.value as object, index);
      else t.remove(c.key, index);
      let keys = touched.get(c.table);
      if (!keys) touched.set(c.table, (keys = []));
      keys.push(c.key);
    }
    this.current = index;

    if (++this.commitsSinceCompaction >= this.compactEvery) {
      try {
        this.compact();
      } catch (err) {
        // The commit is already durable in the log; a failed snapshot only means a longer log.
        this.reportError(err);
      }
    }
    this.watchers.notify(touched, index);
    this.deliver(Object.freeze({ index, changes: Object.freeze(changes) }));
    return { result, index };
  }

  /**
   * Resolves with the current index once any watched table/key/prefix has been written at an index above
   * `minIndex` (at once if that is already so), or when `timeoutMs` passes. Rejects with the signal's reason
   * on abort. A `minIndex` of 0 never blocks: everything is at least at the initial index 1.
   */
  waitFor(watch: WatchSpec, minIndex: number, timeoutMs: number, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.closed || timeoutMs <= 0 || this.changedSince(watch, minIndex))
      return Promise.resolve(this.current);
    return this.watchers.wait(watch, timeoutMs, () => this.current, signal);
  }

  /** Pending waitFor() calls; 0 when nothing waits (no leaked listeners). */
  watcherCount(): number {
    return this.watchers.count();
  }

  /** Calls `listener` after each commit, in index order, even if a listener itself writes. Returns unsubscribe. */
  onCommit(listener: (c: Commit) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Forgets tombstones of deleted keys and, with a data dir, writes a snapshot and empties the log. Runs by
   * itself every `compactEvery` commits.
   */
  compact(): void {
    if (this.closed) throw new Error('store: compact on a closed store');
    this.commitsSinceCompaction = 0;
    for (const t of this.tables.values()) t.pruneTombstones();
    this.durable?.snapshot(this.current, this.tables.values());
  }

  /** Releases the data dir and wakes every waiter with the current index. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.watchers.wakeAll(this.current);
    const durable = this.durable;
    this.durable = undefined;
    durable?.close();
  }

  private changedSince(watch: WatchSpec, minIndex: number): boolean {
    for (const s of watch) {
      const t = this.tables.get(s.table);
      let last = 0;
      if (t) {
        if (s.key !== undefined) last = t.lastWrite(s.key);
        else if (s.prefix !== undefined) last = t.lastWriteUnder(s.prefix);
        else last = t.index;
      }
      if (Math.max(last, INITIAL_INDEX) > minIndex) return true;
    }
    return false;
  }

  private tableFor(name: string): Table {
    let t = this.tables.get(name);
    if (!t) this.tables.set(name, (t = new Table(name)));
    return t;
  }

  /** Delivers commits one at a time in index order; a commit made by a listener waits its turn. */
  private deliver(commit: Commit): void {
    this.undelivered.push(commit);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let c = this.undelivered.shift(); c; c = this.undelivered.shift()) {
        for (const listener of [...this.listeners]) {
          try {
            listener(c);
          } catch (err) {
            this.reportError(err);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  private recover({ snapshot, entries }: Recovered): void {
    if (snapshot) {
      for (const st of snapshot.tables) {
        const t = this.tableFor(st.name);
        t.index = st.index;
        t.prunedFloor = st.floor;
        for (const row of st.rows) {
          if (!isSnapshotRow(row)) throw new Error(`store: snapshot table ${st.name} holds a malformed row`);
          t.load(row[0], deepFreeze(row[2]), row[1]);
        }
      }
      this.current = snapshot.index;
    }
    for (const e of entries) {
      for (const c of e.c) {
        const t = this.tableFor(c.t);
        if (c.v !== undefined) t.set(c.k, deepFreeze(c.v), e.i);
        else t.remove(c.k, e.i);
      }
      this.current = e.i;
    }
  }
}

function isSnapshotRow(row: unknown): row is [string, number, object] {
  return (
    Array.isArray(row) &&
    row.length === 3 &&
    typeof row[0] === 'string' &&
    Number.isSafeInteger(row[1]) &&
    row[2] !== null &&
    typeof row[2] === 'object'
  );
}

function isThenable(x: unknown): boolean {
  return (
    x !== null &&
    (typeof x === 'object' || typeof x === 'function') &&
    typeof (x as { then?: unknown }).then === 'function'
  );
}
